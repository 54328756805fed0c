// The GPU run of the hardware cross-check: runs Hopper's floating-point matrix instructions (mma.sync and
// wgmma) on the seeded tiles of gen.c and writes every output element as a `mmaref batch --check` line
// through the writer the dry run uses (driver.c).  Build: make gpu-build (nvcc -arch=sm_90a).  Run and
// check: tools/gpu/run.sh.  The register-fragment layouts are in hw.h, documented in
// docs/hardware-validation.md.
//
// Each tile is one instruction: A[M][K], B[K][N], C[M][N] in global memory as raw bits (uint64_t per
// element); every thread gathers its fragment elements through hw_frag_a/b/c, packs them into registers
// (16-bit: two per register, even element in the low half; 8-bit: four, element 0 in the low byte), runs
// the instruction with C as the accumulator, and scatters D back.  wgmma takes A from registers and B from
// shared memory through a matrix descriptor (K-major, no swizzle, see hw_smem_b_offset).
#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "driver.h"

// ---- packing raw bits into registers ----

template <int EB>
__device__ __forceinline__ uint32_t pack_reg(const uint64_t *v)
{
    if (EB == 4) return (uint32_t)v[0];
    if (EB == 2) return (uint32_t)(v[0] & 0xFFFF) | (uint32_t)(v[1] & 0xFFFF) << 16;
    return (uint32_t)(v[0] & 0xFF) | (uint32_t)(v[1] & 0xFF) << 8 | (uint32_t)(v[2] & 0xFF) << 16 |
           (uint32_t)(v[3] & 0xFF) << 24;
}

// Packs n elements of EB bytes into n*EB/4 registers.
template <int EB, int NREG>
__device__ __forceinline__ void pack_regs(const uint64_t *v, uint32_t *r)
{
#pragma unroll
    for (int j = 0; j < NREG; j++) r[j] = pack_reg<EB>(v + j * (4 / EB));
}

__device__ __forceinline__ float f32(uint64_t x) { return __uint_as_float((uint32_t)x); }
__device__ __forceinline__ uint64_t bits(float x) { return __float_as_uint(x); }
__device__ __forceinline__ double f64(uint64_t x) { return __longlong_as_double((long long)x); }
__device__ __forceinline__ uint64_t bits(double x) { return (uint64_t)__double_as_longlong(x); }

// f16 accumulators: element 2j in the low half of register j, 2j+1 in the high half.
__device__ __forceinline__ void unpack_f16(const uint32_t *r, uint64_t *d, int n)
{
    for (int i = 0; i < n; i++) d[i] = (r[i / 2] >> (16 * (i & 1))) & 0xFFFF;
}

// ---- the instructions: one struct each, with the fragment layout they use ----

#define SHAPE(FS, M_, N_, K_, EA, EC)                                                                   \
    static constexpr hw_frag F = FS;                                                                    \
    static constexpr int M = M_, N = N_, K = K_;                                                        \
    static constexpr int THREADS = (FS >= FS_WG_K16_16) ? 128 : 32;                                     \
    static constexpr int NA = M * K / THREADS, NB = (FS >= FS_WG_K16_16) ? 0 : K * N / THREADS,          \
                         NC = M * N / THREADS;                                                          \
    static constexpr int EB_A = EA, EB_C = EC;

