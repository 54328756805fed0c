/* Fused dot-add (FDA), mma-sim.md section IV-C, with the UE8M0 block scales of QMMA.SF / UTCQMMA.
 * CoFDA is two FDA passes chained by the dispatcher (mmaref.c). */
#include "algo.h"
#include "fixed.h"
#include "format.h"

enum { FDA_MAX_K = 64 };

/* Step 1 bookkeeping: NaN anywhere, 0 * inf, or infinities of both signs give NaN. */
typedef struct {
    int nan, pos_inf, neg_inf;
} fda_specials;

static inline void note_inf(fda_specials *s, int sign)
{
    if (sign)
        s->neg_inf = 1;
    else
        s->pos_inf = 1;
}

static inline int operand_exp(fp_unpacked u) { return u.cls == CLS_ZERO ? ZERO_OPERAND_EXP : u.exp; }

/* One FDA pass.  Always inlined into algo_fda with constant format descriptors for the common operand
 * formats, so that decoding compiles to a few instructions. */
static inline __attribute__((always_inline)) uint64_t
fda_pass(const mmaref_instr *in, const fmt_desc *fa, const fmt_desc *fb, mmaref_format c_fmt, uint64_t c,
         const uint64_t *a, const uint64_t *b, int k, const uint64_t *sa, const uint64_t *sb)
{
    const fmt_desc *fd = fmt_of(in->d);
    const int F = in->frac_bits;
    fda_specials sp = {0, 0, 0};

    /* C enters in D's format (Volta's f16 C of an f32 D is widened exactly). */
    fp_unpacked uc = fmt_decode(fmt_of(c_fmt), c);
    if (c_fmt != in->d)
        uc = fmt_widen(fmt_of(c_fmt), fd, uc);
    if (uc.cls == CLS_NAN)
        sp.nan = 1;
    else if (uc.cls == CLS_INF)
        note_inf(&sp, uc.sign);

    /* Scale factors: one pair per block of K; a NaN scale makes D NaN. */
    int scale_exp[FDA_MAX_K], scale_frac = 0;
    uint64_t scale_sig[FDA_MAX_K];
    int blocks = in->block_size ? (k + in->block_size - 1) / in->block_size : 0;
    for (int j = 0; j < blocks; j++) {
        const fmt_desc *fs = fmt_of(in->scale);
        fp_unpacked x = fmt_decode(fs, sa[j]), y = fmt_decode(fs, sb[j]);
        if (x.cls == CLS_NAN || y.cls == CLS_NAN)
            sp.nan = 1;
        scale_sig[j] = x.sig * y.sig;
        scale_exp[j] = operand_exp(x) + operand_exp(y);
        scale_frac = 2 * fs->man_bits;
    }

    /* Step 2: exact, unnormalized products s_k = s_a * s_b, e_k = e_a + e_b (+ scale exponents). */
    uint64_t sig[FDA_MAX_K];
    int exp[FDA_MAX_K], sign[FDA_MAX_K];
    int prod_frac = fa->man_bits + fb->man_bits + (blocks ? scale_frac : 0);
    int e_max = operand_exp(uc);
    int any_special = 0;
    for (int i = 0; i < k; i++) {
        fp_unpacked x = fmt_decode(fa, a[i]), y = fmt_decode(fb, b[i]);
        any_special |= (x.cls >= CLS_INF) | (y.cls >= CLS_INF);
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
    if (any_special)
        for (int i = 0; i < k; i++) {
            fp_unpacked x = fmt_decode(fa, a[i]), y = fmt_decode(fb, b[i]);
            if (x.cls < CLS_INF && y.cls < CLS_INF)
                continue;
            if (x.cls == CLS_NAN || y.cls == CLS_NAN || x.cls == CLS_ZERO || y.cls == CLS_ZERO)
                sp.nan = 1;
            else
                note_inf(&sp, x.sign ^ y.sign);
        }
    if (sp.nan || (sp.pos_inf && sp.neg_inf))
        return fmt_canonical_nan(fd);
    if (sp.pos_inf || sp.neg_inf)
        return fmt_inf(fd, sp.neg_inf);

    /* Steps 3-4: align everything to e_max keeping F fractional bits (truncated), exact sum. */
    int64_t sum = fixed_align_rz(uc.sign, uc.sig, fd->man_bits, operand_exp(uc), e_max, F);
    for (int i = 0; i < k; i++)
        sum += fixed_align_rz(sign[i], sig[i], prod_frac, exp[i], e_max, F);

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
