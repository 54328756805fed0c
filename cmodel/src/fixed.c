/* Normalization of a fixed-point sum to the output format (FDA Step 5, FDRDA Step 8). */
#include "fixed.h"

/* The Tensor Core never returns -0 from a fused sum: a sum that is zero, or that rounds to zero, is
 * +0 (MMA-Sim convention: the rounded significand passes through an integer, which has no -0).  The
 * output table's signed_zero says which output kinds follow it. */
static uint64_t tensor_core_zero(uint64_t bits, int width)
{
    return (bits & ~(1ULL << (width - 1))) == 0 ? 0 : bits;
}

/* The output kind's rounding of the sum, everything from its row of out_table. */
static inline __attribute__((always_inline)) uint64_t to_output(int64_t sum, int lsb_exp, mmaref_output kind,
                                                                 fp_rounding rounding)
{
    const out_desc *o = &out_table[kind];
    const fmt_desc *f = fmt_of(o->format);
    int sign = sum < 0;
    uint64_t mag = sign ? 0 - (uint64_t)sum : (uint64_t)sum;
    uint64_t bits;
    if (o->man_bits == f->man_bits) {
        bits = fmt_encode(f, sign, mag, lsb_exp, rounding, 0);
    } else {
        /* A kind that keeps fewer mantissa bits than its format writes (e8m13 in f32): round to the
         * narrow format of the same exponent field, then widen with zero mantissa bits. */
        int dropped = f->man_bits - o->man_bits;
        fmt_desc narrow = *f;
        narrow.man_bits = o->man_bits;
        narrow.width = f->width - dropped;
        bits = fmt_encode(&narrow, sign, mag, lsb_exp, rounding, 0) << dropped;
    }
    return o->signed_zero ? bits : tensor_core_zero(bits, f->width);
}

uint64_t fixed_to_output(int64_t sum, int lsb_exp, mmaref_output out)
{
    /* One copy of to_output per kind, in which the table row is a constant and the encoding folds (the
     * dot-add's hot path); a complex kind rounds one part. */
    switch (out_part(out)) {
#define KIND(k) \
    case k: return to_output(sum, lsb_exp, k, out_table[k].rounding);
    KIND(MMAREF_OUT_F32_RZ)
    KIND(MMAREF_OUT_F32_E8M13)
    KIND(MMAREF_OUT_F16_RNE)
    KIND(MMAREF_OUT_F32_RNE)
    KIND(MMAREF_OUT_F64_RNE)
#undef KIND
    default: return to_output(sum, lsb_exp, MMAREF_OUT_F64_RNE, MMAREF_RNE); /* not reached: schedules are checked */
    }
}

uint64_t fixed_to_output_as(int64_t sum, int lsb_exp, mmaref_output out, fp_rounding rounding)
{
    return to_output(sum, lsb_exp, out_part(out), rounding);
}
