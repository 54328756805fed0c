/* Group dot, fused sum (GDFS), the MMA-Sim paper, section IV-E: OMMA / UTCOMMA on MXFP4 and NVFP4. */
#include "algo.h"
#include "fixed.h"
#include "format.h"

static inline __attribute__((always_inline)) uint64_t
gdfs_pass(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
          const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t)
{
    const fmt_desc *fa = fmt_of(in->a), *fb = fmt_of(in->b), *fs = fmt_of(in->scale);
    const fmt_desc *fd = pass_out_format(p);
    const int F = p->frac_bits, G = p->group, k = p->k_count;
    int groups = k / G; /* G divides k_count (mmaref_check_schedule) */

    /* Step 0 (UE4M3 sign bit ignored) happens in the scale format's decode.
     * Step 1: FP4 has no inf or NaN; a NaN scale or a NaN c gives NaN, an infinite c is returned. */
    fp_unpacked uc = fmt_decode(fmt_of(c_fmt), c);
    if (fmt_of(c_fmt) != fd)
        uc = fmt_widen(fmt_of(c_fmt), fd, uc);
    int scale_nan = 0;
    for (int j = 0; j < k / in->block_size; j++)
        scale_nan |= fmt_decode(fs, sa[j]).cls == CLS_NAN || fmt_decode(fs, sb[j]).cls == CLS_NAN;
    if (scale_nan || uc.cls >= CLS_INF) {
        uint64_t d = scale_nan || uc.cls == CLS_NAN ? fmt_canonical_nan(fd) : fmt_inf(fd, uc.sign);
        if (t)
            trace_result(t, "Step 1", "specials", -1, "a NaN scale or an infinite or NaN C: D = ", fd, d, 1);
        return d;
    }

    /* Steps 2-3: exact products, summed in fixed point in groups of G (16) whatever the block size.
     * The unit is the smallest product, 2^(2 e_min - man_a - man_b) (0.25 for e2m1). */
    int emin_a = fmt_min_exp(fa), emin_b = fmt_min_exp(fb);
    int64_t sigma[MMAREF_MAX_K];
    for (int g = 0; g < groups; g++) {
        sigma[g] = 0;
        for (int i = g * G; i < (g + 1) * G; i++) {
            fp_unpacked x = fmt_decode(fa, a[i]), y = fmt_decode(fb, b[i]);
            int64_t p = (int64_t)((x.sig * y.sig) << ((x.exp - emin_a) + (y.exp - emin_b)));
            sigma[g] += (x.sign ^ y.sign) ? -p : p;
        }
    }

    /* Step 4: gamma_g = sigma_g * s_sa * s_sb, exponent e_sa + e_sb (the scales' exponents only). */
    int gamma_frac = fa->man_bits + fb->man_bits - emin_a - emin_b + 2 * fs->man_bits;
    int gamma_exp[MMAREF_MAX_K];
    uint64_t gamma_sig[MMAREF_MAX_K];
    int e_max = operand_exp(t, uc);
    for (int g = 0; g < groups; g++) {
        int j = g * G / in->block_size;
        fp_unpacked x = fmt_decode(fs, sa[j]), y = fmt_decode(fs, sb[j]);
        uint64_t mag = sigma[g] < 0 ? (uint64_t)-sigma[g] : (uint64_t)sigma[g];
        gamma_sig[g] = mag * x.sig * y.sig;
        gamma_exp[g] = operand_exp(t, x) + operand_exp(t, y);
        if (gamma_exp[g] > e_max)
            e_max = gamma_exp[g];
        if (t)
            trace_group(t, g, p->k_first + g * G, p->k_first + (g + 1) * G - 1, sigma[g],
                        fa->man_bits + fb->man_bits - emin_a - emin_b, gamma_exp[g]);
    }
    if (t) {
        trace_line(t, "Step 5", "e_max", -1, "%d", e_max);
        trace_value_int(t, e_max);
    }

    /* Steps 5-6: align c and the gammas to e_max with F = 35 fractional bits (RZ), exact sum. */
    int64_t sum = align_term_rz(t, "Step 5", "c", -1, uc.sign, uc.sig, fd->man_bits, operand_exp(t, uc), e_max, F);
    for (int g = 0; g < groups; g++)
        sum += align_term_rz(t, "Step 5", "group", g, sigma[g] < 0, gamma_sig[g], gamma_frac, gamma_exp[g], e_max, F);
    if (t)
        trace_sum(t, "Step 6", "sum", "exact sum", sum, F, e_max, 1);

    /* Step 7: normalize to f32 with RZ. */
    uint64_t d = pass_output(t, sum, e_max - F, p->out);
    if (t)
        trace_normalize(t, "Step 7", sum, e_max - F, p->out, d);
    return d;
}

uint64_t algo_gdfs(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                   const uint64_t *b, const uint64_t *sa, const uint64_t *sb)
{
    return gdfs_pass(in, p, c_fmt, c, a, b, sa, sb, NULL);
}

uint64_t algo_gdfs_trace(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,
                         const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t)
{
    return gdfs_pass(in, p, c_fmt, c, a, b, sa, sb, t);
}
