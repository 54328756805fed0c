/* The FDA kernel of the batched fast path: the MMA-Sim paper's FDA (section IV-C; algo_fda.c is the
 * scalar model) for LANES dot-adds at once, one per vector lane, every pass of a CoFDA-style schedule
 * in turn; the loop over groups of lanes that every kernel shares (FDRDA's lanes: fast_fdrda.h).
 * FAST_KERNEL instantiates one for a configuration (fast.h's key, as constants) on each path; only
 * build/gen/fast_kernels.c, generated from the instruction tables, includes this file. */
#ifndef MMAREF_FAST_FDA_H
#define MMAREF_FAST_FDA_H

#include "fast.h"
#include "fast_fdrda.h"
#include "lanes.h"

/* The LANES dot-adds from j: D into *res, the lanes the fast path leaves to the scalar model (an
 * inf or NaN among C, the operands, the scales or a pass's result; a subnormal C widened into the
 * output's format) as a mask of all-ones lanes.  Stray bits (above a format's width) into *stray. */
LANE_INLINE vi fda_lanes(const fmt_desc *fa, const fmt_desc *fb, const fmt_desc *fc, const fmt_desc *fs,
                         const int block, const int K, const int passes, const int *F, const mmaref_output *out,
                         const mmaref_dots *x, size_t j, vu *res, vu *stray)
{
    vi special = v_splat(0), flags_a = v_splat(0), flags_b = v_splat(0);
    vu c = (vu)v_splat(0);
    if (x->c.p) {
        c = v_load(x->c.p + (ptrdiff_t)j * x->c.lane, x->c.lane);
        *stray |= c & lane_stray_mask(fc);
    }

    /* Block scales (UE8M0: powers of two): e_sa + e_sb per block, added to its products' exponents. */
    vi scale_exp[MMAREF_MAX_SCALES];
    if (fs)
        for (int s = 0; s < K / block; s++) {
            vu ra = v_load(x->sa.p + (ptrdiff_t)j * x->sa.lane + s * x->sa.step, x->sa.lane);
            vu rb = v_load(x->sb.p + (ptrdiff_t)j * x->sb.lane + s * x->sb.step, x->sb.lane);
            *stray |= (ra | rb) & lane_stray_mask(fs);
            lane_value ua = lane_decode(fs, ra), ub = lane_decode(fs, rb);
            special |= lane_special(fs, ua.special_flag | ub.special_flag);
            scale_exp[s] = ua.exp + ub.exp;
        }

    const fmt_desc *c_fmt = fc;
    const int kp = K / passes, prod_frac = fa->man_bits + fb->man_bits;
#pragma GCC unroll 8
    for (int pass = 0; pass < passes; pass++) {
        const fmt_desc *fd = fmt_of(out_table[out[pass]].format);
        /* C enters in the output's format; a subnormal one would be renormalized there (fmt_widen), its
         * exponent then below the format's minimum: left to the scalar model (Volta's f16 C only) */
        lane_value uc = lane_decode(c_fmt, c);
        special |= lane_special(c_fmt, uc.special_flag);
        if (c_fmt != fd)
            special |= v_nonzero(uc.sig) & ~v_nonzero(uc.sig >> c_fmt->man_bits);

        /* Steps 1-2: exact products s_a * s_b, e_a + e_b (+ e_sa + e_sb); e_max over C and the products */
        vi sig[MMAREF_MAX_K], exp[MMAREF_MAX_K], sign[MMAREF_MAX_K];
        vi e_max = uc.exp;
        for (int i = 0; i < kp; i++) {
            const int k = pass * kp + i;
            lane_product_t pr = lane_product(fa, fb, x, j, k, &flags_a, &flags_b, stray);
            sig[i] = pr.sig;
            exp[i] = pr.exp + (fs ? scale_exp[k / block] : v_splat(0));
            sign[i] = pr.sign;
            e_max = v_max(e_max, exp[i]);
        }

        special |= lane_special(fa, flags_a) | lane_special(fb, flags_b);

        /* Steps 3-4: every term aligned to e_max keeping F fractional bits (truncated), summed exactly */
        vi sum = lane_align_rz(uc.sign, uc.sig, c_fmt->man_bits, uc.exp, e_max, F[pass]);
        for (int i = 0; i < kp; i++)
            sum += lane_align_rz(sign[i], sig[i], prod_frac, exp[i], e_max, F[pass]);

        /* Step 5: normalize to the pass's output; the next pass takes it as C */
        c = lane_to_output(sum, e_max - F[pass], out[pass]);
        c_fmt = fd;
    }
    *res = c;
    return special;
}

