/* The Hopper instructions of the hardware cross-check (hw.h).  Names are mmaref's (`mmaref list hopper`);
 * the PTX column is the opcode as mmagpu.cu issues it. */
#include "hw.h"

#include <string.h>

#define MMA(shape, types) "mma.sync.aligned." shape ".row.col." types
#define WG(shape, types) "wgmma.mma_async.sync.aligned." shape "." types

const hw_instr hw_instrs[] = {
    /* mma.sync, one warp per tile */
    {"mma.m16n8k16.f32.f16.f16.f32", MMA("m16n8k16", "f32.f16.f16.f32"), "hopper", FS_M16N8K16_16, 16, 8, 16, HW_F16, HW_F16, HW_F32, 0},
    {"mma.m16n8k16.f16.f16.f16.f16", MMA("m16n8k16", "f16.f16.f16.f16"), "hopper", FS_M16N8K16_16, 16, 8, 16, HW_F16, HW_F16, HW_F16, 0},
    {"mma.m16n8k16.f32.bf16.bf16.f32", MMA("m16n8k16", "f32.bf16.bf16.f32"), "hopper", FS_M16N8K16_16, 16, 8, 16, HW_BF16, HW_BF16, HW_F32, 0},
    {"mma.m16n8k8.f32.f16.f16.f32", MMA("m16n8k8", "f32.f16.f16.f32"), "hopper", FS_M16N8K8_16, 16, 8, 8, HW_F16, HW_F16, HW_F32, 0},
    {"mma.m16n8k8.f16.f16.f16.f16", MMA("m16n8k8", "f16.f16.f16.f16"), "hopper", FS_M16N8K8_16, 16, 8, 8, HW_F16, HW_F16, HW_F16, 0},
    {"mma.m16n8k8.f32.bf16.bf16.f32", MMA("m16n8k8", "f32.bf16.bf16.f32"), "hopper", FS_M16N8K8_16, 16, 8, 8, HW_BF16, HW_BF16, HW_F32, 0},
    {"mma.m16n8k8.f32.tf32.tf32.f32", MMA("m16n8k8", "f32.tf32.tf32.f32"), "hopper", FS_M16N8K8_32, 16, 8, 8, HW_TF32, HW_TF32, HW_F32, 0},
    {"mma.m16n8k4.f32.tf32.tf32.f32", MMA("m16n8k4", "f32.tf32.tf32.f32"), "hopper", FS_M16N8K4_32, 16, 8, 4, HW_TF32, HW_TF32, HW_F32, 0},
    {"mma.m8n8k4.f64.f64.f64.f64", MMA("m8n8k4", "f64.f64.f64.f64"), "hopper", FS_M8N8K4_F64, 8, 8, 4, HW_F64, HW_F64, HW_F64, 1},
    {"mma.m16n8k4.f64.f64.f64.f64", MMA("m16n8k4", "f64.f64.f64.f64"), "hopper", FS_M16N8K4_32, 16, 8, 4, HW_F64, HW_F64, HW_F64, 1},
    {"mma.m16n8k8.f64.f64.f64.f64", MMA("m16n8k8", "f64.f64.f64.f64"), "hopper", FS_M16N8K8_32, 16, 8, 8, HW_F64, HW_F64, HW_F64, 1},
    {"mma.m16n8k16.f64.f64.f64.f64", MMA("m16n8k16", "f64.f64.f64.f64"), "hopper", FS_M16N8K16_F64, 16, 8, 16, HW_F64, HW_F64, HW_F64, 1},
    /* mma.sync FP8 (measured with this harness: two f16 passes over pairs of products, C added last) */
    {"mma.m16n8k32.f32.e4m3.e4m3.f32", MMA("m16n8k32", "f32.e4m3.e4m3.f32"), "hopper", FS_M16N8K32_8, 16, 8, 32, HW_E4M3, HW_E4M3, HW_F32, 0},
    {"mma.m16n8k32.f32.e4m3.e5m2.f32", MMA("m16n8k32", "f32.e4m3.e5m2.f32"), "hopper", FS_M16N8K32_8, 16, 8, 32, HW_E4M3, HW_E5M2, HW_F32, 0},
    {"mma.m16n8k32.f32.e5m2.e4m3.f32", MMA("m16n8k32", "f32.e5m2.e4m3.f32"), "hopper", FS_M16N8K32_8, 16, 8, 32, HW_E5M2, HW_E4M3, HW_F32, 0},
    {"mma.m16n8k32.f32.e5m2.e5m2.f32", MMA("m16n8k32", "f32.e5m2.e5m2.f32"), "hopper", FS_M16N8K32_8, 16, 8, 32, HW_E5M2, HW_E5M2, HW_F32, 0},
    {"mma.m16n8k32.f16.e4m3.e4m3.f16", MMA("m16n8k32", "f16.e4m3.e4m3.f16"), "hopper", FS_M16N8K32_8, 16, 8, 32, HW_E4M3, HW_E4M3, HW_F16, 0},
    {"mma.m16n8k32.f16.e4m3.e5m2.f16", MMA("m16n8k32", "f16.e4m3.e5m2.f16"), "hopper", FS_M16N8K32_8, 16, 8, 32, HW_E4M3, HW_E5M2, HW_F16, 0},
    {"mma.m16n8k32.f16.e5m2.e4m3.f16", MMA("m16n8k32", "f16.e5m2.e4m3.f16"), "hopper", FS_M16N8K32_8, 16, 8, 32, HW_E5M2, HW_E4M3, HW_F16, 0},
    {"mma.m16n8k32.f16.e5m2.e5m2.f16", MMA("m16n8k32", "f16.e5m2.e5m2.f16"), "hopper", FS_M16N8K32_8, 16, 8, 32, HW_E5M2, HW_E5M2, HW_F16, 0},
    {"mma.m16n8k16.f32.e4m3.e4m3.f32", MMA("m16n8k16", "f32.e4m3.e4m3.f32"), "hopper", FS_M16N8K16_8, 16, 8, 16, HW_E4M3, HW_E4M3, HW_F32, 0},
    {"mma.m16n8k16.f32.e4m3.e5m2.f32", MMA("m16n8k16", "f32.e4m3.e5m2.f32"), "hopper", FS_M16N8K16_8, 16, 8, 16, HW_E4M3, HW_E5M2, HW_F32, 0},
    {"mma.m16n8k16.f32.e5m2.e4m3.f32", MMA("m16n8k16", "f32.e5m2.e4m3.f32"), "hopper", FS_M16N8K16_8, 16, 8, 16, HW_E5M2, HW_E4M3, HW_F32, 0},
    {"mma.m16n8k16.f32.e5m2.e5m2.f32", MMA("m16n8k16", "f32.e5m2.e5m2.f32"), "hopper", FS_M16N8K16_8, 16, 8, 16, HW_E5M2, HW_E5M2, HW_F32, 0},
    {"mma.m16n8k16.f16.e4m3.e4m3.f16", MMA("m16n8k16", "f16.e4m3.e4m3.f16"), "hopper", FS_M16N8K16_8, 16, 8, 16, HW_E4M3, HW_E4M3, HW_F16, 0},
    {"mma.m16n8k16.f16.e4m3.e5m2.f16", MMA("m16n8k16", "f16.e4m3.e5m2.f16"), "hopper", FS_M16N8K16_8, 16, 8, 16, HW_E4M3, HW_E5M2, HW_F16, 0},
    {"mma.m16n8k16.f16.e5m2.e4m3.f16", MMA("m16n8k16", "f16.e5m2.e4m3.f16"), "hopper", FS_M16N8K16_8, 16, 8, 16, HW_E5M2, HW_E4M3, HW_F16, 0},
    {"mma.m16n8k16.f16.e5m2.e5m2.f16", MMA("m16n8k16", "f16.e5m2.e5m2.f16"), "hopper", FS_M16N8K16_8, 16, 8, 16, HW_E5M2, HW_E5M2, HW_F16, 0},
    /* wgmma, one warpgroup per tile, A from registers, B from shared memory */
    {"wgmma.m64n8k16.f32.f16.f16", WG("m64n8k16", "f32.f16.f16"), "hopper", FS_WG_K16_16, 64, 8, 16, HW_F16, HW_F16, HW_F32, 0},
    {"wgmma.m64n8k16.f16.f16.f16", WG("m64n8k16", "f16.f16.f16"), "hopper", FS_WG_K16_16, 64, 8, 16, HW_F16, HW_F16, HW_F16, 0},
    {"wgmma.m64n8k16.f32.bf16.bf16", WG("m64n8k16", "f32.bf16.bf16"), "hopper", FS_WG_K16_16, 64, 8, 16, HW_BF16, HW_BF16, HW_F32, 0},
    {"wgmma.m64n8k8.f32.tf32.tf32", WG("m64n8k8", "f32.tf32.tf32"), "hopper", FS_WG_K8_32, 64, 8, 8, HW_TF32, HW_TF32, HW_F32, 0},
    {"wgmma.m64n8k32.f32.e4m3.e4m3", WG("m64n8k32", "f32.e4m3.e4m3"), "hopper", FS_WG_K32_8, 64, 8, 32, HW_E4M3, HW_E4M3, HW_F32, 0},
    {"wgmma.m64n8k32.f32.e4m3.e5m2", WG("m64n8k32", "f32.e4m3.e5m2"), "hopper", FS_WG_K32_8, 64, 8, 32, HW_E4M3, HW_E5M2, HW_F32, 0},
    {"wgmma.m64n8k32.f32.e5m2.e4m3", WG("m64n8k32", "f32.e5m2.e4m3"), "hopper", FS_WG_K32_8, 64, 8, 32, HW_E5M2, HW_E4M3, HW_F32, 0},
    {"wgmma.m64n8k32.f32.e5m2.e5m2", WG("m64n8k32", "f32.e5m2.e5m2"), "hopper", FS_WG_K32_8, 64, 8, 32, HW_E5M2, HW_E5M2, HW_F32, 0},
    {"wgmma.m64n8k32.f16.e4m3.e4m3", WG("m64n8k32", "f16.e4m3.e4m3"), "hopper", FS_WG_K32_8, 64, 8, 32, HW_E4M3, HW_E4M3, HW_F16, 0},
    {"wgmma.m64n8k32.f16.e4m3.e5m2", WG("m64n8k32", "f16.e4m3.e5m2"), "hopper", FS_WG_K32_8, 64, 8, 32, HW_E4M3, HW_E5M2, HW_F16, 0},
    {"wgmma.m64n8k32.f16.e5m2.e4m3", WG("m64n8k32", "f16.e5m2.e4m3"), "hopper", FS_WG_K32_8, 64, 8, 32, HW_E5M2, HW_E4M3, HW_F16, 0},
    {"wgmma.m64n8k32.f16.e5m2.e5m2", WG("m64n8k32", "f16.e5m2.e5m2"), "hopper", FS_WG_K32_8, 64, 8, 32, HW_E5M2, HW_E5M2, HW_F16, 0},
};
const int hw_instr_count = (int)(sizeof hw_instrs / sizeof hw_instrs[0]);

const hw_instr *hw_find(const char *name)
{
    for (int i = 0; i < hw_instr_count; i++)
        if (!strcmp(hw_instrs[i].name, name))
            return &hw_instrs[i];
    return NULL;
}
