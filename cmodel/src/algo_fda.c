/* Fused dot-add (FDA), the MMA-Sim paper, section IV-C, with the UE8M0 block scales of QMMA.SF / UTCQMMA.
 * CoFDA is a schedule of two FDA passes (schedule.c). */
#include "algo.h"
#include "fixed.h"
#include "format.h"

/* Step 1, reached only when an infinity or a NaN is present: NaN anywhere (a scale factor included),
 * 0 * inf, or infinities of both signs among the products and C give the canonical NaN; otherwise D is
 * the one infinity.  (M3XU's Step 1 too: algo.h.) */
uint64_t __attribute__((noinline))
fda_special_result(const fmt_desc *fd, const fmt_desc *fa, const fmt_desc *fb, fp_unpacked uc,
                   const uint64_t *a, const uint64_t *b, int k, int scale_nan, const trace_sink *t)
{
    int nan = scale_nan || uc.cls == CLS_NAN;
    int pos_inf = uc.cls == CLS_INF && !uc.sign, neg_inf = uc.cls == CLS_INF && uc.sign;
    for (int i = 0; i < k; i++) {
        fp_unpacked x = fmt_decode(fa, a[i]), y = fmt_decode(fb, b[i]);
        if (x.cls < CLS_INF && y.cls < CLS_INF)
            continue;
        if (x.cls == CLS_NAN || y.cls == CLS_NAN || x.cls == CLS_ZERO || y.cls == CLS_ZERO)
            nan = 1;
        else if (x.sign ^ y.sign)
            neg_inf = 1;
        else
            pos_inf = 1;
    }
    if (nan || (pos_inf && neg_inf && !(t && trace_breaks(t, RULE_INF_MINUS_INF))))
        return fmt_canonical_nan(fd);
    return fmt_inf(fd, neg_inf);
}

/* One FDA pass.  Always inlined into algo_fda with constant format descriptors for the common operand
 * formats (and no trace), so that decoding compiles to a few instructions. */
