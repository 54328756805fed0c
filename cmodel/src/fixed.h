/* Wide fixed-point arithmetic shared by the fused algorithms: alignment of a term to e_max keeping F
 * fractional bits (RZ or RD), and normalization of a fixed-point sum to an output format. */
#ifndef MMAREF_FIXED_H
#define MMAREF_FIXED_H

#include <stdint.h>
#include "format.h"

/* The term (-1)^sign * sig * 2^(exp - sig_frac) expressed in units of 2^(e_max - F), the shifted-out
 * bits truncated toward zero (FDA Step 3: sign-magnitude truncation).  Requires exp <= e_max and, when
 * sig_frac <= F, sig < 2^(63 - F + sig_frac) (true of every term the algorithms form). */
static inline int64_t fixed_align_rz(int sign, uint64_t sig, int sig_frac, int exp, int e_max, int F)
{
    int drop = e_max - exp;
    uint64_t m;
    if (sig_frac <= F) /* widen to F fractional bits (exact), then drop the bits below 2^(e_max - F) */
        m = (sig << (F - sig_frac)) >> (drop < 63 ? drop : 63);
    else
        m = sig_frac - F + drop < 64 ? sig >> (sig_frac - F + drop) : 0;
    uint64_t neg = 0 - (uint64_t)(sign != 0); /* all ones when negative */
    return (int64_t)((m ^ neg) - neg);
}

/* The same, rounded down (toward -inf): truncation of the two's complement value (AMD FDRDA Step 6). */
static inline int64_t fixed_align_rd(int sign, uint64_t sig, int sig_frac, int exp, int e_max, int F)
{
    int shift = sig_frac - F + (e_max - exp);
    if (shift <= 0) {
        int64_t m = (int64_t)(sig << -shift);
        return sign ? -m : m;
    }
    uint64_t m = shift >= 64 ? 0 : sig >> shift;
    int lost = shift >= 64 ? sig != 0 : (sig & ((1ULL << shift) - 1)) != 0;
    return sign ? -(int64_t)(m + (uint64_t)lost) : (int64_t)m;
}

/* Round a signed fixed-point value sum * 2^lsb_exp to an output of the given kind.  The NVIDIA kinds
 * (f32 RZ, f32 e8m13, f16 RNE) give +0 for a result that is or rounds to zero; IEEE RNE to f32 or f64
 * (AMD, M3XU) keeps the sign of a negative value that rounds to zero.  A complex kind: one part
 * (out_part). */
uint64_t fixed_to_output(int64_t sum, int lsb_exp, mmaref_output out);
/* ... with another rounding than the kind's (a unit breaking a rounding rule: rules.c). */
uint64_t fixed_to_output_as(int64_t sum, int lsb_exp, mmaref_output out, fp_rounding rounding);

/* Ada QMMA and Hopper QGMMA keep 13 of f32's 23 mantissa bits in their f32 output (e8m13). */
enum { E8M13_MAN_BITS = 13 };

/* The output kinds: name, the format written, its rounding, the fractional bits kept (e8m13 keeps 13
 * of f32's 23), and whether a negative value that rounds to zero keeps its sign (-0: IEEE) or gives +0
 * (the Tensor Core's fused sum).  The one table of output kinds; the public names derive from it. */
typedef struct {
    const char *name;
    mmaref_format format;
    mmaref_rounding rounding;
    int man_bits;
    int signed_zero;
} out_desc;

static const out_desc out_table[MMAREF_OUT_COUNT] = {
    [MMAREF_OUT_F32_RZ]    = {"f32-rz",       MMAREF_F32, MMAREF_RZ,  23, 0},
    [MMAREF_OUT_F32_E8M13] = {"f32_e8m13-rz", MMAREF_F32, MMAREF_RZ,  E8M13_MAN_BITS, 0},
    [MMAREF_OUT_F16_RNE]   = {"f16-rne",      MMAREF_F16, MMAREF_RNE, 10, 0},
    [MMAREF_OUT_F32_RNE]   = {"f32-rne",      MMAREF_F32, MMAREF_RNE, 23, 1},
    [MMAREF_OUT_F64_RNE]   = {"f64-rne",      MMAREF_F64, MMAREF_RNE, 52, 1},
    [MMAREF_OUT_F32C_RNE]  = {"f32c-rne",     MMAREF_F32C, MMAREF_RNE, 23, 1},
};

/* The kind one part of a complex output is rounded with: each part of f32c-rne is an f32-rne sum of
 * its own (the kind itself for a real output).  fixed_to_output rounds one part. */
static inline mmaref_output out_part(mmaref_output o)
{
    return o == MMAREF_OUT_F32C_RNE ? MMAREF_OUT_F32_RNE : o;
}

#endif
