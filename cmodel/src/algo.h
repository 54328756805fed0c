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
#include "kind_consts.h" /* the per-kind constants the hardware shares */
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
 * the one infinity.  a, b: k raw operands of formats fa, fb; uc: C decoded.  t: a sink breaking the rule
 * inf-minus-inf (rules.c) gets -inf for +inf and -inf; NULL in the normal run. */
uint64_t fda_special_result(const fmt_desc *fd, const fmt_desc *fa, const fmt_desc *fb, fp_unpacked uc,
                            const uint64_t *a, const uint64_t *b, int k, int scale_nan, const trace_sink *t);

/* Step 2's exponent of an operand: a zero takes ZERO_OPERAND_EXP.  (A sink breaking the rule
 * zero-operand-exp, rules.c: the exponent fmt_decode gives a zero, its format's smallest.) */
static inline int operand_exp(const trace_sink *t, fp_unpacked u)
{
    return u.cls == CLS_ZERO && !(t && trace_breaks(t, RULE_ZERO_OPERAND_EXP)) ? ZERO_OPERAND_EXP : u.exp;
}

/* The fused passes' last step (FDA Step 5, FDRDA Step 8, GDFS, M3XU): the sum rounded to the pass's
 * output kind.  (A sink breaking output-ties or output-sticky, rules.c: a nearest-even kind rounds ties
 * away, or without its sticky bit.) */
static inline uint64_t pass_output(const trace_sink *t, int64_t sum, int lsb_exp, mmaref_output out)
{
    if (t && out_table[out_part(out)].rounding == MMAREF_RNE) {
        if (trace_breaks(t, RULE_OUTPUT_TIES))
            return fixed_to_output_as(sum, lsb_exp, out, FP_RNA);
        if (trace_breaks(t, RULE_OUTPUT_STICKY))
            return fixed_to_output_as(sum, lsb_exp, out, FP_RNE_NO_STICKY);
    }
    return fixed_to_output(sum, lsb_exp, out);
}

/* FDA Step 2's exponent of a term for e_max: C, or the product x*y.  Where the pass gives zero terms an
 * exponent of their own (zero_term_exp, Hopper), a zero term takes it; else each zero operand counts as
 * ZERO_OPERAND_EXP. */
static inline int c_term_exp(const trace_sink *t, const mmaref_pass *p, fp_unpacked c)
{
    return p->zero_term_exp && c.cls == CLS_ZERO ? p->zero_term_exp : operand_exp(t, c);
}
static inline int product_term_exp(const trace_sink *t, const mmaref_pass *p, fp_unpacked x, fp_unpacked y)
{
    return p->zero_term_exp && (x.cls == CLS_ZERO || y.cls == CLS_ZERO) ? p->zero_term_exp
                                                                        : operand_exp(t, x) + operand_exp(t, y);
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
