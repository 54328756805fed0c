/* The summation kinds: one dot-add pass each, run by schedule.c in the order of the instruction's
 * schedule.  A pass reads its parameters (F, G, roundings, scales, flushing, output) from its
 * mmaref_pass record; a and b point at its first product, sa and sb at the scales of its first block
 * (or NULL); c is in c_fmt (the instruction's C on the first pass, the previous pass's output after).
 * t (the _trace entries): the trace sink of `mmaref explain` (trace.h); a pass writes its steps there as
 * it computes them, so that the explanation is the model itself. */
#ifndef MMAREF_ALGO_H
#define MMAREF_ALGO_H

#include <stdint.h>
#include "fixed.h"
#include "trace.h"

typedef uint64_t (*algo_pass_fn)(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt,
                                 uint64_t c, const uint64_t *a, const uint64_t *b, const uint64_t *sa,
                                 const uint64_t *sb);
typedef uint64_t (*algo_trace_fn)(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt,
                                  uint64_t c, const uint64_t *a, const uint64_t *b, const uint64_t *sa,
                                  const uint64_t *sb, trace_sink *t);

/* Each kind's pass, in two entry points to the one definition: algo_<kind> (the normal run) and
 * algo_<kind>_trace (the same steps, written into t), so that the normal run takes no sink argument. */
/* algo_sfma.c: the MMA-Sim paper's Algorithm 1, a chain of IEEE FMAs */
uint64_t algo_sfma(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                   const uint64_t *b, const uint64_t *sa, const uint64_t *sb);
uint64_t algo_sfma_trace(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,
                         const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t);
/* algo_fda.c: fused dot-add, with or without block scales per product */
uint64_t algo_fda(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                  const uint64_t *b, const uint64_t *sa, const uint64_t *sb);
uint64_t algo_fda_trace(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,
                        const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t);
/* algo_gdfs.c: group dot, fused sum, scaled per group */
uint64_t algo_gdfs(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                   const uint64_t *b, const uint64_t *sa, const uint64_t *sb);
uint64_t algo_gdfs_trace(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,
                         const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t);
/* algo_gps.c: group pairwise sum (AMD CDNA1/2) */
uint64_t algo_gps(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                  const uint64_t *b, const uint64_t *sa, const uint64_t *sb);
uint64_t algo_gps_trace(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,
                        const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t);
/* algo_fdrda.c (AMD CDNA3): FDRDA and, for p->algo == GFDRDA, GFDRDA */
uint64_t algo_fdrda(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                    const uint64_t *b, const uint64_t *sa, const uint64_t *sb);
uint64_t algo_fdrda_trace(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,
                          const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t);
/* algo_m3xu.c: M3XU's FP32 (2 steps) and FP32C (4 steps) modes */
uint64_t algo_m3xu(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                   const uint64_t *b, const uint64_t *sa, const uint64_t *sb);
uint64_t algo_m3xu_trace(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,
                         const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t);

/* FDA Step 1 (algo_fda.c), reached only when C, an operand or a scale is inf or NaN: the canonical NaN
 * of fd for a NaN (scale_nan: a NaN scale), 0 * inf, or +inf and -inf among the products and C; else
 * the one infinity.  a, b: k raw operands of formats fa, fb; uc: C decoded. */
uint64_t fda_special_result(const fmt_desc *fd, const fmt_desc *fa, const fmt_desc *fb, fp_unpacked uc,
                            const uint64_t *a, const uint64_t *b, int k, int scale_nan);

/* M3XU's F_w: the fractional bits of its 48-bit product register, 2 x 23 for two f32 significands, so
 * that a product at e_max enters the sum exactly (docs/m3xu.md).  The instruction table's F and the
 * largest F the kind takes. */
enum { M3XU_PRODUCT_FRAC_BITS = 46 };

/* AMD CDNA3's FDRDA and GFDRDA (the MMA-Sim paper, IV-F to IV-I; algo_fdrda.c). */
enum {
    FDRDA_DOT_F = 31,       /* Step 6: s_dot is rounded down at its 31st fractional bit ... */
    FDRDA_C_F = 24,         /* ... and c at its 24th */
    GFDRDA_C_WINDOW = 25,   /* GFDRDA Step 8: c rounds toward zero when e_c < e_max - 25 */
    AMD_PRODUCT_OVERFLOW_EXP = 128, /* Step 2: |p_k| >= 2^128 overflows to infinity */
};

/* M3XU's multipliers are 12 bits wide: an f32 significand (24 bits with the hidden one) is two halves. */
enum { M3XU_HALF_BITS = 12 };

/* A zero operand decodes with exponent -126 whatever its format, and that exponent takes part in e_max
 * (a zero product a*b has exponent -126 + e_b): the convention of the MMA-Sim paper's simulator
 * (docs/algorithms.md, "Conventions"). */
enum { ZERO_OPERAND_EXP = -126 };

/* Step 2's exponent of an operand: a zero takes ZERO_OPERAND_EXP. */
static inline int operand_exp(fp_unpacked u) { return u.cls == CLS_ZERO ? ZERO_OPERAND_EXP : u.exp; }

/* FDA Step 2's exponent of a term for e_max: C, or the product x*y.  Where the pass gives zero terms an
 * exponent of their own (zero_term_exp, Hopper), a zero term takes it; else each zero operand counts as
 * ZERO_OPERAND_EXP. */
static inline int c_term_exp(const mmaref_pass *p, fp_unpacked c)
{
    return p->zero_term_exp && c.cls == CLS_ZERO ? p->zero_term_exp : operand_exp(c);
}
static inline int product_term_exp(const mmaref_pass *p, fp_unpacked x, fp_unpacked y)
{
    return p->zero_term_exp && (x.cls == CLS_ZERO || y.cls == CLS_ZERO) ? p->zero_term_exp
                                                                        : operand_exp(x) + operand_exp(y);
}

/* Step 3 of the fused kinds: one term sig * 2^(exp - frac) aligned to e_max keeping F fractional bits,
 * truncated toward zero (fixed_align_rz), and its trace line ("shifted right ...") when traced. */
static inline int64_t align_term_rz(trace_sink *t, const char *step, const char *what, int index, int sign,
                                    uint64_t sig, int frac, int exp, int e_max, int F)
{
    int64_t v = fixed_align_rz(sign, sig, frac, exp, e_max, F);
    if (t)
        trace_align(t, step, what, index, v, sig, frac, exp, e_max, F, MMAREF_RZ);
    return v;
}

/* The format a pass writes. */
static inline const fmt_desc *pass_out_format(const mmaref_pass *p)
{
    return fmt_of(out_table[p->out].format);
}

#endif
