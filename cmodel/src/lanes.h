/* Lane arithmetic of the batched fast path (fast_kernel.h): LANES (below) dot-adds side by side, one per lane of
 * a vector of 64-bit integers (GCC vector extensions: compiled for AVX-512, AVX2 or the baseline ISA
 * from the same source, so every path gives the same bits).  Each helper is the lane-wise twin of a
 * scalar one of format.h or fixed.h, written without branches; batch.c's test holds every path to
 * the scalar model on every configuration (tests/api/batch_paths.c). */
#ifndef MMAREF_LANES_H
#define MMAREF_LANES_H

#include <stdint.h>
#include <string.h>

#include "algo.h"
#include "fast.h"
#include "fixed.h"
#include "format.h"

#define LANE_INLINE static inline __attribute__((always_inline))

/* Where the translation unit is compiled for AVX-512 (fast_kernel.h: one per path), a few helpers use the
 * instruction that does the job in one step; the portable form is the definition. */
#if defined(__AVX512F__) && defined(__AVX512CD__) && defined(__AVX512DQ__)
#include <immintrin.h>
#define LANES_AVX512 1
#elif defined(__AVX2__)
#include <immintrin.h>
#define LANES_AVX2 1
#endif

/* Lanes per vector in this translation unit: 8 (512 bits) where it is compiled for AVX-512, 4 (256 bits)
 * for AVX2 (8 lanes there were two halves that GCC kept in memory, and the kernels ran barely faster
 * than the scalar model), 2 for the baseline ISA's 128-bit registers (x86-64's SSE2: 4 lanes as two
 * registers ran 0.8-1.7x the scalar model, 2 lanes 1.2-2.5x).  batch.c hands every kernel a multiple of
 * FAST_LANES dot-adds, a multiple of each. */
#ifdef LANES_AVX512
#define LANES 8
#elif defined(__AVX2__)
#define LANES 4
#else
#define LANES 2
#endif
_Static_assert(FAST_LANES % LANES == 0, "lanes.h: FAST_LANES must be a multiple of a vector's lanes");
typedef int64_t vi __attribute__((vector_size(LANES * 8)));
typedef uint64_t vu __attribute__((vector_size(LANES * 8)));

/* Masks (all ones or zero per lane) are made with shifts and adds, never with the vector extensions'
 * comparisons: the compiler lowers a comparison whose result is used as a value lane by lane on the
 * paths without a native one, and the kernels would run scalar.  Where the build has the instruction
 * (AVX2's 64-bit equal and signed greater-than, AVX-512's max, min, test), a helper uses it: one
 * instruction for three to five (AVX2 FDA f16 K=16: 22 -> 36 M dot-adds/s, docs/speed.md).  Each helper
 * states the range it is exact on. */
LANE_INLINE vi v_splat(int64_t x) { return (vi){0} + x; }
/* all ones where x < 0 */
LANE_INLINE vi v_neg(vi x)
{
#ifdef LANES_AVX2
    return (vi)_mm256_cmpgt_epi64(_mm256_setzero_si256(), (__m256i)x);
#else
    return -(vi)((vu)x >> 63);
#endif
}
/* all ones where x == 0 (any x) */
LANE_INLINE vi v_zero(vi x)
{
#ifdef LANES_AVX2
    return (vi)_mm256_cmpeq_epi64((__m256i)x, _mm256_setzero_si256());
#else
    return (vi)((vu)(x | -x) >> 63) - 1;
#endif
}
/* all ones where x != 0 (any x) */
LANE_INLINE vi v_nonzero(vi x) { return ~v_zero(x); }
/* all ones where x < y, for |x - y| < 2^63 (AVX2: any x, y) */
LANE_INLINE vi v_lt(vi x, vi y)
{
#ifdef LANES_AVX2
    return (vi)_mm256_cmpgt_epi64((__m256i)y, (__m256i)x);
#else
    return v_neg(x - y);
#endif
}
/* all ones where x < y as unsigned 64-bit numbers (any x, y): the borrow out of x - y */
LANE_INLINE vi v_ult(vu x, vu y) { return -(vi)(((~x & y) | (~(x ^ y) & (x - y))) >> 63); }
/* x where the mask m is all ones, y where it is zero (AVX2: one byte blend) */
LANE_INLINE vi v_sel(vi m, vi x, vi y)
{
#ifdef LANES_AVX2
    return (vi)_mm256_blendv_epi8((__m256i)y, (__m256i)x, (__m256i)m);
#else
    return (m & x) | (~m & y);
#endif
}