/* Every full group of LANES dot-adds of the kind `algo`; the lanes it leaves go through the scalar
 * model. */
LANE_INLINE void lanes_kernel(const mmaref_algo algo, const mmaref_rounding round_p, const mmaref_rounding round_c,
                              const fmt_desc *fa, const fmt_desc *fb, const fmt_desc *fc, const fmt_desc *fs,
                              const int block, const int K, const int passes, const int *F, const mmaref_output *out,
                              const mmaref_instr *in, const mmaref_dots *x, size_t n, uint64_t *d, uint64_t *stray)
{
    vu stray_lanes = (vu)v_splat(0);
    for (size_t j = 0; j + LANES <= n; j += LANES) {
        vu res;
        vi special = algo == MMAREF_ALGO_FDRDA
                         ? fdrda_lanes(fa, fb, fc, K, passes, F, out, round_p, round_c, x, j, &res, &stray_lanes)
                         : fda_lanes(fa, fb, fc, fs, block, K, passes, F, out, x, j, &res, &stray_lanes);
        if (__builtin_expect(v_any(special), 0))
            for (int l = 0; l < LANES; l++)
                if (special[l])
                    res[l] = batch_reference_one(in, x, j + (size_t)l);
        memcpy(d + j, &res, sizeof res);
    }
    *stray = (uint64_t)v_any((vi)stray_lanes);
}

#define FAST_UNPAREN(...) __VA_ARGS__

/* The kernel of the configuration ID on one path; F and OUT: parenthesized lists, one entry per pass.
 * FS: the scale format, or MMAREF_FORMAT_COUNT. */
#define FAST_KERNEL_PATH(ID, SUFFIX, TARGET, ALGO, RP, RC, FA, FB, FC, FS, BLOCK, K, PASSES, F, OUT)          \
    TARGET void fast_kernel_##ID##_##SUFFIX(const mmaref_instr *in, const mmaref_dots *x, size_t n, uint64_t *d, \
                                            uint64_t *stray)                                                 \
    {                                                                                                        \
        static const int frac_bits[] = {FAST_UNPAREN F};                                                     \
        static const mmaref_output outs[] = {FAST_UNPAREN OUT};                                              \
        lanes_kernel(ALGO, RP, RC, &fmt_table[FA], &fmt_table[FB], &fmt_table[FC],                           \
                     (FS) == MMAREF_FORMAT_COUNT ? NULL : &fmt_table[FS], BLOCK, K, PASSES, frac_bits, outs, in, x, \
                     n, d, stray);                                                                           \
    }

/* The generated source is compiled once per path (FAST_BUILD_PATH = fast_path's number, so that the
 * slow SIMD compilations run side by side); the generic one also holds the table. */
#define FAST_DECLARE(ID, SUFFIX) \
    void fast_kernel_##ID##_##SUFFIX(const mmaref_instr *, const mmaref_dots *, size_t, uint64_t *, uint64_t *);
#ifndef FAST_SIMD
#define FAST_SIMD 1
#endif
#if !defined(FAST_BUILD_PATH)
#error "fast_fda.h: compile with -DFAST_BUILD_PATH=1 (generic), 2 (avx2) or 3 (avx512)"
#elif FAST_BUILD_PATH == 1
_Static_assert(FAST_GENERIC == 1 && FAST_AVX2 == 2 && FAST_AVX512 == 3, "FAST_BUILD_PATH numbers");
#if defined(__x86_64__) && FAST_SIMD /* FAST_SIMD=0 (the Makefile's): the generic object alone */
#define FAST_SIMD_RUN(ID) fast_kernel_##ID##_avx2, fast_kernel_##ID##_avx512
#define FAST_SIMD_DECLARE(ID) FAST_DECLARE(ID, avx2) FAST_DECLARE(ID, avx512)
#else
#define FAST_SIMD_RUN(ID) NULL, NULL
#define FAST_SIMD_DECLARE(ID)
#endif
#define FAST_KERNEL(ID, ALGO, RP, RC, FA, FB, FC, FS, BLOCK, K, PASSES, F, OUT)                              \
    FAST_KERNEL_PATH(ID, generic, , ALGO, RP, RC, FA, FB, FC, FS, BLOCK, K, PASSES, F, OUT)                  \
    FAST_SIMD_DECLARE(ID)                                                                                    \
    static const fast_entry fast_kernel_##ID = {                                                             \
        {ALGO, RP, RC, FA, FB, FC, FS, BLOCK, K, PASSES, {FAST_UNPAREN F}, {FAST_UNPAREN OUT}},              \
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
