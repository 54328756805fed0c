/* Fused dot-add (FDA), mma-sim.md section IV-C, with the UE8M0 block scales of QMMA.SF / UTCQMMA.
 * CoFDA is two FDA passes chained by the dispatcher (mmaref.c). */
#include "algo.h"
#include "fixed.h"
#include "format.h"

enum { FDA_MAX_BLOCKS = 64 };

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
 * formats, so that decoding compiles to a few instructions.  Two sweeps over the operands: the first
 * finds e_max, the second forms, aligns and sums the terms (no intermediate arrays). */
static inline __attribute__((always_inline)) uint64_t
fda_pass(const mmaref_instr *in, const fmt_desc *fa, const fmt_desc *fb, mmaref_format c_fmt, uint64_t c,
         const uint64_t *a, const uint64_t *b, int k, const uint64_t *sa, const uint64_t *sb)
{
    const fmt_desc *fd = fmt_of(in->d);
    const int F = in->frac_bits;

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

    /* Steps 1-3, first sweep: e_max over C and the products' exponents e_a + e_b; note any inf/NaN. */
    int e_max = operand_exp(uc);
    int special = uc.cls >= CLS_INF || scale_nan;
    for (int i = 0; i < k; i++) {
        fp_unpacked x = fmt_decode(fa, a[i]), y = fmt_decode(fb, b[i]);
        special |= (x.cls >= CLS_INF) | (y.cls >= CLS_INF);
        int e = operand_exp(x) + operand_exp(y) + (blocks ? scale_exp[i / in->block_size] : 0);
        e_max = e > e_max ? e : e_max;
    }
    if (special)
        return fda_special_result(in, fa, fb, uc, a, b, k, scale_nan);

    /* Steps 2-4, second sweep: each exact, unnormalized product s_a * s_b aligned to e_max keeping F
     * fractional bits (truncated toward zero), summed exactly. */
    int prod_frac = fa->man_bits + fb->man_bits + scale_frac;
    int64_t sum = fixed_align_rz(uc.sign, uc.sig, fd->man_bits, operand_exp(uc), e_max, F);
    for (int i = 0; i < k; i++) {
        fp_unpacked x = fmt_decode(fa, a[i]), y = fmt_decode(fb, b[i]);
        uint64_t sig = x.sig * y.sig;
        int e = operand_exp(x) + operand_exp(y);
        if (blocks) {
            int j = i / in->block_size;
            sig *= scale_sig[j];
            e += scale_exp[j];
        }
        sum += fixed_align_rz(x.sign ^ y.sign, sig, prod_frac, e, e_max, F);
    }

    /* Step 5: normalize to D. */
    return fixed_to_output(sum, e_max - F, in->out);
}

uint64_t algo_fda(const mmaref_instr *in, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                  const uint64_t *b, int k, const uint64_t *sa, const uint64_t *sb)
{
#define FDA_SAME_FORMAT(f)                                                                         \
    case f:                                                                                        \
        if (in->b == f)                                                                            \
            return fda_pass(in, &fmt_table[f], &fmt_table[f], c_fmt, c, a, b, k, sa, sb);         \
        break;
    switch (in->a) {
        FDA_SAME_FORMAT(MMAREF_F16)
        FDA_SAME_FORMAT(MMAREF_BF16)
        FDA_SAME_FORMAT(MMAREF_TF32)
        FDA_SAME_FORMAT(MMAREF_E4M3)
        FDA_SAME_FORMAT(MMAREF_E5M2)
    default:
        break;
    }
#undef FDA_SAME_FORMAT
    return fda_pass(in, fmt_of(in->a), fmt_of(in->b), c_fmt, c, a, b, k, sa, sb);
}