LANE_INLINE vi v_max(vi x, vi y)
{
#ifdef LANES_AVX512
    return (vi)_mm512_max_epi64((__m512i)x, (__m512i)y);
#elif defined(LANES_AVX2)
    return (vi)_mm256_blendv_epi8((__m256i)x, (__m256i)y, _mm256_cmpgt_epi64((__m256i)y, (__m256i)x));
#else
    return v_sel(v_lt(x, y), y, x);
#endif
}
LANE_INLINE vi v_min(vi x, vi y)
{
#ifdef LANES_AVX512
    return (vi)_mm512_min_epi64((__m512i)x, (__m512i)y);
#elif defined(LANES_AVX2)
    return (vi)_mm256_blendv_epi8((__m256i)y, (__m256i)x, _mm256_cmpgt_epi64((__m256i)y, (__m256i)x));
#else
    return v_sel(v_lt(x, y), x, y);
#endif
}
/* max(x, y) and min(x, y) for -2^31 <= x, y < 2^31 (exponents, shift counts): AVX2's 32-bit signed max gives it, the high half of
 * such a lane being the sign extension of the low one (one instruction where v_max takes two) */
LANE_INLINE vi v_max_small(vi x, vi y)
{
#ifdef LANES_AVX2
    return (vi)_mm256_max_epi32((__m256i)x, (__m256i)y);
#else
    return v_max(x, y);
#endif
}
LANE_INLINE vi v_min_small(vi x, vi y)
{
#ifdef LANES_AVX2
    return (vi)_mm256_min_epi32((__m256i)x, (__m256i)y);
#else
    return v_min(x, y);
#endif
}
/* base | bits in the lanes where x != 0 */
LANE_INLINE vi v_or_where_nonzero(vi x, vi base, int64_t bits)
{
#ifdef LANES_AVX512
    return (vi)_mm512_mask_or_epi64((__m512i)base, _mm512_test_epi64_mask((__m512i)x, (__m512i)x), (__m512i)base,
                                    _mm512_set1_epi64(bits));
#else
    return base | (~v_zero(x) & bits);
#endif
}
/* if_zero in the lanes where x == 0, otherwise other */
LANE_INLINE vi v_sel_zero(vi x, int64_t if_zero, vi other)
{
#ifdef LANES_AVX512
    return (vi)_mm512_mask_blend_epi64(_mm512_testn_epi64_mask((__m512i)x, (__m512i)x), (__m512i)other,
                                       _mm512_set1_epi64(if_zero));
#else
    return v_sel(v_zero(x), v_splat(if_zero), other);
#endif
}
/* x * y for 0 <= x, y < 2^32 (significands) */
LANE_INLINE vi v_mul32(vi x, vi y)
{
#ifdef LANES_AVX512
    return (vi)_mm512_mul_epu32((__m512i)x, (__m512i)y);
#elif defined(LANES_AVX2)
    return (vi)_mm256_mul_epu32((__m256i)x, (__m256i)y);
#else
    return x * y;
#endif
}

/* The OR of every lane, folded by halves in vector registers (extracting the lanes one by one makes
 * the compiler compute what feeds them lane by lane too). */
LANE_INLINE int64_t v_any(vi x)
{
#if defined(__clang__) /* the ASan build (mk/fuzz.mk) */
#define LANES_SHUFFLE(x, ...) __builtin_shufflevector(x, x, __VA_ARGS__)
#else
#define LANES_SHUFFLE(x, ...) __builtin_shuffle(x, (vi){__VA_ARGS__})
#endif
#if LANES == 8
    x |= LANES_SHUFFLE(x, 4, 5, 6, 7, 0, 1, 2, 3);
    x |= LANES_SHUFFLE(x, 2, 3, 0, 1, 6, 7, 4, 5);
    x |= LANES_SHUFFLE(x, 1, 0, 3, 2, 5, 4, 7, 6);
#elif LANES == 4
    x |= LANES_SHUFFLE(x, 2, 3, 0, 1);
    x |= LANES_SHUFFLE(x, 1, 0, 3, 2);
#else
    x |= LANES_SHUFFLE(x, 1, 0);
#endif
#undef LANES_SHUFFLE
    return x[0];
}

