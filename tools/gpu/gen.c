/* Seeded input tiles for the hardware cross-check; see gen.h and docs/hardware-validation.md. */
#include "gen.h"

mmaref_format gen_model_format(hw_fmt f)
{
    static const mmaref_format model[HW_FMT_COUNT] = {
        [HW_F64] = MMAREF_F64,   [HW_F32] = MMAREF_F32,   [HW_TF32] = MMAREF_TF32, [HW_F16] = MMAREF_F16,
        [HW_BF16] = MMAREF_BF16, [HW_E4M3] = MMAREF_E4M3, [HW_E5M2] = MMAREF_E5M2,
    };
    return model[f];
}

mmaref_gen_kind gen_kind_of_tile(long t)
{
    static const mmaref_gen_kind clusters[] = {MMAREF_GEN_CLUSTER, MMAREF_GEN_CLUSTER, MMAREF_GEN_CLUSTER,
                                               MMAREF_GEN_CANCEL};
    switch (t % 3) {
    case 0: return MMAREF_GEN_RAW;
    case 1: return clusters[t / 3 % 4];
    default: return MMAREF_GEN_SPECIAL;
    }
}

void gen_tile(const mmaref_instr *in, uint64_t seed, long t, uint64_t *A, uint64_t *B, uint64_t *C)
{
    mmaref_gen_tile(in, gen_kind_of_tile(t), seed, (uint64_t)t, C, A, B, NULL, NULL);
}
