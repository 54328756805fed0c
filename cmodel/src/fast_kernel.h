/* The kernels of the batched fast path: the loop over groups of LANES dot-adds that every kind shares,
 * each group through its kind's lanes (fast_fda.h, fast_fdrda.h, fast_gdfs.h, fast_sfma.h, fast_gps.h).  FAST_KERNEL
 * instantiates one for a configuration (fast.h's key, as constants) on each path; only
 * build/gen/fast_kernels.c, generated from the instruction tables, includes this file. */
#ifndef MMAREF_FAST_KERNEL_H
#define MMAREF_FAST_KERNEL_H

#include "fast.h"
#include "fast_fda.h"
#include "fast_fdrda.h"
#include "fast_gdfs.h"
#include "fast_gps.h"
#include "fast_sfma.h"
#include "host_fp.h"
#include "lanes.h"

/* Every full group of LANES dot-adds of the kind `algo` (the lanes kernel schedule.c's table names for
 * it: fast_key_of); the lanes it leaves go through the scalar model. */
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch"
LANE_INLINE void lanes_kernel(const mmaref_algo algo, const mmaref_rounding round_p, const mmaref_rounding round_c,
                              const fmt_desc *fa, const fmt_desc *fb, const fmt_desc *fc, const fmt_desc *fs,
                              const int block, const int G, const int flush, const int zero_exp, const int K,
                              const int passes, const int *F,
                              const mmaref_output *out, const mmaref_instr *in, const mmaref_dots *x, size_t n,
                              uint64_t *d, uint64_t *stray)
{
    vu stray_lanes = (vu)v_splat(0);
    host_fp_env env;
    const int host_fp = algo == MMAREF_ALGO_SFMA || algo == MMAREF_ALGO_GPS;
    if (host_fp)
        env = host_fp_default();
    for (size_t j = 0; j + LANES <= n; j += LANES) {
        vu res;
        vi special;
        switch (algo) { /* every kind named: a kind without a case does not compile (-Werror=switch) */
        case MMAREF_ALGO_SFMA:
            special = sfma_lanes(fa, K, x, j, &res, &stray_lanes);
            break;
        case MMAREF_ALGO_GPS:
            special = gps_lanes(fa, fb, fc, G, K, flush, x, j, &res, &stray_lanes);
            break;
        case MMAREF_ALGO_FDRDA:
        case MMAREF_ALGO_GFDRDA:
            special = fdrda_lanes(fa, fb, fc, K, passes, F, out, round_p, round_c, algo == MMAREF_ALGO_GFDRDA, x, j,
                                  &res, &stray_lanes);
            break;
        case MMAREF_ALGO_GDFS:
            special = gdfs_lanes(fa, fb, fc, fs, block, G, K, F[0], out[0], x, j, &res, &stray_lanes);
            break;
        case MMAREF_ALGO_FDA:
            special = fda_lanes(fa, fb, fc, fs, block, zero_exp, K, passes, F, out, x, j, &res, &stray_lanes);
            break;
        case MMAREF_ALGO_M3XU:  /* no lanes of its own: fast_key_of gives its FP32 mode the FDA key */
        case MMAREF_ALGO_COUNT: /* no kind: fast_kernels_gen refuses to write such a kernel */
            special = v_splat(-1); /* every lane through the scalar model */
            break;
        }
        if (__builtin_expect(v_any(special), 0))
            for (int l = 0; l < LANES; l++)
                if (special[l])
                    res[l] = batch_reference_one(in, x, j + (size_t)l);
        memcpy(d + j, &res, sizeof res);
    }
    if (host_fp)
        host_fp_restore(env);
    *stray = (uint64_t)v_any((vi)stray_lanes);
}
#pragma GCC diagnostic pop

#define FAST_UNPAREN(...) __VA_ARGS__

/* The kernel of the configuration ID on one path; F and OUT: parenthesized lists, one entry per pass.
 * FS: the scale format, or MMAREF_FORMAT_COUNT. */
