/* Fused dot-add (FDA), mma-sim.md section IV-C, with the UE8M0 block scales of QMMA.SF / UTCQMMA.
 * CoFDA is two FDA passes chained by the dispatcher (mmaref.c). */
#include "algo.h"
#include "fixed.h"
#include "format.h"

enum { FDA_MAX_K = 64, FDA_MAX_BLOCKS = 64 };

/* Step 2's exponent of an operand: a zero takes exponent -126 whatever its format (MMA-Sim). */
static inline int operand_exp(fp_unpacked u) { return u.cls == CLS_ZERO ? ZERO_OPERAND_EXP : u.exp; }

/* Step 1, reached only when an infinity or a NaN is present: NaN anywhere (a scale factor included),
 * 0 * inf, or infinities of both signs among the products and C give the canonical NaN; otherwise D is
 * the one infinity. */
static uint64_t __attribute__((noinline))
fda_special_result(const mmaref_instr *in, const fmt_desc *fa, const fmt_desc *fb, fp_unpacked uc,
                   const uint64_t *a, const uint64_t *b, int k, int scale_nan)
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
    const fmt_desc *fd = fmt_of(in->d);
    if (nan || (pos_inf && neg_inf))
        return fmt_canonical_nan(fd);
    return fmt_inf(fd, neg_inf);
}

/* One FDA pass.  Always inlined into algo_fda with constant format descriptors for the common operand
 * formats, so that decoding compiles to a few instructions. */
static inline __attribute__((always_inline)) uint64_t
fda_pass(const mmaref_instr *in, const fmt_desc *fa, const fmt_desc *fb, const int F, mmaref_format c_fmt,
         uint64_t c, const uint64_t *a, const uint64_t *b, int k, const uint64_t *sa, const uint64_t *sb)
{
    const fmt_desc *fd = fmt_of(in->d);

    /* C enters in D's format (Volta's f16 C of an f32 D is widened exactly). */
    fp_unpacked uc = fmt_decode(fmt_of(c_fmt), c);
    if (c_fmt != in->d)
        uc = fmt_widen(fmt_of(c_fmt), fd, uc);

    /* Block scales: per block, the product of the two factors' significands and the sum of their
     * exponents (e_k = e_a + e_b + e_sa + e_sb). */
    int scale_exp[FDA_MAX_BLOCKS], scale_frac = 0, scale_nan = 0;
    uint64_t scale_sig[FDA_MAX_BLOCKS];
    int blocks = in->block_size ? (k + in->block_size - 1) / in->block_size : 0;
    for (int j = 0; j < blocks; j++) {
        const fmt_desc *fs = fmt_of(in->scale);
        fp_unpacked x = fmt_decode(fs, sa[j]), y = fmt_decode(fs, sb[j]);
        scale_nan |= x.cls == CLS_NAN || y.cls == CLS_NAN;
        scale_sig[j] = x.sig * y.sig;
        scale_exp[j] = operand_exp(x) + operand_exp(y);
        scale_frac = 2 * fs->man_bits;
    }

    /* Steps 1-2: exact, unnormalized products s_k = s_a * s_b with e_k = e_a + e_b (+ e_sa + e_sb),
     * kept for the alignment; e_max over C and the products; note any inf/NaN. */
    uint64_t sig[FDA_MAX_K];
    int exp[FDA_MAX_K], sign[FDA_MAX_K];
    int e_max = operand_exp(uc);
    int special = uc.cls >= CLS_INF || scale_nan;
    for (int i = 0; i < k; i++) {
        fp_unpacked x = fmt_decode(fa, a[i]), y = fmt_decode(fb, b[i]);
        special |= (x.cls >= CLS_INF) | (y.cls >= CLS_INF);
        sign[i] = x.sign ^ y.sign;
        sig[i] = x.sig * y.sig;
        exp[i] = operand_exp(x) + operand_exp(y);
        if (blocks) {
            int j = i / in->block_size;
            sig[i] *= scale_sig[j];
            exp[i] += scale_exp[j];
        }
        e_max = exp[i] > e_max ? exp[i] : e_max;
    }
    if (special)
        return fda_special_result(in, fa, fb, uc, a, b, k, scale_nan);

    /* Steps 3-4: align every term to e_max keeping F fractional bits (truncated toward zero), exact sum. */
    int prod_frac = fa->man_bits + fb->man_bits + scale_frac;
    int64_t sum = fixed_align_rz(uc.sign, uc.sig, fd->man_bits, operand_exp(uc), e_max, F);
    for (int i = 0; i < k; i++)
        sum += fixed_align_rz(sign[i], sig[i], prod_frac, exp[i], e_max, F);

    /* Step 5: normalize to D. */
    return fixed_to_output(sum, e_max - F, in->out);
}

/* The common unscaled cases get their own copy of fda_pass with the formats and F as constants. */
#define FDA_CASE(fmt, f)                                                                           \
    if (in->a == fmt && in->b == fmt && in->frac_bits == f && !in->block_size)                      \
        return fda_pass(in, &fmt_table[fmt], &fmt_table[fmt], f, c_fmt, c, a, b, k, sa, sb);

uint64_t algo_fda(const mmaref_instr *in, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                  const uint64_t *b, int k, const uint64_t *sa, const uint64_t *sb)
{
    FDA_CASE(MMAREF_F16, 25) FDA_CASE(MMAREF_F16, 24) FDA_CASE(MMAREF_F16, 23)
    FDA_CASE(MMAREF_BF16, 25) FDA_CASE(MMAREF_BF16, 24)
    FDA_CASE(MMAREF_TF32, 25) FDA_CASE(MMAREF_TF32, 24)
    FDA_CASE(MMAREF_E4M3, 13) FDA_CASE(MMAREF_E4M3, 25)
    FDA_CASE(MMAREF_E5M2, 13) FDA_CASE(MMAREF_E5M2, 25)
    return fda_pass(in, fmt_of(in->a), fmt_of(in->b), in->frac_bits, c_fmt, c, a, b, k, sa, sb);
}
#undef FDA_CASE
