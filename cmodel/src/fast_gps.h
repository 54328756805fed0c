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

/* The LANES dot-adds from j: D into *res, the lanes left to the scalar model as all-ones lanes.
 * G: products per group (a power of two dividing K); flush: CDNA2's subnormal flushing. */
LANE_INLINE vi gps_lanes(const fmt_desc *fa, const fmt_desc *fb, const fmt_desc *fc, const int G, const int K,
                         const int flush, const mmaref_dots *x, size_t j, vu *res, vu *stray)
{
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