// mma.sync, 16-bit A/B, K = 16 (A: 4 regs, B: 2 regs), f32 accumulators.
#define MMA_K16_F32(NAME, PTX)                                                                          \
    struct NAME {                                                                                       \
        SHAPE(FS_M16N8K16_16, 16, 8, 16, 2, 4)                                                          \
        __device__ static void run(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d) \
        {                                                                                               \
            uint32_t A[4], B[2];                                                                        \
            pack_regs<2, 4>(a, A);                                                                      \
            pack_regs<2, 2>(b, B);                                                                      \
            float D0, D1, D2, D3;                                                                       \
            asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"                \
                         : "=f"(D0), "=f"(D1), "=f"(D2), "=f"(D3)                                       \
                         : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),            \
                           "f"(f32(c[0])), "f"(f32(c[1])), "f"(f32(c[2])), "f"(f32(c[3])));             \
            d[0] = bits(D0), d[1] = bits(D1), d[2] = bits(D2), d[3] = bits(D3);                         \
        }                                                                                               \
    };

// mma.sync, 16-bit A/B, K = 8 (A: 2 regs, B: 1 reg), f32 accumulators.
#define MMA_K8_F32(NAME, PTX)                                                                           \
    struct NAME {                                                                                       \
        SHAPE(FS_M16N8K8_16, 16, 8, 8, 2, 4)                                                            \
        __device__ static void run(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d) \
        {                                                                                               \
            uint32_t A[2], B[1];                                                                        \
            pack_regs<2, 2>(a, A);                                                                      \
            pack_regs<2, 1>(b, B);                                                                      \
            float D0, D1, D2, D3;                                                                       \
            asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"                            \
                         : "=f"(D0), "=f"(D1), "=f"(D2), "=f"(D3)                                       \
                         : "r"(A[0]), "r"(A[1]), "r"(B[0]),                                             \
                           "f"(f32(c[0])), "f"(f32(c[1])), "f"(f32(c[2])), "f"(f32(c[3])));             \
            d[0] = bits(D0), d[1] = bits(D1), d[2] = bits(D2), d[3] = bits(D3);                         \
        }                                                                                               \
    };

// mma.sync FP8 (e4m3/e5m2), four elements per register: K = 32 (A: 4 regs, B: 2) or K = 16 (A: 2, B: 1);
// f32 accumulators (4 registers) or f16 (2 packed registers).
#define MMA_FP8_F32(NAME, FS, K_, NAR, NBR, PTX)                                                          \
    struct NAME {                                                                                       \
        SHAPE(FS, 16, 8, K_, 1, 4)                                                                      \
        __device__ static void run(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d) \
        {                                                                                               \
            uint32_t A[4] = {0, 0, 0, 0}, B[2] = {0, 0};                                                \
            pack_regs<1, NAR>(a, A);                                                                    \
            pack_regs<1, NBR>(b, B);                                                                    \
            float D0, D1, D2, D3;                                                                       \
            if constexpr (NAR == 4)                                                                             \
                asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"            \
                             : "=f"(D0), "=f"(D1), "=f"(D2), "=f"(D3)                                   \
                             : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),        \
                               "f"(f32(c[0])), "f"(f32(c[1])), "f"(f32(c[2])), "f"(f32(c[3])));         \
            else                                                                                        \
                asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"                        \
                             : "=f"(D0), "=f"(D1), "=f"(D2), "=f"(D3)                                   \
                             : "r"(A[0]), "r"(A[1]), "r"(B[0]),                                         \
                               "f"(f32(c[0])), "f"(f32(c[1])), "f"(f32(c[2])), "f"(f32(c[3])));         \
            d[0] = bits(D0), d[1] = bits(D1), d[2] = bits(D2), d[3] = bits(D3);                         \
        }                                                                                               \
    };

#define MMA_FP8_F16(NAME, FS, K_, NAR, NBR, PTX)                                                          \
    struct NAME {                                                                                       \
        SHAPE(FS, 16, 8, K_, 1, 2)                                                                      \
        __device__ static void run(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d) \
        {                                                                                               \
            uint32_t A[4] = {0, 0, 0, 0}, B[2] = {0, 0}, C[2], D[2];                                    \
            pack_regs<1, NAR>(a, A);                                                                    \
            pack_regs<1, NBR>(b, B);                                                                    \
            pack_regs<2, 2>(c, C);                                                                      \
            if constexpr (NAR == 4)                                                                             \
                asm volatile(PTX " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"                            \
                             : "=r"(D[0]), "=r"(D[1])                                                   \
                             : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),        \
                               "r"(C[0]), "r"(C[1]));                                                   \
            else                                                                                        \
                asm volatile(PTX " {%0,%1}, {%2,%3}, {%4}, {%5,%6};"                                     \
                             : "=r"(D[0]), "=r"(D[1])                                                   \
                             : "r"(A[0]), "r"(A[1]), "r"(B[0]), "r"(C[0]), "r"(C[1]));                  \
            unpack_f16(D, d, 4);                                                                        \
        }                                                                                               \
    };

#define MP "mma.sync.aligned."
#define FP8_PAIR(T)                                                                                     \
    MMA_FP8_F32(Mma16832F32##T, FS_M16N8K32_8, 32, 4, 2, MP "m16n8k32.row.col.f32." FP8_##T ".f32")      \
    MMA_FP8_F16(Mma16832F16##T, FS_M16N8K32_8, 32, 4, 2, MP "m16n8k32.row.col.f16." FP8_##T ".f16")      \
    MMA_FP8_F32(Mma16816F32##T, FS_M16N8K16_8, 16, 2, 1, MP "m16n8k16.row.col.f32." FP8_##T ".f32")      \
    MMA_FP8_F16(Mma16816F16##T, FS_M16N8K16_8, 16, 2, 1, MP "m16n8k16.row.col.f16." FP8_##T ".f16")
#define FP8_E4E4 "e4m3.e4m3"
#define FP8_E4E5 "e4m3.e5m2"
#define FP8_E5E4 "e5m2.e4m3"
#define FP8_E5E5 "e5m2.e5m2"
FP8_PAIR(E4E4)
FP8_PAIR(E4E5)
FP8_PAIR(E5E4)
FP8_PAIR(E5E5)

MMA_K16_F32(Mma16816F32F16, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")
MMA_K16_F32(Mma16816F32Bf16, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")
MMA_K8_F32(Mma1688F32F16, "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32")
MMA_K8_F32(Mma1688F32Bf16, "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32")

struct Mma16816F16 {
    SHAPE(FS_M16N8K16_16, 16, 8, 16, 2, 2)
    __device__ static void run(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d)
    {
        uint32_t A[4], B[2], C[2], D[2];
        pack_regs<2, 4>(a, A);
        pack_regs<2, 2>(b, B);
        pack_regs<2, 2>(c, C);
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                     : "=r"(D[0]), "=r"(D[1])
                     : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]), "r"(C[0]), "r"(C[1]));
        unpack_f16(D, d, 4);
    }
};

struct Mma1688F16 {
    SHAPE(FS_M16N8K8_16, 16, 8, 8, 2, 2)
    __device__ static void run(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d)
    {
        uint32_t A[2], B[1], C[2], D[2];
        pack_regs<2, 2>(a, A);
        pack_regs<2, 1>(b, B);
        pack_regs<2, 2>(c, C);
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%5,%6};"
                     : "=r"(D[0]), "=r"(D[1])
                     : "r"(A[0]), "r"(A[1]), "r"(B[0]), "r"(C[0]), "r"(C[1]));
        unpack_f16(D, d, 4);
    }
};

// TF32 operands travel as f32 bit patterns in 32-bit registers, low 13 bits included.
struct Mma1688Tf32 {
    SHAPE(FS_M16N8K8_32, 16, 8, 8, 4, 4)
    __device__ static void run(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d)
    {
        float D0, D1, D2, D3;
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(D0), "=f"(D1), "=f"(D2), "=f"(D3)
                     : "r"((uint32_t)a[0]), "r"((uint32_t)a[1]), "r"((uint32_t)a[2]), "r"((uint32_t)a[3]),
                       "r"((uint32_t)b[0]), "r"((uint32_t)b[1]),
                       "f"(f32(c[0])), "f"(f32(c[1])), "f"(f32(c[2])), "f"(f32(c[3])));
        d[0] = bits(D0), d[1] = bits(D1), d[2] = bits(D2), d[3] = bits(D3);
    }
};

struct Mma1684Tf32 {
    SHAPE(FS_M16N8K4_32, 16, 8, 4, 4, 4)
    __device__ static void run(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d)
    {
        float D0, D1, D2, D3;
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=f"(D0), "=f"(D1), "=f"(D2), "=f"(D3)
                     : "r"((uint32_t)a[0]), "r"((uint32_t)a[1]), "r"((uint32_t)b[0]),
                       "f"(f32(c[0])), "f"(f32(c[1])), "f"(f32(c[2])), "f"(f32(c[3])));
        d[0] = bits(D0), d[1] = bits(D1), d[2] = bits(D2), d[3] = bits(D3);
    }
};

// DMMA: f64 in 64-bit registers.
struct Mma884F64 {
    SHAPE(FS_M8N8K4_F64, 8, 8, 4, 8, 8)
    __device__ static void run(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d)
    {
        double D0, D1;
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                     : "=d"(D0), "=d"(D1)
                     : "d"(f64(a[0])), "d"(f64(b[0])), "d"(f64(c[0])), "d"(f64(c[1])));
        d[0] = bits(D0), d[1] = bits(D1);
    }
};