#define FAST_KERNEL_PATH(ID, SUFFIX, TARGET, ALGO, RP, RC, FA, FB, FC, FS, BLOCK, G, FLUSH, ZX, K, PASSES, F, OUT)   \
    TARGET void fast_kernel_##ID##_##SUFFIX(const mmaref_instr *in, const mmaref_dots *x, size_t n, uint64_t *d, \
                                            uint64_t *stray)                                                 \
    {                                                                                                        \
        static const int frac_bits[] = {FAST_UNPAREN F};                                                     \
        static const mmaref_output outs[] = {FAST_UNPAREN OUT};                                              \
        lanes_kernel(ALGO, RP, RC, &fmt_table[FA], &fmt_table[FB], &fmt_table[FC],                           \
                     (FS) == MMAREF_FORMAT_COUNT ? NULL : &fmt_table[FS], BLOCK, G, FLUSH, ZX, K, PASSES, frac_bits, outs, \
                     in, x, n, d, stray);                                                                    \
    }

/* The generated source is compiled once per path (FAST_BUILD_PATH = fast_path's number, so that the
 * slow SIMD compilations run side by side); the generic one also holds the table. */
#define FAST_DECLARE(ID, SUFFIX) \
    void fast_kernel_##ID##_##SUFFIX(const mmaref_instr *, const mmaref_dots *, size_t, uint64_t *, uint64_t *);
#ifndef FAST_SIMD
#define FAST_SIMD 1
#endif
#if !defined(FAST_BUILD_PATH)
#error "fast_kernel.h: compile with -DFAST_BUILD_PATH=1 (generic), 2 (avx2) or 3 (avx512)"
#elif FAST_BUILD_PATH == 1
_Static_assert(FAST_GENERIC == 1 && FAST_AVX2 == 2 && FAST_AVX512 == 3, "FAST_BUILD_PATH numbers");
#if defined(__x86_64__) && FAST_SIMD /* FAST_SIMD=0 (the Makefile's): the generic object alone */
#define FAST_SIMD_RUN(ID) fast_kernel_##ID##_avx2, fast_kernel_##ID##_avx512
#define FAST_SIMD_DECLARE(ID) FAST_DECLARE(ID, avx2) FAST_DECLARE(ID, avx512)
#else
#define FAST_SIMD_RUN(ID) NULL, NULL
#define FAST_SIMD_DECLARE(ID)
#endif
#define FAST_KERNEL(ID, ALGO, RP, RC, FA, FB, FC, FS, BLOCK, G, FLUSH, ZX, K, PASSES, F, OUT)                       \
    FAST_KERNEL_PATH(ID, generic, , ALGO, RP, RC, FA, FB, FC, FS, BLOCK, G, FLUSH, ZX, K, PASSES, F, OUT)           \
    FAST_SIMD_DECLARE(ID)                                                                                    \
    static const fast_entry fast_kernel_##ID = {                                                             \
        {ALGO, RP, RC, FA, FB, FC, FS, BLOCK, G, K, PASSES, FLUSH, ZX, {FAST_UNPAREN F}, {FAST_UNPAREN OUT}},       \
        {NULL, fast_kernel_##ID##_generic, FAST_SIMD_RUN(ID)}};
#define FAST_TABLE 1
#elif FAST_BUILD_PATH == 2 && defined(__AVX2__) /* the Makefile compiles it with -mavx2 */
#define FAST_KERNEL(ID, ...) FAST_KERNEL_PATH(ID, avx2, , __VA_ARGS__)
#elif FAST_BUILD_PATH == 3 && defined(LANES_AVX512) /* and with -mavx512f -mavx512cd -mavx512dq ... */
#define FAST_KERNEL(ID, ...) FAST_KERNEL_PATH(ID, avx512, , __VA_ARGS__)
#else
#define FAST_KERNEL(ID, ...)
#endif

#endif
