/* Directed corner vectors of the AMD FDRDA/GFDRDA and GPS instructions for the RTL co-simulation
 * (tb/amd_directed.c). */
#ifndef AMD_DIRECTED_H
#define AMD_DIRECTED_H
#include <stdint.h>
#include "mmaref.h"

/* How many there are for an instruction (0 unless its passes are FDRDA, GFDRDA or GPS). */
int amd_directed_count(const mmaref_instr *in);
/* Vector idx: C, A[0..k-1], B[0..k-1] (lanes the vector does not use are +0); 0 past the end. */
int amd_directed_vector(const mmaref_instr *in, uint64_t idx, uint64_t *c, uint64_t *a, uint64_t *b);
#endif
