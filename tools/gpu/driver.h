/* The part of the hardware cross-check shared by the GPU run (mmagpu.cu) and the dry run (dryrun.c):
 * options, the seeded tiles, and the line writer.  Only how D is computed differs. */
#ifndef MMAREF_GPU_DRIVER_H
#define MMAREF_GPU_DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Computes D for `tiles` tiles laid out back to back (A: tiles*M*K, B: tiles*K*N, C, D: tiles*M*N,
 * each row-major as gen.h writes them).  Returns 0, or non-zero with a one-line message in msg. */
typedef int (*hw_compute_fn)(const hw_instr *in, long tiles, const uint64_t *A, const uint64_t *B,
                             const uint64_t *C, uint64_t *D, char *msg, size_t msglen);

/* The whole program: parses the options, writes one file per instruction (DIR/hopper__NAME.txt).
 * `source` names what computes D (the GPU's name, or "mmaref C model") for the files' header line. */
int hw_main(int argc, char **argv, const char *prog, const char *source, hw_compute_fn compute);

/* The line writer: one `mmaref batch --check` line per D element, "C A0..A(K-1) B0..B(K-1) D" in hex,
 * each field zero-padded to its format's width. */
void hw_emit_tile(FILE *f, const hw_instr *in, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                  const uint64_t *D);

/* Checks that every fragment layout of `in` maps its threads' elements onto the matrices one to one.
 * Returns 0, or non-zero with a message. */
int hw_check_layouts(const hw_instr *in, char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif
#endif
