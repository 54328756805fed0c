/* Seeded input generators for the hardware cross-check (tools/gpu).  Plain host C, shared by the GPU
 * run (mmagpu.cu) and the dry run (dryrun.c), so both see the very same inputs for a seed.
 *
 * Three kinds, one per tile, cycling raw, cluster, special (docs/hardware-validation.md describes them
 * in full; the RTL testbenches' SystemVerilog generators follow the same definitions):
 *   GEN_RAW      every element is uniform random bits of its format's width (TF32: all 32 bits, so the
 *                low 13 bits that Step 0 ignores are random too);
 *   GEN_CLUSTER  exponents clustered around one target per tile so that products and C have similar
 *                magnitudes and random signs cancel; some tiles spread wider or move C away from the
 *                products; some have pairs of products that cancel exactly;
 *   GEN_SPECIAL  a cluster tile with elements replaced by the format's special encodings (zeros,
 *                subnormal edges, max finite, +-1, infinities, NaNs): each A and B element with
 *                probability 1/(2K), so one per dot-add on average, each C with probability 1/8. */
#ifndef MMAREF_GPU_GEN_H
#define MMAREF_GPU_GEN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The operand formats the Hopper harness drives. */
typedef enum { GF_F64, GF_F32, GF_TF32, GF_F16, GF_BF16, GF_E4M3, GF_E5M2, GF_COUNT } gen_fmt;

typedef struct {
    const char *name;
    int width;   /* storage bits (TF32: 32) */
    int ebits;   /* exponent bits */
    int mbits;   /* mantissa bits used (TF32: 10) */
    int lowbits; /* ignored low storage bits (TF32: 13, else 0) */
    int bias;
    int ieee;    /* 1: all-ones exponent is inf/NaN; 0: e4m3 (no inf, S.1111.111 is NaN) */
} gen_fmt_info;

const gen_fmt_info *gen_fmt_get(gen_fmt f);
int gen_fmt_emin(gen_fmt f); /* smallest normal exponent, 1 - bias */
int gen_fmt_emax(gen_fmt f); /* largest finite exponent */

typedef enum { GEN_RAW, GEN_CLUSTER, GEN_SPECIAL, GEN_KINDS } gen_kind;
const char *gen_kind_name(gen_kind k);

/* splitmix64: small, seedable, the same stream on every host. */
typedef struct { uint64_t s; } gen_rng;
void gen_seed(gen_rng *r, uint64_t seed, const char *stream_name);
uint64_t gen_next(gen_rng *r);
uint64_t gen_below(gen_rng *r, uint64_t n); /* uniform in [0, n) */

/* One tile of raw bits: A[M][K] row-major, B[K][N] row-major (B[k*N + n]), C[M][N] row-major. */
typedef struct { int m, n, k; gen_fmt a, b, c; } gen_shape;
void gen_tile(gen_rng *r, gen_kind kind, const gen_shape *s, uint64_t *A, uint64_t *B, uint64_t *C);

/* Tile t of a run uses kind t % GEN_KINDS. */
static inline gen_kind gen_kind_of_tile(long t) { return (gen_kind)(t % GEN_KINDS); }

/* The special encodings the GEN_SPECIAL kind draws from; returns how many were written (<= cap). */
int gen_specials(gen_fmt f, uint64_t *out, int cap);

#ifdef __cplusplus
}
#endif
#endif
