/* The GPS lanes of the batched fast path: the MMA-Sim paper's group pairwise sum (IV-B, Algorithms 2
 * and 3; algo_gps.c is the scalar model) of AMD CDNA1/CDNA2 FP16 and BF16 MFMA, for LANES dot-adds at
 * once.  Every step is one IEEE binary32 operation rounded to nearest even (the products, the pairwise
 * sums in a group, the group sums added to C), so the lanes use the host's binary32 arithmetic, in the
 * default floating-point environment that fast_kernel.h sets around them; CDNA2's flushing is done
 * here on the bits.  Lanes with an inf or NaN operand or C, or a NaN D, are left to the scalar model. */
#ifndef MMAREF_FAST_GPS_H
#define MMAREF_FAST_GPS_H

#include "fast.h"
#include "fast_sfma.h"
#include "lanes.h"

/* binary32 bits, one 32-bit lane each: compared with the vector extensions' ==, != and signed > (SSE2's
 * pcmpeqd and pcmpgtd; lanes.h avoids comparisons of 64-bit lanes only) */
typedef int32_t vi32 __attribute__((vector_size(LANES * 4)));

/* binary32's fields, from the format table */
#define GPS_F32 (&fmt_table[MMAREF_F32])
#define GPS_F32_SIGN ((int32_t)(1u << (GPS_F32->width - 1)))
#define GPS_F32_EXP_FIELD ((int32_t)(((1u << GPS_F32->exp_bits) - 1) << GPS_F32->man_bits))

/* binary32 bits x with the exponent field zero (a zero or a subnormal) made +0 (CDNA2's Step 1 for C) */
LANE_INLINE vi32 gps_flush_input(vi32 x) { return x & ((x & GPS_F32_EXP_FIELD) != 0); }
/* a subnormal binary32 result made a zero of its sign ("x <- x * 0.0 if |x| < 2^-126") */
LANE_INLINE vf gps_flush_result(vf x)
{
    vi32 bits = (vi32)x;
    return (vf)(bits & (((bits & GPS_F32_EXP_FIELD) != 0) | GPS_F32_SIGN));
}

/* An operand of format f (f16 or bf16: every value exact in binary32) as binary32 bits, from its raw
 * bits (bf16: binary32's upper half; f16: sig * 2^(exp - 10), both factors exact floats); a zero or a
 * subnormal of f made +0 where flush (CDNA2's Step 1: subnormal in the operand's format); its special
 * flag (lanes.h) OR-ed into *flags. */
LANE_INLINE vi32 gps_operand(const fmt_desc *f, vu raw, const int flush, vi *flags)
{
    const fmt_desc *f32 = GPS_F32;
    const int dropped = f32->width - f->width; /* bf16: binary32 less its low 16 mantissa bits */
    vi field = (vi)((raw >> f->man_bits) & ((1u << f->exp_bits) - 1));
    vi32 keep = __builtin_convertvector(flush ? v_nonzero(field) : v_splat(-1), vi32);
    lane_value v = lane_decode(f, raw);
    *flags |= v.special_flag;
    if (f->exp_bits == f32->exp_bits && f->bias == f32->bias && f32->man_bits - f->man_bits == dropped)
        return __builtin_convertvector((vi)(raw << dropped), vi32) & keep;
    vi32 sig = __builtin_convertvector(v.sig, vi32);
    vi32 e = __builtin_convertvector(v_max_small(v.exp, v_splat(fmt_min_exp(f))), vi32) - f->man_bits; /* a zero's */
    vf mag = __builtin_convertvector(sig, vf) * (vf)((e + f32->bias) << f32->man_bits);
    return ((vi32)mag | __builtin_convertvector(v.sign << (f32->width - 1), vi32)) & keep;
}

#ifdef LANES_AVX2
/* AVX2: a and b of a product paired in one 64-bit lane (lanes.h, lane_operand_pairs), each made binary32
 * bits in its 32-bit half by per-half shifts, then multiplied by its partner (the halves swapped): the
 * products, the sums and D in the low half of every lane (the high half holds the same products, b * a,
 * and is dropped). */

/* gps_flush_result on binary32 bits in 32-bit lanes: the exponent field zero leaves the sign alone */
LANE_INLINE __m256i gps_flush_result_pairs(__m256i bits)
{
    __m256i tiny = _mm256_cmpeq_epi32(_mm256_and_si256(bits, _mm256_set1_epi32(GPS_F32_EXP_FIELD)),
                                      _mm256_setzero_si256());
    return _mm256_andnot_si256(_mm256_andnot_si256(_mm256_set1_epi32(GPS_F32_SIGN), tiny), bits);
}
LANE_INLINE __m256i gps_add_pairs(__m256i x, __m256i y, const int flush)
{
    __m256i s = _mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(x), _mm256_castsi256_ps(y)));
    return flush ? gps_flush_result_pairs(s) : s;
}
/* all ones in the 64-bit lanes whose low 32-bit half of m is all ones */
LANE_INLINE vi gps_low_half_mask(__m256i m) { return (vi)_mm256_shuffle_epi32(m, 0xa0); }

