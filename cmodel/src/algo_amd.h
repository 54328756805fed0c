/* AMD-only internals shared by the library and the `mmaref study` tool: one FDRDA or GFDRDA pass with a
 * chosen rounding for the alignment to e_max (RD is the hardware; RZ is the paper's hypothetical
 * `v_mfma_f32_32x32x8_f16_rz` of section VI-C, Fig. 2). */
#ifndef MMAREF_ALGO_AMD_H
#define MMAREF_ALGO_AMD_H

#include "algo.h"
#include "format.h"

/* align: ROUND_RD (CDNA3) or ROUND_RZ (the hypothetical variant).  Same arguments as algo_fdrda. */
uint64_t amd_fdrda_pass(const mmaref_instr *in, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                        const uint64_t *b, int k, fp_rounding align);

/* A whole dot-add (both passes for CoFDRDA/CoGFDRDA) of an FDRDA or GFDRDA instruction with the chosen
 * alignment rounding; the operands are not checked (callers pass valid bits). */
uint64_t amd_fdrda_dot(const mmaref_instr *in, uint64_t c, const uint64_t *a, const uint64_t *b,
                       fp_rounding align);

#endif
