/* Directed vector families that gen.c addresses by index (gen_ieee.c, gen_amd.c, gen_experiments.c):
 * each says how many vectors it has for an instruction (0 for the instructions it does not serve) and
 * writes vector idx (C, A[0..k-1], B[0..k-1]; the lanes it does not use +0; SA, SB where it sets block
 * scales -- gen.c clears them all first, unit scales), returning what the vector asks (a static string;
 * NULL past the end), so that vector i of a large set costs O(1) rather than an enumeration of the i
 * before it. */
#ifndef MMAREF_GEN_SETS_H
#define MMAREF_GEN_SETS_H

#include "mmaref.h"

/* Does a format have a -0?  A sign, and not FNUZ's single zero (whose 0x80 encoding is its NaN). */
static inline int gen_has_neg_zero(const mmaref_format_info *f)
{
    return f->has_sign && f->specials != MMAREF_SPECIALS_FNUZ;
}

/* A family of directed vectors addressed by index: how many it has for an instruction, and vector idx. */
typedef struct gen_set {
    uint64_t (*count)(const mmaref_instr *in);
    const char *(*vector)(const mmaref_instr *in, uint64_t idx, uint64_t *c, uint64_t *a, uint64_t *b, uint64_t *sa,
                          uint64_t *sb);
} gen_set;

/* The corner sets of the summation kinds (schedule.c's table names each kind's): gen_ieee.c's for SFMA,
 * gen_amd.c's for GPS, FDRDA and GFDRDA, and the empty one of a kind whose corners are the generic
 * families of gen.c (FDA, GDFS, M3XU). */
extern const gen_set gen_ieee_corners, gen_amd_corners, gen_no_corners;

/* IEEE FMA corners of the SFMA instructions (f32, f64): TestFloat-style classes, rounding boundaries,
 * zero signs, overflow and underflow thresholds, alignment window, residuals, K-lane chains. */
uint64_t gen_ieee_count(const mmaref_instr *in);
const char *gen_ieee_vector(const mmaref_instr *in, uint64_t idx, uint64_t *c, uint64_t *a, uint64_t *b,
                            uint64_t *sa, uint64_t *sb);

/* Corners of the AMD algorithms FDRDA, GFDRDA (CDNA3) and GPS (CDNA1/2). */
uint64_t gen_amd_count(const mmaref_instr *in);
const char *gen_amd_vector(const mmaref_instr *in, uint64_t idx, uint64_t *c, uint64_t *a, uint64_t *b,
                           uint64_t *sa, uint64_t *sb);

/* The papers' experiments, from the formats, K and scales alone (the probe's battery): one-row questions
 * (NaN, infinity, overflow, zero signs, subnormals, exact products), the alignment ladder in ten layouts,
 * the rounding ladder; a complex instruction's are its real view's.  Each vector is labelled with the
 * question it asks ("NaN encoding: C is NaN") or its ladder ("alignment ladder: ..."). */
uint64_t gen_experiments_count(const mmaref_instr *in);
const char *gen_experiments_vector(const mmaref_instr *in, uint64_t idx, uint64_t *c, uint64_t *a, uint64_t *b,
                                   uint64_t *sa, uint64_t *sb);

#endif