/* The bits above a format's width: set in a raw value that does not fit (the caller's error). */
static inline uint64_t lane_stray_mask(const fmt_desc *f)
{
    return f->width == 64 ? 0 : (uint64_t)~((1ULL << f->width) - 1);
}

/* The raw operands of LANES dot-adds at p, p + lane, ... (lane 1: one load; 0: one value for all). */
LANE_INLINE vu v_load(const uint64_t *p, ptrdiff_t lane)
{
    if (lane == 1) {
        vu v;
        memcpy(&v, p, sizeof v);
        return v;
    }
#ifdef LANES_AVX512
    __m512i index = _mm512_mullo_epi64(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi64(lane));
    return (vu)_mm512_i64gather_epi64(index, (const void *)p, 8);
#endif
    /* element by element into registers (a loop through memory would stall on store forwarding) */
#if LANES == 8
    return (vu){p[0], p[lane], p[2 * lane], p[3 * lane], p[4 * lane], p[5 * lane], p[6 * lane], p[7 * lane]};
#elif LANES == 4
    return (vu){p[0], p[lane], p[2 * lane], p[3 * lane]};
#else
    return (vu){p[0], p[lane]};
#endif
}

/* fmt_decode with operand_exp, lane-wise: sig, exp (a zero takes ZERO_OPERAND_EXP), sign (0 / 1; above 1
 * only for a value with bits beyond its format's width, which the caller refuses) and special_flag:
 * the value is inf or NaN (left to the scalar model) where bit lane_special_bit(f) of it is set.  The
 * flags of many values may be OR-ed first and tested once (lane_special). */
typedef struct {
    vi sig, exp, sign, special_flag;
} lane_value;

static inline int lane_special_bit(const fmt_desc *f)
{
    switch (f->specials) {
    case MMAREF_SPECIALS_IEEE:
    case MMAREF_SPECIALS_E8M0: return f->exp_bits;              /* exponent field + 1 */
    case MMAREF_SPECIALS_FN: return f->exp_bits + f->man_bits;  /* exponent and mantissa fields + 1 */
    case MMAREF_SPECIALS_FNUZ: return 63;                       /* all ones */
    default: return 0;                                          /* always 0 */
    }
}

/* all ones in the lanes whose OR-ed flags (of format f's values) hold an inf or NaN */
LANE_INLINE vi lane_special(const fmt_desc *f, vi flags)
{
    return -(vi)(((vu)flags >> lane_special_bit(f)) & 1);
}

LANE_INLINE lane_value lane_decode(const fmt_desc *f, vu raw)
{
    lane_value v;
    const uint64_t man_mask = (1ULL << f->man_bits) - 1, exp_all = (1ULL << f->exp_bits) - 1;
    const uint64_t fields = (1ULL << (f->exp_bits + f->man_bits)) - 1;
    if (f->ignored) /* bits the hardware treats as zero (TF32's low 13) */
        raw &= ~f->ignored;
    vi man = (vi)(raw & man_mask);
    vi e = (vi)((raw >> f->man_bits) & exp_all);
    v.sign = f->has_sign ? (vi)(raw >> (f->width - 1)) : v_splat(0);
    /* the hidden one of a normal number; a zero exponent field is a subnormal at exponent 1 - bias */
    v.sig = v_or_where_nonzero(e, man, (int64_t)1 << f->man_bits);
    v.exp = v_sel_zero(v.sig, ZERO_OPERAND_EXP, v_max_small(e, v_splat(1)) - f->bias);
    switch (f->specials) {
    case MMAREF_SPECIALS_IEEE: v.special_flag = e + 1; break;
    case MMAREF_SPECIALS_FN: v.special_flag = (vi)(raw & fields) + 1; break;
    case MMAREF_SPECIALS_FNUZ: v.special_flag = ~v_nonzero((vi)raw ^ (int64_t)(1ULL << (f->width - 1))); break;
    case MMAREF_SPECIALS_E8M0: /* powers of two: sig 1, no zero */
        v.special_flag = e + 1;
        v.sig = v_splat(1);
        v.exp = e - f->bias;
        break;
    default: v.special_flag = v_splat(0); break;
    }
    return v;
}

