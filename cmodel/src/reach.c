/* What an instruction's terms can reach (reach.h). */
#include "reach.h"


reach_ctx reach_of(const mmaref_instr *in)
{
    reach_ctx r = {.fa = part_of(in->a), .fb = part_of(in->b), .fc = part_of(in->c), .fd = part_of(in->d),
                   .last = &in->pass[in->passes - 1], .k = in->k, .ns = mmaref_scale_count(in),
                   .complex = mmaref_format_parts(in->a) > 1};
    r.fs = r.ns ? fmt_of(in->scale) : NULL;
    r.out = out_table[r.last->out];
    r.c_last = in->c_last;
    if (r.c_last) { /* D = P + C, one IEEE addition rounded to nearest even in D's format */
        r.out.rounding = MMAREF_RNE;
        r.out.man_bits = r.fd->man_bits;
        r.out.signed_zero = 1;
    }
    r.P = r.out.man_bits;
    r.align_fda = is_fda_like(r.last->algo);
    r.fda_like = r.align_fda && !r.c_last;
    r.F = r.align_fda ? r.last->frac_bits : 0;
    r.terms = r.last->algo == MMAREF_ALGO_SFMA || r.c_last ? 2 : r.last->k_count + 1;
    int s_min = r.fs ? 2 * log2_min(r.fs) : 0;
    long double s_max = r.fs ? max_value(r.fs) * max_value(r.fs) : 1;
    int c_min = log2_min(r.fc);
    r.p_min = log2_min(r.fa) + log2_min(r.fb) + s_min;
    r.term_min = r.p_min < c_min ? r.p_min : c_min;
    /* GDFS: a block's zero sum still weighs its two scales in e_max, so no bit of the sum lies below
     * 2^(2 s_min - F) */
    if (r.last->algo == MMAREF_ALGO_GDFS && r.term_min < s_min - r.last->frac_bits)
        r.term_min = s_min - r.last->frac_bits;
    r.c_max = max_value(r.fc);
    r.p_max = max_value(r.fa) * max_value(r.fb) * s_max;
    long double top = r.c_max > r.p_max ? r.c_max : r.p_max;
    r.range = (int)floorl(log2l(top)) - r.term_min;
    r.term_bits = precision(r.fa) + precision(r.fb) + 2;
    /* D's largest finite at the output's precision (e8m13 keeps 13 of f32's 23 bits) */
    r.d_max = ldexpl(2.0L - ldexpl(1, -r.P), (int)floorl(log2l(max_value(r.fd))));
    return r;
}


int reach_subnormal_d(const reach_ctx *r) { return !r->last->flush && r->term_min < fmt_min_exp(r->fd); }

int reach_overflow_inf(const reach_ctx *r)
{
    long double sum_max = r->c_max + r->k * r->p_max;
    long double inf_at = r->out.rounding == MMAREF_RZ
                             ? ldexpl(1, (int)floorl(log2l(r->d_max)) + 1)
                             : r->d_max + ldexpl(1, (int)floorl(log2l(r->d_max)) - r->P - 1);
    return sum_max >= inf_at;
}
