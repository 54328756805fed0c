/* The Hopper instructions the hardware cross-check runs, and their register-fragment layouts.
 *
 * Fragment layouts say which thread holds which element.  They are the PTX ISA's "Matrix fragments for
 * mma.m16n8k*" and "Register fragment layout" of wgmma (the same ones CUTLASS encodes in
 * cute/atom/mma_traits_sm80.hpp, mma_traits_sm90.hpp, mma_traits_sm90_gmma.hpp).  A wrong layout shows
 * up on hardware as an arithmetic mismatch, so they are written once, here, and used by the CUDA
 * kernels; the dry run checks that each is a bijection.  Notation: lane 0..31, g = lane / 4 (groupID),
 * t = lane % 4 (threadID_in_group), w = warp within the warpgroup (wgmma), i = element index within
 * the thread's fragment; 16-bit elements pack two to a 32-bit register (even i in the low half), 8-bit
 * elements four to a register (i % 4 is the byte, byte 0 lowest).  docs/hardware-validation.md has the
 * same table in words. */
#ifndef MMAREF_GPU_HW_H
#define MMAREF_GPU_HW_H

#include <stdint.h>

#ifdef __CUDACC__
#define HW_HD __host__ __device__
#else
#define HW_HD
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The operand formats the harness drives (gen.c maps them onto the model's). */
typedef enum { HW_F64, HW_F32, HW_TF32, HW_F16, HW_BF16, HW_E4M3, HW_E5M2, HW_FMT_COUNT } hw_fmt;

/* One fragment layout per (shape, element width) family. */
typedef enum {
    FS_M8N8K4_F64,     /* mma.m8n8k4 f64 */
    FS_M16N8K4_32,     /* mma.m16n8k4 tf32 and f64 (same layout) */
    FS_M16N8K8_32,     /* mma.m16n8k8 tf32 and f64 */
    FS_M16N8K16_F64,   /* mma.m16n8k16 f64 */
    FS_M16N8K8_16,     /* mma.m16n8k8 f16/bf16 */
    FS_M16N8K16_16,    /* mma.m16n8k16 f16/bf16 */
    FS_M16N8K16_8,     /* mma.m16n8k16 e4m3/e5m2 */
    FS_M16N8K32_8,     /* mma.m16n8k32 e4m3/e5m2 */
    FS_WG_K16_16,      /* wgmma m64nNk16 f16/bf16, A from registers */
    FS_WG_K8_32,       /* wgmma m64nNk8 tf32, A from registers */
    FS_WG_K32_8,       /* wgmma m64nNk32 e4m3/e5m2, A from registers */
    FS_COUNT
} hw_frag;

typedef struct {
    const char *name; /* the mmaref instruction name */
    const char *ptx;  /* the PTX opcode as issued */
    const char *arch; /* the model table holding `name`: it generates the inputs and predicts D (hopper for
                       * every instruction here; another architecture's entry of the same name can stand in
                       * for an instruction the hopper table lacks, until it is measured) */
    hw_frag frag;
    int m, n, k;
    hw_fmt a, b, c;   /* D has C's format for every instruction here */
    int nan_any;      /* check with --nan-any (DMMA: NaN payload unmodelled) */
} hw_instr;

extern const hw_instr hw_instrs[];
extern const int hw_instr_count;
const hw_instr *hw_find(const char *name);

static inline HW_HD int hw_is_wgmma(hw_frag f) { return f >= FS_WG_K16_16; }
static inline HW_HD int hw_threads(hw_frag f) { return hw_is_wgmma(f) ? 128 : 32; }

/* Element i of thread th's A fragment is A[*row][*col]. */
static inline HW_HD void hw_frag_a(hw_frag f, int th, int i, int *row, int *col)
{
    int lane = th % 32, g = lane / 4, t = lane % 4, w = th / 32;
    switch (f) {
    case FS_M8N8K4_F64: *row = g; *col = t; break;
    case FS_M16N8K4_32: *row = g + 8 * i; *col = t; break;
    case FS_M16N8K8_32:
    case FS_M16N8K16_F64: *row = g + 8 * (i & 1); *col = t + 4 * (i >> 1); break;
    case FS_M16N8K8_16: *row = g + 8 * (i >> 1); *col = 2 * t + (i & 1); break;
    case FS_M16N8K16_16:
        *row = g + 8 * ((i >> 1) & 1); *col = 2 * t + (i & 1) + 8 * (i >> 2); break;
    case FS_M16N8K16_8: *row = g + 8 * (i >> 2); *col = 4 * t + (i & 3); break;
    case FS_M16N8K32_8:
        *row = g + 8 * ((i >> 2) & 1); *col = 4 * t + (i & 3) + 16 * (i >> 3); break;
    case FS_WG_K16_16:
        *row = 16 * w + g + 8 * ((i >> 1) & 1); *col = 2 * t + (i & 1) + 8 * (i >> 2); break;
    case FS_WG_K8_32: *row = 16 * w + g + 8 * (i & 1); *col = t + 4 * (i >> 1); break;
    case FS_WG_K32_8:
        *row = 16 * w + g + 8 * ((i >> 2) & 1); *col = 4 * t + (i & 3) + 16 * (i >> 3); break;
    default: *row = *col = -1;
    }
}

/* Element i of lane's B fragment (mma only; wgmma reads B from shared memory) is B[*krow][*ncol]. */
static inline HW_HD void hw_frag_b(hw_frag f, int lane, int i, int *krow, int *ncol)
{
    int g = lane / 4, t = lane % 4;
    *ncol = g;
    switch (f) {
    case FS_M8N8K4_F64:
    case FS_M16N8K4_32: *krow = t; break;
    case FS_M16N8K8_32:
    case FS_M16N8K16_F64: *krow = t + 4 * i; break;
    case FS_M16N8K8_16: *krow = 2 * t + i; break;
    case FS_M16N8K16_16: *krow = 2 * t + (i & 1) + 8 * (i >> 1); break;
    case FS_M16N8K16_8: *krow = 4 * t + i; break;
    case FS_M16N8K32_8: *krow = 4 * t + (i & 3) + 16 * (i >> 2); break;
    default: *krow = *ncol = -1;
    }
}

/* Element i of thread th's C/D fragment is C[*row][*col]. */
static inline HW_HD void hw_frag_c(hw_frag f, int th, int i, int *row, int *col)
{
    int lane = th % 32, g = lane / 4, t = lane % 4, w = th / 32;
    if (f == FS_M8N8K4_F64) {
        *row = g; *col = 2 * t + i;
    } else if (hw_is_wgmma(f)) {
        *row = 16 * w + g + 8 * ((i >> 1) & 1); *col = 8 * (i >> 2) + 2 * t + (i & 1);
    } else {
        *row = g + 8 * (i >> 1); *col = 2 * t + (i & 1);
    }
}

/* wgmma B in shared memory, K-major, no swizzle ("interleave"): core matrices of 8 rows (n) x 16 bytes
 * (16/size elements of k), rows 16 bytes apart; the core matrix holding k-chunk j sits at 128*j.  Only
 * N = 8 (one core-matrix row): the descriptor's leading and stride byte offsets are both 128, so the
 * layout holds whichever of the two the hardware takes for the K direction. */
static inline HW_HD int hw_smem_b_offset(int elem_bytes, int krow, int ncol)
{
    int per_row = 16 / elem_bytes;
    return 128 * (krow / per_row) + 16 * ncol + elem_bytes * (krow % per_row);
}

#ifdef __cplusplus
}
#endif
#endif