struct Mma1684F64 {
    SHAPE(FS_M16N8K4_32, 16, 8, 4, 8, 8)
    __device__ static void run(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d)
    {
        double D0, D1, D2, D3;
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=d"(D0), "=d"(D1), "=d"(D2), "=d"(D3)
                     : "d"(f64(a[0])), "d"(f64(a[1])), "d"(f64(b[0])),
                       "d"(f64(c[0])), "d"(f64(c[1])), "d"(f64(c[2])), "d"(f64(c[3])));
        d[0] = bits(D0), d[1] = bits(D1), d[2] = bits(D2), d[3] = bits(D3);
    }
};

struct Mma1688F64 {
    SHAPE(FS_M16N8K8_32, 16, 8, 8, 8, 8)
    __device__ static void run(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d)
    {
        double D0, D1, D2, D3;
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=d"(D0), "=d"(D1), "=d"(D2), "=d"(D3)
                     : "d"(f64(a[0])), "d"(f64(a[1])), "d"(f64(a[2])), "d"(f64(a[3])),
                       "d"(f64(b[0])), "d"(f64(b[1])),
                       "d"(f64(c[0])), "d"(f64(c[1])), "d"(f64(c[2])), "d"(f64(c[3])));
        d[0] = bits(D0), d[1] = bits(D1), d[2] = bits(D2), d[3] = bits(D3);
    }
};