/* Operands k0 .. k0 + n - 1 of the LANES dot-adds from j, raw[i] holding operand k0 + i of each.  Where
 * the layout keeps a dot-add's operands side by side (step 1: mmaref_dot's rows) and the lanes apart,
 * AVX2 loads 4 operands of each of its 4 dot-adds and transposes them in registers (element by element
 * was 5-8 % slower on FDA f16; AVX2's gather, 1.5-3x slower on the AMD EPYC measured: docs/speed.md). */
#ifdef LANES_AVX2
/* 4 x 4 of 64-bit values: row[l] holds 4 operands of dot-add l, out[i] operand i of the 4 dot-adds */
LANE_INLINE void lane_transpose4(const __m256i *row, __m256i *out)
{
    __m256i lo01 = _mm256_unpacklo_epi64(row[0], row[1]), hi01 = _mm256_unpackhi_epi64(row[0], row[1]);
    __m256i lo23 = _mm256_unpacklo_epi64(row[2], row[3]), hi23 = _mm256_unpackhi_epi64(row[2], row[3]);
    out[0] = _mm256_permute2x128_si256(lo01, lo23, 0x20);
    out[1] = _mm256_permute2x128_si256(hi01, hi23, 0x20);
    out[2] = _mm256_permute2x128_si256(lo01, lo23, 0x31);
    out[3] = _mm256_permute2x128_si256(hi01, hi23, 0x31);
}
#endif

LANE_INLINE void lane_operands(const mmaref_strided *s, size_t j, const int k0, const int n, vu *raw)
{
    const uint64_t *p = s->p + (ptrdiff_t)j * s->lane + k0 * s->step;
#ifdef LANES_AVX2
    if (s->step == 1 && s->lane != 0 && s->lane != 1 && n % 4 == 0) {
        for (int i = 0; i < n; i += 4) {
            __m256i row[4];
#pragma GCC unroll 4
            for (int l = 0; l < 4; l++)
                row[l] = _mm256_loadu_si256((const __m256i *)(p + l * s->lane + i));
            lane_transpose4(row, (__m256i *)&raw[i]);
        }
        return;
    }
#endif
    for (int i = 0; i < n; i++)
        raw[i] = v_load(p + i * s->step, s->lane);
}

/* Step 2 of the fused kinds, lane-wise: products k0 .. k0 + n - 1 of the dot-adds from j, exact (s_a *
 * s_b, e_a + e_b, sign), from the layout x; the operands' special flags OR-ed into *flags_a and
 * *flags_b, their stray bits into *stray.  zero_exp: 0, or the exponent a product with a zero operand
 * takes (FDA's zero_term_exp; else each zero operand counts as ZERO_OPERAND_EXP).  sig_shift >= 0: the
 * significand comes as s_a * s_b * 2^sig_shift (Step 3's move to F fractional bits, done here once). */
typedef struct {
    vi sig, exp, neg; /* neg: the product is negative where its bit 63 is set (v_negate_where) */
} lane_product_t;

/* -x where bit 63 of s is set, else x (AVX2: one blend on the sign bit) */
LANE_INLINE vi v_negate_where(vi s, vi x)
{
#ifdef LANES_AVX2
    /* (the empty asm keeps GCC from rewriting the blend on bit 63 as a compare and a blend) */
    __m256d sign = _mm256_castsi256_pd((__m256i)s);
    __asm__("" : "+x"(sign));
    return (vi)_mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd((__m256i)x), _mm256_castsi256_pd((__m256i)-x), sign));
#else
    vi neg = v_neg(s);
    return (x ^ neg) - neg;
#endif
}

