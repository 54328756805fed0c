/* Directed corner vectors of M3XU's FP32 and FP32C modes for the RTL co-simulation (tb/m3xu_directed.c). */
#ifndef M3XU_DIRECTED_H
#define M3XU_DIRECTED_H
#include <stdint.h>
#include "mmaref.h"

/* How many there are for an instruction (0 unless its A is f32 or f32c). */
int m3xu_directed_count(const mmaref_instr *in);
/* Vector idx: C, A[0..k-1], B[0..k-1] (lanes the vector does not use are +0); 0 past the end. */
int m3xu_directed_vector(const mmaref_instr *in, uint64_t idx, uint64_t *c, uint64_t *a, uint64_t *b);
#endif