LANE_INLINE vi gps_lanes_paired(const fmt_desc *fa, const fmt_desc *fb, const fmt_desc *fc, const int G, const int K,
                                const int flush, const mmaref_dots *x, size_t j, vu *res, vu *stray)
{
    const fmt_desc *f32 = GPS_F32;
    const __m256i zero = _mm256_setzero_si256();
    __m256i ab[MMAREF_MAX_K], raw_a = zero, raw_b = zero;
    vu c = (vu)v_splat(0);
    if (x->c.p)
        c = v_load(x->c.p + (ptrdiff_t)j * x->c.lane, x->c.lane);
    lane_operand_pairs(x, j, 0, K, ab, &raw_a, &raw_b);
    *stray |= (c & lane_stray_mask(fc)) | ((vu)raw_a & lane_stray_mask(fa)) | ((vu)raw_b & lane_stray_mask(fb));

    /* an operand's exponent and mantissa fields moved to binary32's places and rebiased (exact for a
     * normal number); a subnormal of a format with another bias is 2^(1 - bias) * (1 + man * 2^-m) less
     * 2^(1 - bias), both exact binary32 values */
#define GPS_HALVES(expr_a, expr_b) v_pair((uint32_t)(expr_a), (uint32_t)(expr_b))
    const __m256i fields = GPS_HALVES((1u << (fa->exp_bits + fa->man_bits)) - 1, (1u << (fb->exp_bits + fb->man_bits)) - 1);
    const __m256i exp_field = GPS_HALVES(((1u << fa->exp_bits) - 1) << fa->man_bits, ((1u << fb->exp_bits) - 1) << fb->man_bits);
    const __m256i to_f32 = GPS_HALVES(f32->man_bits - fa->man_bits, f32->man_bits - fb->man_bits);
    const __m256i sign_bit = GPS_HALVES(1u << (fa->width - 1), 1u << (fb->width - 1));
    const __m256i sign_to_f32 = GPS_HALVES(f32->width - fa->width, f32->width - fb->width);
    const __m256i rebias = GPS_HALVES((uint32_t)(f32->bias - fa->bias) << f32->man_bits,
                                      (uint32_t)(f32->bias - fb->bias) << f32->man_bits);
    const int rebiased = fa->bias != f32->bias || fb->bias != f32->bias;
    const __m256i min_normal = GPS_HALVES((uint32_t)(f32->bias + 1 - fa->bias) << f32->man_bits,
                                          (uint32_t)(f32->bias + 1 - fb->bias) << f32->man_bits);
    const __m256i implicit_one = _mm256_set1_epi32(1 << f32->man_bits);
#undef GPS_HALVES
    const __m256i rebiased_half = _mm256_cmpgt_epi32(rebias, zero);

    /* Steps 1-2: the operands (flushed), binary32 products (flushed, keeping their sign) */
    __m256i p[MMAREF_MAX_K], exp_max = zero;
    for (int k = 0; k < K; k++) {
        __m256i e = _mm256_and_si256(ab[k], exp_field);
        exp_max = _mm256_max_epu32(exp_max, e); /* all ones: an inf or NaN */
        __m256i tiny = _mm256_cmpeq_epi32(e, zero);
        __m256i mag = _mm256_add_epi32(_mm256_sllv_epi32(_mm256_and_si256(ab[k], fields), to_f32), rebias);
        if (!flush && rebiased) {
            __m256 sub = _mm256_sub_ps(_mm256_castsi256_ps(_mm256_add_epi32(mag, implicit_one)),
                                       _mm256_castsi256_ps(min_normal));
            mag = _mm256_blendv_epi8(mag, _mm256_castps_si256(sub), _mm256_and_si256(tiny, rebiased_half));
        }
        __m256i bits = _mm256_or_si256(mag, _mm256_sllv_epi32(_mm256_and_si256(ab[k], sign_bit), sign_to_f32));
        if (flush) /* CDNA2's Step 1: a zero or a subnormal operand is +0 */
            bits = _mm256_andnot_si256(tiny, bits);
        __m256 prod = _mm256_mul_ps(_mm256_castsi256_ps(bits), _mm256_castsi256_ps(_mm256_shuffle_epi32(bits, 0xb1)));
        p[k] = _mm256_castps_si256(prod);
        if (flush)
            p[k] = gps_flush_result_pairs(p[k]);
    }
    __m256i cb = (__m256i)c, c_exp = _mm256_set1_epi32(GPS_F32_EXP_FIELD);
    vi special = v_nonzero((vi)_mm256_andnot_si256(_mm256_cmpeq_epi32(exp_field, zero),
                                                   _mm256_cmpeq_epi32(exp_max, exp_field))) |
                 gps_low_half_mask(_mm256_cmpeq_epi32(_mm256_and_si256(cb, c_exp), c_exp));

    /* Steps 3-4: d = C (flushed), then d += PAIRWISESUM(group) group after group, each addition
     * rounded (and flushed); G a power of two, so the recursion's halves are the pairs of each level */
    __m256i d = flush ? _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_and_si256(cb, c_exp), zero), cb) : cb;
    for (int g = 0; g < K; g += G) {
        __m256i sum[MMAREF_MAX_K];
        for (int i = 0; i < G; i++)
            sum[i] = p[g + i];
        for (int n = G; n > 1; n /= 2)
            for (int i = 0; i < n / 2; i++)
                sum[i] = gps_add_pairs(sum[2 * i], sum[2 * i + 1], flush);
        d = gps_add_pairs(d, sum[0], flush);
    }
    *res = (vu)d & ~lane_stray_mask(f32);
    /* a NaN D: the model's is canonical */
    return special |
           gps_low_half_mask(_mm256_cmpgt_epi32(_mm256_andnot_si256(_mm256_set1_epi32(GPS_F32_SIGN), d), c_exp));
}
#endif