#ifdef LANES_AVX2
/* AVX2: a and b decoded together, operand pair i as one 64-bit lane (a's raw bits in the low 32, b's in
 * the high 32), each field taken by 32-bit operations with a constant per half: one decode for both
 * operands, and the 32-bit max/min and per-half shifts AVX2 has (it has no 64-bit ones).  For operand
 * formats of at most 32 bits whose exponent, offset by -ZERO_OPERAND_EXP, fits a byte (every FDA,
 * FDRDA and GDFS operand format). */
static inline int lane_pairs_fit(const fmt_desc *f)
{
    return f->width <= 32 && f->exp_bits <= 8 && fmt_parts(f) == 1 && f->specials != MMAREF_SPECIALS_E8M0 &&
           1 - f->bias - ZERO_OPERAND_EXP >= 0 && ((1 << f->exp_bits) - 1) - f->bias - ZERO_OPERAND_EXP < 256;
}

/* a constant with lo in the low 32 bits of each lane, hi in the high 32 */
LANE_INLINE __m256i v_pair(uint32_t lo, uint32_t hi) { return _mm256_set1_epi64x((int64_t)((uint64_t)hi << 32 | lo)); }

/* The raw operands k0 .. k0 + n - 1 of a and b as pairs (a | b << 32); their raw bits OR-ed into
 * *raw_a, *raw_b (the stray check).  mmaref_dot's rows: 4 operands of each of 4 dot-adds loaded, a and b
 * paired, then transposed in registers (as lane_operands). */
LANE_INLINE void lane_operand_pairs(const mmaref_dots *x, size_t j, const int k0, const int n, __m256i *ab,
                                    __m256i *raw_a, __m256i *raw_b)
{
    const mmaref_strided *sa = &x->a, *sb = &x->b;
    if (sa->step == 1 && sb->step == 1 && sa->lane != 0 && sa->lane != 1 && sb->lane != 0 && sb->lane != 1 &&
        n % 4 == 0) {
        const uint64_t *pa = sa->p + (ptrdiff_t)j * sa->lane + k0, *pb = sb->p + (ptrdiff_t)j * sb->lane + k0;
        for (int i = 0; i < n; i += 4) {
            __m256i r[4];
#pragma GCC unroll 4
            for (int l = 0; l < 4; l++) {
                __m256i a = _mm256_loadu_si256((const __m256i *)(pa + l * sa->lane + i));
                __m256i b = _mm256_loadu_si256((const __m256i *)(pb + l * sb->lane + i));
                *raw_a = _mm256_or_si256(*raw_a, a);
                *raw_b = _mm256_or_si256(*raw_b, b);
                r[l] = _mm256_blend_epi32(a, _mm256_slli_epi64(b, 32), 0xaa);
            }
            lane_transpose4(r, &ab[i]);
        }
        return;
    }
    vu ra[MMAREF_MAX_K], rb[MMAREF_MAX_K];
    lane_operands(sa, j, k0, n, ra);
    lane_operands(sb, j, k0, n, rb);
    for (int i = 0; i < n; i++) {
        *raw_a = _mm256_or_si256(*raw_a, (__m256i)ra[i]);
        *raw_b = _mm256_or_si256(*raw_b, (__m256i)rb[i]);
        ab[i] = _mm256_blend_epi32((__m256i)ra[i], _mm256_slli_epi64((__m256i)rb[i], 32), 0xaa);
    }
}

/* A pair's inf/NaN key: (raw ^ x) & y reaches y exactly for an inf or NaN of the format (y = 0: the
 * format has none): IEEE, the exponent field all ones; FN, exponent and mantissa all ones; FNUZ, the
 * negative zero's pattern. */
static inline uint32_t lane_pair_key_x(const fmt_desc *f)
{
    return f->specials == MMAREF_SPECIALS_FNUZ ? (uint32_t)(((1ULL << f->width) - 1) ^ (1ULL << (f->width - 1))) : 0;
}
static inline uint32_t lane_pair_key_y(const fmt_desc *f)
{
    switch (f->specials) {
    case MMAREF_SPECIALS_IEEE: return (uint32_t)(((1ULL << f->exp_bits) - 1) << f->man_bits);
    case MMAREF_SPECIALS_FN: return (uint32_t)((1ULL << (f->exp_bits + f->man_bits)) - 1);
    case MMAREF_SPECIALS_FNUZ: return (uint32_t)((1ULL << f->width) - 1);
    default: return 0;
    }
}

