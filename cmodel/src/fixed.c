/* Normalization of a fixed-point sum to the output format (FDA Step 5, FDRDA Step 8). */
#include "fixed.h"

/* FP32 exponent range with 13 fractional bits: the precision of Ada QMMA and Hopper QGMMA outputs. */
static const fmt_desc fmt_e8m13 = {.name = "f32_e8m13", .width = 1 + 8 + E8M13_MAN_BITS, .exp_bits = 8,
                                   .man_bits = E8M13_MAN_BITS, .bias = 127, .has_sign = 1,
                                   .specials = MMAREF_SPECIALS_IEEE};

/* The Tensor Core never returns -0 from a fused sum: a sum that is zero, or that rounds to zero, is
 * +0 (MMA-Sim convention: the rounded significand passes through an integer, which has no -0).  The
 * output table's signed_zero says which output kinds follow it. */
static uint64_t tensor_core_zero(uint64_t bits, int width)
{
    return (bits & ~(1ULL << (width - 1))) == 0 ? 0 : bits;
}

uint64_t fixed_to_output(int64_t sum, int lsb_exp, mmaref_output out)
{
    int sign = sum < 0;
    uint64_t mag = sign ? 0 - (uint64_t)sum : (uint64_t)sum;
    uint64_t bits;
    switch (out) {
    case MMAREF_OUT_F32_RZ:
        bits = fmt_encode(fmt_of(MMAREF_F32), sign, mag, lsb_exp, MMAREF_RZ, 0);
        break;
    case MMAREF_OUT_F32_E8M13:
        /* e8m13 bits widened to f32: same sign and exponent fields, 10 more zero mantissa bits */
        bits = fmt_encode(&fmt_e8m13, sign, mag, lsb_exp, MMAREF_RZ, 0) << (23 - E8M13_MAN_BITS);
        break;
    case MMAREF_OUT_F16_RNE:
        bits = fmt_encode(fmt_of(MMAREF_F16), sign, mag, lsb_exp, MMAREF_RNE, 0);
        break;
    case MMAREF_OUT_F32_RNE:
    case MMAREF_OUT_F32C_RNE: /* one part */
        bits = fmt_encode(fmt_of(MMAREF_F32), sign, mag, lsb_exp, MMAREF_RNE, 0);
        break;
    case MMAREF_OUT_F64_RNE:
    default:
        bits = fmt_encode(fmt_of(MMAREF_F64), sign, mag, lsb_exp, MMAREF_RNE, 0);
        break;
    }
    return out_table[out].signed_zero ? bits : tensor_core_zero(bits, fmt_of(out_table[out].format)->width);
}
