/* IEEE corner vectors of the SFMA instructions (f64 DMMA, AMD f32/f64 MFMA) for the RTL co-simulation
 * (tb/sfma_directed.c). */
#ifndef SFMA_DIRECTED_H
#define SFMA_DIRECTED_H
#include <stdint.h>
#include "mmaref.h"

/* How many there are for an instruction (0 unless its pass is SFMA on f32 or f64). */
int sfma_directed_count(const mmaref_instr *in);
/* Vector idx: C, A[0..k-1], B[0..k-1]; 0 past the end. */
int sfma_directed_vector(const mmaref_instr *in, uint64_t idx, uint64_t *c, uint64_t *a, uint64_t *b);
#endif