/* lane_products for pairs: the same products, exponents, signs, flags and stray bits. */
LANE_INLINE void lane_products_paired(const fmt_desc *fa, const fmt_desc *fb, const mmaref_dots *x, size_t j,
                                      const int k0, const int n, const int zero_exp, const int sig_shift,
                                      lane_product_t *pr, vi *flags_a, vi *flags_b, vu *stray)
{
    /* bits above a format's width only matter to the stray check (the batch is then refused) */
    const int ignored = fa->ignored || fb->ignored;
    const __m256i keep = v_pair((uint32_t)~fa->ignored, (uint32_t)~fb->ignored);
    const __m256i man_mask = v_pair((1u << fa->man_bits) - 1, (1u << fb->man_bits) - 1);
    const __m256i exp_shift = v_pair((uint32_t)fa->man_bits, (uint32_t)fb->man_bits);
    const __m256i exp_mask = v_pair((1u << fa->exp_bits) - 1, (1u << fb->exp_bits) - 1);
    const __m256i hidden = v_pair(1u << fa->man_bits, 1u << fb->man_bits);
    /* the exponent offset by -ZERO_OPERAND_EXP: 0 for a zero operand, below 256 (lane_pairs_fit) */
    const __m256i exp_offset = v_pair((uint32_t)(-fa->bias - ZERO_OPERAND_EXP), (uint32_t)(-fb->bias - ZERO_OPERAND_EXP));
    /* inf/NaN: with IEEE's specials on both sides the key is the exponent field itself */
    const int ieee = fa->specials == MMAREF_SPECIALS_IEEE && fb->specials == MMAREF_SPECIALS_IEEE;
    const __m256i key_x = v_pair(lane_pair_key_x(fa), lane_pair_key_x(fb));
    const __m256i key_y = ieee ? exp_mask : v_pair(lane_pair_key_y(fa), lane_pair_key_y(fb));
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
    const int shift_in_b = fa->man_bits + 1 + sig_shift <= 32 && fb->man_bits + 1 + sig_shift <= 32;
    __m256i key_max = zero, raw_a = zero, raw_b = zero;
    /* 4 operand pairs loaded, then decoded (in registers), at a time */
    const int chunk = n % 4 == 0 ? 4 : n;
    for (int i0 = 0; i0 < n; i0 += chunk) {
        __m256i ab[MMAREF_MAX_K];
        lane_operand_pairs(x, j, k0 + i0, chunk, ab, &raw_a, &raw_b);
#pragma GCC unroll 4
        for (int i = i0; i < i0 + chunk; i++) {
            __m256i raw = ignored ? _mm256_and_si256(ab[i - i0], keep) : ab[i - i0];
            __m256i man = _mm256_and_si256(raw, man_mask);
            __m256i e = _mm256_and_si256(_mm256_srlv_epi32(raw, exp_shift), exp_mask);
            /* the hidden one of a normal number; a zero exponent field is a subnormal at exponent 1 - bias */
            __m256i sig = _mm256_or_si256(man, _mm256_andnot_si256(_mm256_cmpeq_epi32(e, zero), hidden));
            __m256i exp = _mm256_add_epi32(_mm256_max_epu32(e, one), exp_offset);
            if (!zero_exp) /* a zero operand: ZERO_OPERAND_EXP */
                exp = _mm256_andnot_si256(_mm256_cmpeq_epi32(sig, zero), exp);
            key_max = _mm256_max_epu32(key_max, ieee ? e : _mm256_and_si256(_mm256_xor_si256(raw, key_x), key_y));
            /* Step 2: sig_a * sig_b; e_a + e_b, the two offset exponents summed as bytes; each sign moved to
             * bit 63 */
            vi neg = (fa->has_sign ? (vi)_mm256_slli_epi64(raw, 64 - fa->width) : v_splat(0)) ^
                     (fb->has_sign ? (vi)_mm256_slli_epi64(raw, 32 - fb->width) : v_splat(0));
            vi prod;
            if (shift_in_b) /* s_b * 2^sig_shift taken from the pair by a shorter shift (s_a < 2^(32 - sig_shift)) */
                prod = (vi)_mm256_mul_epu32(sig, _mm256_srli_epi64(sig, 32 - sig_shift));
            else
                prod = (vi)_mm256_mul_epu32(sig, _mm256_srli_epi64(sig, 32)) << sig_shift;
            vi exp_sum = (vi)_mm256_sad_epu8(exp, zero) + 2 * ZERO_OPERAND_EXP;
            if (zero_exp)
                exp_sum = v_sel(v_zero(prod), v_splat(zero_exp), exp_sum);
            pr[i] = (lane_product_t){prod, exp_sum, neg};
        }
    }
    *stray |= ((vu)raw_a & lane_stray_mask(fa)) | ((vu)raw_b & lane_stray_mask(fb));
    /* the lanes with an inf or NaN of a (low half) or b (high half), as the flags lane_special reads */
    __m256i hit = _mm256_andnot_si256(_mm256_cmpeq_epi32(key_y, zero), _mm256_cmpeq_epi32(key_max, key_y));
    *flags_a |= v_nonzero((vi)_mm256_and_si256(hit, v_pair(~0u, 0))) & (int64_t)(1ULL << lane_special_bit(fa));
    *flags_b |= v_nonzero((vi)_mm256_and_si256(hit, v_pair(0, ~0u))) & (int64_t)(1ULL << lane_special_bit(fb));
}
#endif