/* The LANES dot-adds from j: D into *res, the lanes left to the scalar model as all-ones lanes.
 * G: products per group (a power of two dividing K); flush: CDNA2's subnormal flushing. */
LANE_INLINE vi gps_lanes(const fmt_desc *fa, const fmt_desc *fb, const fmt_desc *fc, const int G, const int K,
                         const int flush, const mmaref_dots *x, size_t j, vu *res, vu *stray)
{
#ifdef LANES_AVX2
    if (lane_pairs_fit(fa) && lane_pairs_fit(fb))
        return gps_lanes_paired(fa, fb, fc, G, K, flush, x, j, res, stray);
#endif
    vi flags_a = v_splat(0), flags_b = v_splat(0);
    vu c = (vu)v_splat(0), ra[MMAREF_MAX_K], rb[MMAREF_MAX_K];
    if (x->c.p)
        c = v_load(x->c.p + (ptrdiff_t)j * x->c.lane, x->c.lane);
    lane_operands(&x->a, j, 0, K, ra);
    lane_operands(&x->b, j, 0, K, rb);
    vu strays = c & lane_stray_mask(fc);
    for (int k = 0; k < K; k++)
        strays |= (ra[k] & lane_stray_mask(fa)) | (rb[k] & lane_stray_mask(fb));
    *stray |= strays;

    /* Steps 1-2: the operands (flushed), binary32 products (flushed, keeping their sign) */
    vf p[MMAREF_MAX_K];
    for (int k = 0; k < K; k++) {
        vi32 a = gps_operand(fa, ra[k], flush, &flags_a), b = gps_operand(fb, rb[k], flush, &flags_b);
        p[k] = (vf)a * (vf)b;
        if (flush)
            p[k] = gps_flush_result(p[k]);
    }
    vi32 cb = __builtin_convertvector((vi)c, vi32);
    vi special = lane_special(fa, flags_a) | lane_special(fb, flags_b) |
                 __builtin_convertvector((cb & GPS_F32_EXP_FIELD) == GPS_F32_EXP_FIELD, vi);

    /* Steps 3-4: d = C (flushed), then d += PAIRWISESUM(group) group after group, each addition
     * rounded (and flushed); G a power of two, so the recursion's halves are the pairs of each level */
    vf d = (vf)(flush ? gps_flush_input(cb) : cb);
    for (int g = 0; g < K; g += G) {
        vf s[MMAREF_MAX_K];
        for (int i = 0; i < G; i++)
            s[i] = p[g + i];
        for (int n = G; n > 1; n /= 2)
            for (int i = 0; i < n / 2; i++) {
                s[i] = s[2 * i] + s[2 * i + 1];
                if (flush)
                    s[i] = gps_flush_result(s[i]);
            }
        d = d + s[0];
        if (flush)
            d = gps_flush_result(d);
    }
    vi32 db = (vi32)d;
    *res = __builtin_convertvector(db, vu) & ~lane_stray_mask(GPS_F32);
    /* a NaN D: the model's is canonical */
    return special | __builtin_convertvector((db & ~GPS_F32_SIGN) > GPS_F32_EXP_FIELD, vi);
}

#endif