struct Mma16816F64 {
    SHAPE(FS_M16N8K16_F64, 16, 8, 16, 8, 8)
    __device__ static void run(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d)
    {
        double D0, D1, D2, D3;
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%16,%17,%18,%19};"
                     : "=d"(D0), "=d"(D1), "=d"(D2), "=d"(D3)
                     : "d"(f64(a[0])), "d"(f64(a[1])), "d"(f64(a[2])), "d"(f64(a[3])),
                       "d"(f64(a[4])), "d"(f64(a[5])), "d"(f64(a[6])), "d"(f64(a[7])),
                       "d"(f64(b[0])), "d"(f64(b[1])), "d"(f64(b[2])), "d"(f64(b[3])),
                       "d"(f64(c[0])), "d"(f64(c[1])), "d"(f64(c[2])), "d"(f64(c[3])));
        d[0] = bits(D0), d[1] = bits(D1), d[2] = bits(D2), d[3] = bits(D3);
    }
};

// wgmma: the whole warpgroup issues it; fence, issue, commit and wait sit in one asm statement so the
// compiler cannot move accumulator accesses in between.  Scale-d is the predicate p = true (D = A*B + D,
// the accumulator registers hold C on entry); imm-scale-a = imm-scale-b = 1; imm-trans-b = 0 (K-major B).
#define WG_PRE "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\nwgmma.fence.sync.aligned;\n"
#define WG_POST "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n}\n"
// wgmma exists only in the arch-specific target sm_90a; a plain compute_90 pass (which some nvcc
// versions add for -arch=sm_90a) gets a trap instead, and the sm_90a cubin is what a Hopper GPU runs.
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define WG_ASM(BODY, ...) asm volatile(WG_PRE BODY WG_POST __VA_ARGS__ : "memory")
#else
#define WG_ASM(BODY, ...) __trap()
#endif