LANE_INLINE void lane_products(const fmt_desc *fa, const fmt_desc *fb, const mmaref_dots *x, size_t j, const int k0,
                               const int n, const int zero_exp, const int sig_shift, lane_product_t *pr, vi *flags_a,
                               vi *flags_b, vu *stray)
{
#ifdef LANES_AVX2
    if (lane_pairs_fit(fa) && lane_pairs_fit(fb)) {
        lane_products_paired(fa, fb, x, j, k0, n, zero_exp, sig_shift, pr, flags_a, flags_b, stray);
        return;
    }
#endif
    vu ra[MMAREF_MAX_K], rb[MMAREF_MAX_K];
    lane_operands(&x->a, j, k0, n, ra);
    lane_operands(&x->b, j, k0, n, rb);
    for (int i = 0; i < n; i++) {
        *stray |= (ra[i] & lane_stray_mask(fa)) | (rb[i] & lane_stray_mask(fb));
        lane_value ua = lane_decode(fa, ra[i]), ub = lane_decode(fb, rb[i]);
        *flags_a |= ua.special_flag;
        *flags_b |= ub.special_flag;
        vi prod = v_mul32(ua.sig, ub.sig), exp = ua.exp + ub.exp;
        if (zero_exp)
            exp = v_sel(v_zero(prod), v_splat(zero_exp), exp);
        pr[i] = (lane_product_t){prod << sig_shift, exp, (ua.sign ^ ub.sign) << 63};
    }
}

/* x >> s for s >= 0, 0 where s >= 64, for x < 2^63 (AVX2's and AVX-512's variable shifts give 0 past
 * 63 themselves; the portable form shifts by at most 63) */
LANE_INLINE vu v_shr_far(vu x, vi s)
{
#ifdef LANES_AVX512
    return (vu)_mm512_srlv_epi64((__m512i)x, (__m512i)s);
#elif defined(LANES_AVX2)
    return (vu)_mm256_srlv_epi64((__m256i)x, (__m256i)s);
#else
    return x >> (vu)v_min(s, v_splat(63));
#endif
}

/* fixed_align_rz, lane-wise: (-1)^sign * sig * 2^(exp - sig_frac) in units of 2^(e_max - F), the
 * shifted-out bits truncated toward zero (FDA Step 3); the sign in bit 63 of neg. */
LANE_INLINE vi lane_align_rz(vi neg, vi sig, const int sig_frac, vi exp, vi e_max, const int F)
{
    vi drop = e_max - exp;
    vu m;
    if (sig_frac <= F)
        m = v_shr_far((vu)sig << (F - sig_frac), drop);
    else
        m = v_shr_far((vu)sig, drop + (sig_frac - F));
    return v_negate_where(neg, (vi)m);
}

