/* The SFMA lanes of the batched fast path: the MMA-Sim paper's Algorithm 1 (algo_sfma.c is the scalar
 * model), d = FMA(a_k, b_k, d) for k = 0 .. K-1 in IEEE binary64 (DMMA, CDNA's f64 MFMA) or binary32
 * (CDNA's f32 MFMA), each FMA rounded once to nearest even.  IEEE 754 defines an FMA to the bit, so the
 * lanes use the host's: AVX2's and AVX-512's vfmadd, the baseline build's fma() from libm.  The kernel
 * runs them in the default floating-point environment (round to nearest even, no flush-to-zero or
 * denormals-are-zero; fast_kernel.h sets it and gives the caller's back).  Only the NaN differs from
 * the host's: the model's is canonical, so a lane whose D is a NaN is left to the scalar model. */
#ifndef MMAREF_FAST_SFMA_H
#define MMAREF_FAST_SFMA_H

#include <math.h>

#include "fast.h"
#include "lanes.h"

typedef double vd __attribute__((vector_size(LANES * 8)));
typedef float vf __attribute__((vector_size(LANES * 4)));
typedef uint32_t vu32 __attribute__((vector_size(LANES * 4)));

/* a * b + d, rounded once, lane by lane */
LANE_INLINE vd v_fma_f64(vd a, vd b, vd d)
{
#if defined(LANES_AVX512) && defined(__FMA__)
    return (vd)_mm512_fmadd_pd((__m512d)a, (__m512d)b, (__m512d)d);
#elif defined(LANES_AVX2) && defined(__FMA__)
    return (vd)_mm256_fmadd_pd((__m256d)a, (__m256d)b, (__m256d)d);
#else
    for (int l = 0; l < LANES; l++)
        d[l] = fma(a[l], b[l], d[l]);
    return d;
#endif
}
LANE_INLINE vf v_fma_f32(vf a, vf b, vf d)
{
#if defined(LANES_AVX512) && defined(__FMA__)
    return (vf)_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)d);
#elif defined(LANES_AVX2) && defined(__FMA__)
    return (vf)_mm_fmadd_ps((__m128)a, (__m128)b, (__m128)d);
#else
    for (int l = 0; l < LANES; l++)
        d[l] = fmaf(a[l], b[l], d[l]);
    return d;
#endif
}

/* binary32 values held in the low half of 64-bit lanes, and back */
LANE_INLINE vf v_to_f32(vu raw) { return (vf)__builtin_convertvector(raw, vu32); }
LANE_INLINE vu v_from_f32(vf x) { return __builtin_convertvector((vu32)x, vu); }

/* The LANES dot-adds from j: D into *res, the lanes whose D is a NaN (left to the scalar model) as
 * all-ones lanes.  f: A's, B's, C's and D's format (f64 or f32). */
LANE_INLINE vi sfma_lanes(const fmt_desc *f, const int K, const mmaref_dots *x, size_t j, vu *res, vu *stray)
{
    vu c = (vu)v_splat(0), ra[MMAREF_MAX_K], rb[MMAREF_MAX_K];
    if (x->c.p)
        c = v_load(x->c.p + (ptrdiff_t)j * x->c.lane, x->c.lane);
    lane_operands(&x->a, j, 0, K, ra);
    lane_operands(&x->b, j, 0, K, rb);
    vu strays = c;
    for (int k = 0; k < K; k++)
        strays |= ra[k] | rb[k];
    *stray |= strays & lane_stray_mask(f);

    vu d;
    if (f->width == 64) {
        vd acc = (vd)c;
        for (int k = 0; k < K; k++)
            acc = v_fma_f64((vd)ra[k], (vd)rb[k], acc);
        d = (vu)acc;
    } else {
        vf acc = v_to_f32(c);
        for (int k = 0; k < K; k++)
            acc = v_fma_f32(v_to_f32(ra[k]), v_to_f32(rb[k]), acc);
        d = v_from_f32(acc);
    }
    *res = d;
    /* a NaN: the exponent field all ones and a nonzero mantissa, |bits| above the infinity's */
    const int64_t inf = (int64_t)(((1ULL << f->exp_bits) - 1) << f->man_bits);
    return v_lt(v_splat(inf), (vi)(d & (uint64_t)~(1ULL << (f->width - 1))));
}

#endif