// f32 accumulators, A in 4 registers.  TRANS is ", 0" for f16/bf16 (imm-trans-b), "" for tf32 and FP8.
#define WG_F32(NAME, FS, K_, EA, PTX, TRANS)                                                            \
    struct NAME {                                                                                       \
        SHAPE(FS, 64, 8, K_, EA, 4)                                                                     \
        __device__ static void run(const uint64_t *a, uint64_t desc, const uint64_t *c, uint64_t *d)    \
        {                                                                                               \
            uint32_t A[4];                                                                              \
            pack_regs<EA, 4>(a, A);                                                                     \
            float D0 = f32(c[0]), D1 = f32(c[1]), D2 = f32(c[2]), D3 = f32(c[3]);                       \
            WG_ASM(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1" TRANS ";\n",                          \
                   : "+f"(D0), "+f"(D1), "+f"(D2), "+f"(D3)                                             \
                   : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "l"(desc));                            \
            d[0] = bits(D0), d[1] = bits(D1), d[2] = bits(D2), d[3] = bits(D3);                         \
        }                                                                                               \
    };

// f16 accumulators (two packed registers), A in 4 registers.
#define WG_F16(NAME, FS, K_, EA, PTX, TRANS)                                                            \
    struct NAME {                                                                                       \
        SHAPE(FS, 64, 8, K_, EA, 2)                                                                     \
        __device__ static void run(const uint64_t *a, uint64_t desc, const uint64_t *c, uint64_t *d)    \
        {                                                                                               \
            uint32_t A[4], D[2];                                                                        \
            pack_regs<EA, 4>(a, A);                                                                     \
            pack_regs<2, 2>(c, D);                                                                      \
            WG_ASM(PTX " {%0,%1}, {%2,%3,%4,%5}, %6, p, 1, 1" TRANS ";\n",                               \
                   : "+r"(D[0]), "+r"(D[1])                                                             \
                   : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "l"(desc));                            \
            unpack_f16(D, d, 4);                                                                        \
        }                                                                                               \
    };

#define WGP "wgmma.mma_async.sync.aligned."
WG_F32(WgF32F16, FS_WG_K16_16, 16, 2, WGP "m64n8k16.f32.f16.f16", ", 0")
WG_F16(WgF16F16, FS_WG_K16_16, 16, 2, WGP "m64n8k16.f16.f16.f16", ", 0")
WG_F32(WgF32Bf16, FS_WG_K16_16, 16, 2, WGP "m64n8k16.f32.bf16.bf16", ", 0")
WG_F32(WgF32Tf32, FS_WG_K8_32, 8, 4, WGP "m64n8k8.f32.tf32.tf32", "")
WG_F32(WgF32E4E4, FS_WG_K32_8, 32, 1, WGP "m64n8k32.f32.e4m3.e4m3", "")
WG_F32(WgF32E4E5, FS_WG_K32_8, 32, 1, WGP "m64n8k32.f32.e4m3.e5m2", "")
WG_F32(WgF32E5E4, FS_WG_K32_8, 32, 1, WGP "m64n8k32.f32.e5m2.e4m3", "")
WG_F32(WgF32E5E5, FS_WG_K32_8, 32, 1, WGP "m64n8k32.f32.e5m2.e5m2", "")
WG_F16(WgF16E4E4, FS_WG_K32_8, 32, 1, WGP "m64n8k32.f16.e4m3.e4m3", "")
WG_F16(WgF16E4E5, FS_WG_K32_8, 32, 1, WGP "m64n8k32.f16.e4m3.e5m2", "")
WG_F16(WgF16E5E4, FS_WG_K32_8, 32, 1, WGP "m64n8k32.f16.e5m2.e4m3", "")
WG_F16(WgF16E5E5, FS_WG_K32_8, 32, 1, WGP "m64n8k32.f16.e5m2.e5m2", "")

// ---- kernels ----

// One warp per tile.
template <class Op>
__global__ void mma_kernel(const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D, long tiles)
{
    long tile = ((long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (tile >= tiles)
        return; // the whole warp leaves together
    const uint64_t *a = A + tile * Op::M * Op::K, *b = B + tile * Op::K * Op::N, *c = C + tile * Op::M * Op::N;
    uint64_t *d = D + tile * Op::M * Op::N;
    uint64_t av[Op::NA], bv[Op::NB], cv[Op::NC], dv[Op::NC];
    int r, s;
#pragma unroll
    for (int i = 0; i < Op::NA; i++) hw_frag_a(Op::F, lane, i, &r, &s), av[i] = a[r * Op::K + s];
#pragma unroll
    for (int i = 0; i < Op::NB; i++) hw_frag_b(Op::F, lane, i, &r, &s), bv[i] = b[r * Op::N + s];
#pragma unroll
    for (int i = 0; i < Op::NC; i++) hw_frag_c(Op::F, lane, i, &r, &s), cv[i] = c[r * Op::N + s];
    Op::run(av, bv, cv, dv);
#pragma unroll
    for (int i = 0; i < Op::NC; i++) hw_frag_c(Op::F, lane, i, &r, &s), d[r * Op::N + s] = dv[i];
}

// Shared-memory matrix descriptor (PTX "Matrix Descriptor Format"): start address >> 4 in bits 0-13,
// leading byte offset >> 4 in 16-29, stride byte offset >> 4 in 32-45, base offset 0 (bits 49-51),
// swizzle 0 = none (bits 62-63).  Both offsets are 128 bytes: see hw_smem_b_offset.
__device__ __forceinline__ uint64_t smem_desc(const void *p)
{
    uint32_t addr = (uint32_t)__cvta_generic_to_shared(p);
    return (uint64_t)((addr >> 4) & 0x3FFF) | (uint64_t)(128 >> 4) << 16 | (uint64_t)(128 >> 4) << 32;
}

// One warpgroup (block of 128 threads) per tile.
template <class Op>
__global__ void __launch_bounds__(128) wgmma_kernel(const uint64_t *A, const uint64_t *B, const uint64_t *C,
                                                    uint64_t *D, long tiles)
{
    __shared__ __align__(128) uint8_t smem_b[256];
    constexpr int EB = Op::EB_A; // A and B have the same width in every instruction here
    int th = threadIdx.x;
    for (long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const uint64_t *a = A + tile * Op::M * Op::K, *b = B + tile * Op::K * Op::N, *c = C + tile * Op::M * Op::N;
        uint64_t *d = D + tile * Op::M * Op::N;
        for (int e = th; e < Op::K * Op::N; e += 128) {
            int kr = e / Op::N, nc = e % Op::N, off = hw_smem_b_offset(EB, kr, nc);
            if (EB == 4) *(uint32_t *)(smem_b + off) = (uint32_t)b[e];
            else if (EB == 2) *(uint16_t *)(smem_b + off) = (uint16_t)b[e];
            else smem_b[off] = (uint8_t)b[e];
        }
        // Generic-proxy writes become visible to the async proxy that wgmma reads through.
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        __syncthreads();
        uint64_t av[Op::NA], cv[Op::NC], dv[Op::NC];
        int r, s;
#pragma unroll
        for (int i = 0; i < Op::NA; i++) hw_frag_a(Op::F, th, i, &r, &s), av[i] = a[r * Op::K + s];
#pragma unroll
        for (int i = 0; i < Op::NC; i++) hw_frag_c(Op::F, th, i, &r, &s), cv[i] = c[r * Op::N + s];
        Op::run(av, smem_desc(smem_b), cv, dv);
#pragma unroll
        for (int i = 0; i < Op::NC; i++) hw_frag_c(Op::F, th, i, &r, &s), d[r * Op::N + s] = dv[i];
        __syncthreads(); // before the next tile overwrites B
    }
}

// ---- host side ----

typedef void (*launch_fn)(const uint64_t *, const uint64_t *, const uint64_t *, uint64_t *, long);

template <class Op>
static void launch_mma(const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D, long tiles)
{
    const int warps = 4;
    mma_kernel<Op><<<(unsigned)((tiles + warps - 1) / warps), 32 * warps>>>(A, B, C, D, tiles);
}

template <class Op>
static void launch_wgmma(const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D, long tiles)
{
    wgmma_kernel<Op><<<(unsigned)(tiles < 65535 ? tiles : 65535), 128>>>(A, B, C, D, tiles);
}

struct op_entry {
    const char *name;
    launch_fn launch;
    hw_frag frag;
    int m, n, k;
};
#define OP_MMA(NAME, T) {NAME, launch_mma<T>, T::F, T::M, T::N, T::K}
#define OP_WG(NAME, T) {NAME, launch_wgmma<T>, T::F, T::M, T::N, T::K}

static const op_entry ops[] = {
    OP_MMA("mma.m16n8k16.f32.f16.f16.f32", Mma16816F32F16),
    OP_MMA("mma.m16n8k16.f16.f16.f16.f16", Mma16816F16),
    OP_MMA("mma.m16n8k16.f32.bf16.bf16.f32", Mma16816F32Bf16),
    OP_MMA("mma.m16n8k8.f32.f16.f16.f32", Mma1688F32F16),
    OP_MMA("mma.m16n8k8.f16.f16.f16.f16", Mma1688F16),
    OP_MMA("mma.m16n8k8.f32.bf16.bf16.f32", Mma1688F32Bf16),
    OP_MMA("mma.m16n8k8.f32.tf32.tf32.f32", Mma1688Tf32),
    OP_MMA("mma.m16n8k4.f32.tf32.tf32.f32", Mma1684Tf32),
    OP_MMA("mma.m8n8k4.f64.f64.f64.f64", Mma884F64),
    OP_MMA("mma.m16n8k4.f64.f64.f64.f64", Mma1684F64),
    OP_MMA("mma.m16n8k8.f64.f64.f64.f64", Mma1688F64),
    OP_MMA("mma.m16n8k16.f64.f64.f64.f64", Mma16816F64),
    OP_MMA("mma.m16n8k32.f32.e4m3.e4m3.f32", Mma16832F32E4E4),
    OP_MMA("mma.m16n8k32.f32.e4m3.e5m2.f32", Mma16832F32E4E5),
    OP_MMA("mma.m16n8k32.f32.e5m2.e4m3.f32", Mma16832F32E5E4),
    OP_MMA("mma.m16n8k32.f32.e5m2.e5m2.f32", Mma16832F32E5E5),
    OP_MMA("mma.m16n8k32.f16.e4m3.e4m3.f16", Mma16832F16E4E4),
    OP_MMA("mma.m16n8k32.f16.e4m3.e5m2.f16", Mma16832F16E4E5),
    OP_MMA("mma.m16n8k32.f16.e5m2.e4m3.f16", Mma16832F16E5E4),
    OP_MMA("mma.m16n8k32.f16.e5m2.e5m2.f16", Mma16832F16E5E5),
    OP_MMA("mma.m16n8k16.f32.e4m3.e4m3.f32", Mma16816F32E4E4),
    OP_MMA("mma.m16n8k16.f32.e4m3.e5m2.f32", Mma16816F32E4E5),
    OP_MMA("mma.m16n8k16.f32.e5m2.e4m3.f32", Mma16816F32E5E4),
    OP_MMA("mma.m16n8k16.f32.e5m2.e5m2.f32", Mma16816F32E5E5),
    OP_MMA("mma.m16n8k16.f16.e4m3.e4m3.f16", Mma16816F16E4E4),
    OP_MMA("mma.m16n8k16.f16.e4m3.e5m2.f16", Mma16816F16E4E5),
    OP_MMA("mma.m16n8k16.f16.e5m2.e4m3.f16", Mma16816F16E5E4),
    OP_MMA("mma.m16n8k16.f16.e5m2.e5m2.f16", Mma16816F16E5E5),
    OP_WG("wgmma.m64n8k16.f32.f16.f16", WgF32F16),
    OP_WG("wgmma.m64n8k16.f16.f16.f16", WgF16F16),
    OP_WG("wgmma.m64n8k16.f32.bf16.bf16", WgF32Bf16),
    OP_WG("wgmma.m64n8k8.f32.tf32.tf32", WgF32Tf32),
    OP_WG("wgmma.m64n8k32.f32.e4m3.e4m3", WgF32E4E4),
    OP_WG("wgmma.m64n8k32.f32.e4m3.e5m2", WgF32E4E5),
    OP_WG("wgmma.m64n8k32.f32.e5m2.e4m3", WgF32E5E4),
    OP_WG("wgmma.m64n8k32.f32.e5m2.e5m2", WgF32E5E5),
    OP_WG("wgmma.m64n8k32.f16.e4m3.e4m3", WgF16E4E4),
    OP_WG("wgmma.m64n8k32.f16.e4m3.e5m2", WgF16E4E5),
    OP_WG("wgmma.m64n8k32.f16.e5m2.e4m3", WgF16E5E4),
    OP_WG("wgmma.m64n8k32.f16.e5m2.e5m2", WgF16E5E5),
};

static const op_entry *find_op(const hw_instr *in)
{
    for (const op_entry &o : ops)
        if (!strcmp(o.name, in->name))
            return o.frag == in->frag && o.m == in->m && o.n == in->n && o.k == in->k ? &o : NULL;
    return NULL;
}

#define CK(call)                                                                                        \
    do {                                                                                                \
        cudaError_t e_ = (call);                                                                        \
        if (e_ != cudaSuccess) {                                                                        \
            snprintf(msg, msglen, "%s: %s", #call, cudaGetErrorString(e_));                             \
            rc = 1;                                                                                     \
            goto done;                                                                                  \
        }                                                                                               \
    } while (0)

static int gpu_compute(const hw_instr *in, long tiles, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                       uint64_t *D, char *msg, size_t msglen)
{
    const op_entry *op = find_op(in);
    if (!op) {
        snprintf(msg, msglen, "no kernel matches the harness table entry %s", in->name);
        return 1;
    }
    size_t na = (size_t)tiles * in->m * in->k * 8, nb = (size_t)tiles * in->k * in->n * 8;
    size_t nc = (size_t)tiles * in->m * in->n * 8;
    uint64_t *dA = NULL, *dB = NULL, *dC = NULL, *dD = NULL;
    int rc = 0;
    CK(cudaMalloc(&dA, na));
    CK(cudaMalloc(&dB, nb));
    CK(cudaMalloc(&dC, nc));
    CK(cudaMalloc(&dD, nc));
    CK(cudaMemcpy(dA, A, na, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, B, nb, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dC, C, nc, cudaMemcpyHostToDevice));
    CK(cudaMemset(dD, 0xFF, nc));
    op->launch(dA, dB, dC, dD, tiles);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(D, dD, nc, cudaMemcpyDeviceToHost));
done:
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
    return rc;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "--list") ||
            !strcmp(argv[i], "--check-layouts") || !strcmp(argv[i], "--dump-layouts"))
            return hw_main(argc, argv, "mmagpu", "none", gpu_compute);
    cudaDeviceProp p;
    int dev = 0, drv = 0, rt = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaGetDeviceProperties(&p, dev);
    if (e != cudaSuccess) {
        fprintf(stderr, "mmagpu: no usable CUDA device: %s\n", cudaGetErrorString(e));
        return 2;
    }
    if (p.major != 9) {
        fprintf(stderr, "mmagpu: needs a Hopper GPU (sm_90); device %d is %s (sm_%d%d)\n", dev, p.name, p.major, p.minor);
        return 2;
    }
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    char source[256];
    snprintf(source, sizeof source, "%s (sm_%d%d, CUDA driver API %d.%d, runtime %d.%d)", p.name, p.major, p.minor,
             drv / 1000, drv % 1000 / 10, rt / 1000, rt % 1000 / 10);
    return hw_main(argc, argv, "mmagpu", source, gpu_compute);
}
