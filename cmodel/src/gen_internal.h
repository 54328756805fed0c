/* The directed generator's own types, shared by gen.c and the corner families that live beside their
 * kind but are written against gen.c's enumeration (gen_m3xu.c): the generator's view of a format, of
 * an instruction, one directed vector, and the sink a family hands its vectors to. */
#ifndef MMAREF_GEN_INTERNAL_H
#define MMAREF_GEN_INTERNAL_H

#include "mmaref.h"

enum { GEN_MAX_SPECIALS = 24 };

/* A format's fields, as the generator uses them. */
typedef struct {
    mmaref_format_info i;
    mmaref_format f;
    uint64_t mask, sign_bit, exp_all;
    uint64_t man_all, ulp; /* the mantissa bits that count (TF32: the top 10) and the lowest of them */
    int man_eff, emin;     /* how many mantissa bits count; exponent of the smallest normal */
    long exp_top;          /* largest exponent field of a finite value */
    double max_fr;         /* the largest finite value is max_fr 2^max_e, 0.5 <= max_fr < 1 (directed_init) */
    int max_e;
    int nspecial;
    uint64_t special[GEN_MAX_SPECIALS];
} gen_fmt;

/* One instruction's generator. */
typedef struct {
    const mmaref_instr *in;
    gen_fmt fa, fb, fc, fs; /* of a complex instruction: its part format */
    int complex;            /* A, B, C complex (f32c): two parts each */
    int k, ns, F;
    uint64_t scale_one;
    int b_lo, b_hi; /* 2^j is a B value for -b_hi <= j <= -b_lo (directed_init) */
} gen_ctx;

/* One directed vector. */
typedef struct {
    uint64_t c, a[MMAREF_MAX_K], b[MMAREF_MAX_K], sa[MMAREF_MAX_K], sb[MMAREF_MAX_K];
} gen_vec;

/* Directed vectors: each family enumerates its candidates in a fixed order; gen_take counts one and says
 * whether it is the one wanted (then v holds +0 operands and unit scales for the family to fill), so
 * that vector i is found without building the others. */
typedef struct {
    const gen_ctx *g;
    uint64_t want, n; /* the index wanted (UINT64_MAX: only count), directed vectors so far */
    gen_vec *v;
    const char *label; /* the family's name, set first thing by each family (mmaref_gen_directed_label) */
} sink;
int gen_take(sink *s);

/* gen_m3xu.c: the corners of units that split f32 significands into halves, on every instruction whose
 * A, B and C (parts) are f32; and a complex instruction's own corners. */
void gen_split_halves(sink *s);
void gen_complex_parts(sink *s);

/* gen.c's random draws, for the rule kind (gen_rules.c). */
uint64_t gen_next(uint64_t *r);
int gen_below(uint64_t *r, int n); /* 0 .. n - 1 */
uint64_t gen_stream_at(uint64_t seed, uint64_t index);
uint64_t gen_fin_raw(const gen_fmt *f, int sign, long biased, uint64_t man);
uint64_t gen_clustered(uint64_t *r, const gen_fmt *f, long center, int spread);
int gen_random_vector(gen_ctx *g, uint64_t seed, uint64_t index, gen_vec *v);
/* gen_rules.c: rule vector `index` (MMAREF_GEN_RULE): one that catches the instruction's rule number
 * index mod (its rules), tried from shaped random candidates.  Returns the rule aimed at (0: the
 * instruction has none; v is then a random vector), or -1. */
int gen_rule_vector(gen_ctx *g, uint64_t seed, uint64_t index, gen_vec *v);
#endif