static inline __attribute__((always_inline)) uint64_t
fda_pass(const mmaref_instr *in, const mmaref_pass *p, const fmt_desc *fa, const fmt_desc *fb, const int F,
         const int scaled, mmaref_format c_fmt, uint64_t c, const uint64_t *a, const uint64_t *b,
         const uint64_t *sa, const uint64_t *sb, trace_sink *t)
{
    const fmt_desc *fd = pass_out_format(p);
    const int k = p->k_count;

    /* C enters in the output's format (Volta's f16 C of an f32 D is widened exactly). */
    fp_unpacked uc = fmt_decode(fmt_of(c_fmt), c);
    if (fmt_of(c_fmt) != fd) {
        uc = fmt_widen(fmt_of(c_fmt), fd, uc);
        if (t)
            trace_line(t, "Step 0", "c", -1, "C (%s) widened exactly to the output format %s", fmt_of(c_fmt)->name,
                       fd->name);
    }

    /* Block scales: per block, the product of the two factors' significands and the sum of their
     * exponents (e_k = e_a + e_b + e_sa + e_sb). */
    int scale_exp[MMAREF_MAX_SCALES], scale_frac = 0, scale_nan = 0;
    uint64_t scale_sig[MMAREF_MAX_SCALES];
    int blocks = scaled ? (k + in->block_size - 1) / in->block_size : 0;
    for (int j = 0; j < blocks; j++) {
        const fmt_desc *fs = fmt_of(in->scale);
        fp_unpacked x = fmt_decode(fs, sa[j]), y = fmt_decode(fs, sb[j]);
        scale_nan |= x.cls == CLS_NAN || y.cls == CLS_NAN;
        scale_sig[j] = x.sig * y.sig;
        scale_exp[j] = operand_exp(t, x) + operand_exp(t, y);
        scale_frac = 2 * fs->man_bits;
        if (t)
            trace_scale(t, j, scale_sig[j], scale_frac, scale_exp[j], scale_nan);
    }

    /* Steps 1-2: exact, unnormalized products s_k = s_a * s_b with e_k = e_a + e_b (+ e_sa + e_sb),
     * kept for the alignment; e_max over C and the products (from: the product that set it, -1 for C);
     * note any inf/NaN. */
    const int prod_frac = fa->man_bits + fb->man_bits + scale_frac;
    uint64_t sig[MMAREF_MAX_K];
    int exp[MMAREF_MAX_K], sign[MMAREF_MAX_K];
    int e_max = c_term_exp(t, p, uc), from = -1;
    int special = uc.cls >= CLS_INF || scale_nan;
    for (int i = 0; i < k; i++) {
        fp_unpacked x = fmt_decode(fa, a[i]), y = fmt_decode(fb, b[i]);
        special |= (x.cls >= CLS_INF) | (y.cls >= CLS_INF);
        sign[i] = x.sign ^ y.sign;
        sig[i] = x.sig * y.sig;
        exp[i] = product_term_exp(t, p, x, y);
        if (blocks) {
            int j = i / in->block_size;
            sig[i] *= scale_sig[j];
            exp[i] += scale_exp[j];
        }
        if (t) {
            from = exp[i] > e_max ? i : from;
            if (x.cls < CLS_INF && y.cls < CLS_INF)
                trace_product(t, "p", mmaref_pass_k(p, i), sign[i], sig[i], prod_frac, exp[i], p->zero_term_exp);
        }
        e_max = exp[i] > e_max ? exp[i] : e_max;
    }
    if (special) {
        uint64_t d = fda_special_result(fd, fa, fb, uc, a, b, k, scale_nan, t);
        if (t)
            trace_result(t, "Step 1", "specials", -1,
                         "an infinity or NaN among C, the operands or the scales: D = ", fd, d, 1);
        return d;
    }
    if (t) {
        if (from < 0)
            trace_line(t, "Step 2", "e_max", -1, "%d, C's exponent%s (no product is larger)", e_max,
                       p->zero_term_exp && uc.cls == CLS_ZERO ? ", a zero term's own" : "");
        else
            trace_line(t, "Step 2", "e_max", -1, "%d, from p[%d]", e_max, mmaref_pass_k(p, from));
        trace_value_int(t, e_max);
    }

    /* Steps 3-4: align every term to e_max keeping F fractional bits (truncated toward zero), exact sum. */
    int64_t sum = align_term_rz(t, "Step 3", "c", -1, uc.sign, uc.sig, fd->man_bits, c_term_exp(t, p, uc), e_max, F);
    for (int i = 0; i < k; i++)
        sum += align_term_rz(t, "Step 3", "p", mmaref_pass_k(p, i), sign[i], sig[i], prod_frac, exp[i], e_max, F);
    if (t)
        trace_sum(t, "Step 4", "sum", "exact sum of the aligned terms", sum, F, e_max, 1);

    /* Step 5: normalize to D. */
    uint64_t d = pass_output(t, sum, e_max - F, p->out);
    if (t)
        trace_normalize(t, "Step 5", sum, e_max - F, p->out, d);
    return d;
}

/* The common unscaled cases get their own copy of fda_pass with the formats and F as
 * constants. */
#define FDA_CASE(fmt, f)                                                                           \
    if (in->a == fmt && in->b == fmt && p->frac_bits == f && !scaled)                               \
        return fda_pass(in, p, &fmt_table[fmt], &fmt_table[fmt], f, 0, c_fmt, c, a, b, sa, sb, NULL);

/* The traced pass (mmaref_explain), a copy of its own. */
uint64_t algo_fda_trace(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,
                        const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t)
{
    return fda_pass(in, p, fmt_of(in->a), fmt_of(in->b), p->frac_bits, p->scales == MMAREF_SCALES_PER_PRODUCT,
                    c_fmt, c, a, b, sa, sb, t);
}

uint64_t algo_fda(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                  const uint64_t *b, const uint64_t *sa, const uint64_t *sb)
{
    const int scaled = p->scales == MMAREF_SCALES_PER_PRODUCT;
    FDA_CASE(MMAREF_F16, 25) FDA_CASE(MMAREF_F16, 24) FDA_CASE(MMAREF_F16, 23)
    FDA_CASE(MMAREF_BF16, 25) FDA_CASE(MMAREF_BF16, 24)
    FDA_CASE(MMAREF_TF32, 25) FDA_CASE(MMAREF_TF32, 24)
    FDA_CASE(MMAREF_E4M3, 13) FDA_CASE(MMAREF_E4M3, 25)
    FDA_CASE(MMAREF_E5M2, 13) FDA_CASE(MMAREF_E5M2, 25)
    return fda_pass(in, p, fmt_of(in->a), fmt_of(in->b), p->frac_bits, scaled, c_fmt, c, a, b, sa, sb, NULL);
}
#undef FDA_CASE