/* The position of the leading one (0 for 0), by halving. */
LANE_INLINE vi lane_msb(vu x)
{
#ifdef LANES_AVX512
    return 63 - (vi)_mm512_lzcnt_epi64((__m512i)(x | 1));
#elif defined(LANES_AVX2)
    /* 2^52 + t is exact as a double for t < 2^52 (t: x, or x >> 12 from 2^52 on): take 2^52 away and
     * the exponent field is 1023 + t's leading one (exact operations: no rounding mode applies) */
    vi big = v_nonzero((vi)(x >> 52));
    __m256i t = (__m256i)v_sel(big, (vi)(x >> 12), (vi)(x | 1));
    __m256d v = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(t, _mm256_set1_epi64x(0x4330000000000000))),
                              _mm256_set1_pd(4503599627370496.0));
    return (vi)_mm256_srli_epi64(_mm256_castpd_si256(v), 52) - 1023 + (big & 12);
#endif
    vi r = v_splat(0);
    for (int s = 32; s; s >>= 1) {
        vi hi = v_nonzero((vi)(x >> s));
        r += hi & s;
        x = (vu)v_sel(hi, (vi)(x >> s), (vi)x);
    }
    return r;
}

/* fixed_to_output, lane-wise, for the output kinds of an IEEE format (the fused kinds write f32 or
 * f16): sum * 2^lsb_exp rounded per out_table's row; the same steps as fmt_encode128 with a 64-bit
 * magnitude, a kind that keeps fewer mantissa bits (e8m13) rounded in the narrow format. */
LANE_INLINE vu lane_to_output(vi sum, vi lsb_exp, const mmaref_output kind)
{
    const out_desc *o = &out_table[kind];
    const fmt_desc *f = fmt_of(o->format);
    const int man = o->man_bits, dropped = f->man_bits - o->man_bits, width = f->width - dropped;
    const int64_t e_min = fmt_min_exp(f), max_biased = (1LL << f->exp_bits) - 2;
    vi neg = v_neg(sum);
    vu mag = (vu)((sum ^ neg) - neg);
    vi e = lane_msb(mag) + lsb_exp;           /* exponent of the leading one */
    vi q = v_max_small(e, v_splat(e_min)) - man;    /* weight of the last kept bit */
    vi shift = q - lsb_exp;
    vi left = v_lt(shift, v_splat(1)), gone = ~v_lt(shift, v_splat(64));
    vu up = mag << (vu)v_max_small(v_min_small(-shift, v_splat(63)), v_splat(0)), down = mag >> (vu)(shift & 63);
    vu kept = (vu)v_sel(left, (vi)up, v_sel(gone, v_splat(0), (vi)down));
    vu rem = (vu)v_sel(left, v_splat(0), v_sel(gone, (vi)mag, (vi)(mag & (((vu)v_splat(1) << (vu)(shift & 63)) - 1))));
    if (o->rounding == MMAREF_RNE) {
        vi in_range = ~left & v_lt(shift, v_splat(65));
        vu half = (vu)v_splat(1) << (vu)((shift - 1) & 63);
        vi up_round = in_range & (v_ult(half, rem) | (~v_nonzero((vi)(rem ^ half)) & -(vi)(kept & 1)));
        kept += (vu)(up_round & 1);
    }
    vi carry = v_nonzero((vi)(kept >> (man + 1)));  /* rounding carried into a new leading bit */
    kept = (vu)v_sel(carry, (vi)(kept >> 1), (vi)kept);
    q -= carry;
    vi normal = v_nonzero((vi)(kept >> man));
    vi biased = normal & (q + man + f->bias);
    vu bits = (vu)(biased << man) | (kept & (uint64_t)((1ULL << man) - 1));
    /* past the largest finite value: infinity, in every rounding (the Tensor Core rule) */
    bits = (vu)v_sel(v_lt(v_splat(max_biased), biased), v_splat((int64_t)(((1ULL << f->exp_bits) - 1) << man)), (vi)bits);
    bits |= ((vu)neg & 1) << (width - 1);
    bits <<= dropped;
    if (!o->signed_zero) /* the Tensor Core's fused sum gives +0, never -0 */
        bits &= (vu)v_nonzero((vi)(bits & (uint64_t)~(1ULL << (f->width - 1))));
    return bits;
}

#endif
