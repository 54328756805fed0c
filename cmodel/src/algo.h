/* The summation kinds: one dot-add pass each, run by schedule.c in the order of the instruction's
 * schedule.  A pass reads its parameters (F, G, roundings, scales, flushing, output) from its
 * mmaref_pass record; a and b point at its first product, sa and sb at the scales of its first block
 * (or NULL); c is in c_fmt (the instruction's C on the first pass, the previous pass's output after). */
#ifndef MMAREF_ALGO_H
#define MMAREF_ALGO_H

#include <stdint.h>
#include "fixed.h"
#include "kind_consts.h" /* the per-kind constants the hardware shares */

typedef uint64_t (*algo_pass_fn)(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt,
                                 uint64_t c, const uint64_t *a, const uint64_t *b, const uint64_t *sa,
                                 const uint64_t *sb);

#define ALGO_PASS(name)                                                                             \
    uint64_t name(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,      \
                  const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb)

ALGO_PASS(algo_sfma);   /* algo_sfma.c */
ALGO_PASS(algo_fda);    /* algo_fda.c */
ALGO_PASS(algo_gdfs);   /* algo_gdfs.c */
ALGO_PASS(algo_gps);    /* algo_gps.c (AMD CDNA1/2) */
ALGO_PASS(algo_fdrda);  /* algo_fdrda.c (AMD CDNA3): FDRDA and, for p->algo == GFDRDA, GFDRDA */
ALGO_PASS(algo_m3xu);   /* algo_m3xu.c: M3XU's FP32 (2 steps) and FP32C (4 steps) modes */

/* FDA Step 1 (algo_fda.c), reached only when C, an operand or a scale is inf or NaN: the canonical NaN
 * of fd for a NaN (scale_nan: a NaN scale), 0 * inf, or +inf and -inf among the products and C; else
 * the one infinity.  a, b: k raw operands of formats fa, fb; uc: C decoded. */
uint64_t fda_special_result(const fmt_desc *fd, const fmt_desc *fa, const fmt_desc *fb, fp_unpacked uc,
                            const uint64_t *a, const uint64_t *b, int k, int scale_nan);

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

/* The format a pass writes. */
static inline const fmt_desc *pass_out_format(const mmaref_pass *p)
{
    return fmt_of(out_table[p->out].format);
}

#endif
