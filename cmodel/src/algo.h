/* The arithmetic algorithms: one dot-add pass each.  A chained instruction (CoFDA, CoFDRDA, CoGFDRDA)
 * is two passes, driven by mmaref.c; c_fmt is C's format on the first pass and D's on the second. */
#ifndef MMAREF_ALGO_H
#define MMAREF_ALGO_H

#include <stdint.h>
#include "mmaref.h"

/* One pass over k products.  sa/sb point at the scales of this pass's first block (or NULL). */
typedef uint64_t (*algo_pass_fn)(const mmaref_instr *in, mmaref_format c_fmt, uint64_t c,
                                 const uint64_t *a, const uint64_t *b, int k,
                                 const uint64_t *sa, const uint64_t *sb);

uint64_t algo_sfma(const mmaref_instr *in, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                   const uint64_t *b, int k, const uint64_t *sa, const uint64_t *sb);
uint64_t algo_fda(const mmaref_instr *in, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                  const uint64_t *b, int k, const uint64_t *sa, const uint64_t *sb);
uint64_t algo_gdfs(const mmaref_instr *in, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                   const uint64_t *b, int k, const uint64_t *sa, const uint64_t *sb);

/* AMD (issue 3): group pairwise sum, fused dot round-down add, grouped FDRDA. */
uint64_t algo_gps(const mmaref_instr *in, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                  const uint64_t *b, int k, const uint64_t *sa, const uint64_t *sb);
uint64_t algo_fdrda(const mmaref_instr *in, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                    const uint64_t *b, int k, const uint64_t *sa, const uint64_t *sb);
uint64_t algo_gfdrda(const mmaref_instr *in, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                     const uint64_t *b, int k, const uint64_t *sa, const uint64_t *sb);

/* MMA-Sim decodes a zero operand with exponent -126 whatever its format; that exponent takes part in
 * e_max (a zero product a*b has exponent -126 + e_b).  The public reference code fixes this choice. */
enum { ZERO_OPERAND_EXP = -126 };

#endif
