/* Seeded input tiles for the hardware cross-check (tools/gpu): the model's stimulus generator
 * (mmaref_gen_tile, cmodel/src/gen.c) with the harness's schedule of kinds over tiles.  Plain host C,
 * shared by the GPU run (driver.c for mmagpu.cu) and the dry run, so both see the very same inputs for a
 * seed (docs/hardware-validation.md). */
#ifndef MMAREF_GPU_GEN_H
#define MMAREF_GPU_GEN_H

#include <stdint.h>

#include "hw.h"
#include "mmaref.h"

/* The model's format of a harness format. */
mmaref_format gen_model_format(hw_fmt f);

/* Tile t's kind: raw, cluster, special by t mod 3; one cluster tile in four is a cancel tile. */
mmaref_gen_kind gen_kind_of_tile(long t);

/* Tile t of the (instruction, seed) stream: A[M][K], B[K][N], C[M][N] row-major (B[k*N + n]). */
void gen_tile(const mmaref_instr *in, uint64_t seed, long t, uint64_t *A, uint64_t *B, uint64_t *C);

#endif
