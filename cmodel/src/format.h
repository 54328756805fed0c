/* Number formats: decode raw bits into (sign, sig, exp, class), encode an exact value with rounding.
 *
 * Convention (FDA Step 2 of the MMA-Sim paper): value = (-1)^sign * sig * 2^(exp - man_bits), where
 * sig is an integer holding man_bits fractional bits.  A normal number has the hidden one
 * (sig = 2^man_bits | mantissa, exp = E - bias); a subnormal keeps the format's minimum exponent
 * (exp = 1 - bias), so 2^-127 in bf16 is sig = 0.5 * 2^7, exp = -126. */
#ifndef MMAREF_FORMAT_H
#define MMAREF_FORMAT_H

#include <stdint.h>
#include "mmaref.h"

typedef enum { CLS_ZERO, CLS_SUBNORMAL, CLS_NORMAL, CLS_INF, CLS_NAN } fp_class;

/* A format's fields (mmaref_format_get_info gives them, with derived ones, to callers). */
typedef struct {
    const char *name;
    int width;          /* storage bits */
    int exp_bits, man_bits, bias;
    int has_sign;       /* 0 for the unsigned scale formats */
    mmaref_specials specials;
    uint64_t ignored;   /* bits the hardware treats as zero: TF32's low 13, UE4M3's sign */
    int parts;          /* 0 (one value); 2: a complex format, two values of format `part`, the real part
                         * in the low half of the width -- decoded part by part, never as a whole */
    mmaref_format part;
} fmt_desc;

typedef struct {
    int sign;           /* 1 = negative */
    uint64_t sig;       /* integer significand with man_bits fractional bits */
    int exp;            /* unbiased exponent; subnormals and zero carry 1 - bias */
    fp_class cls;
} fp_unpacked;

typedef mmaref_rounding fp_rounding;
/* Roundings no output kind has, for a unit that breaks round-to-nearest-even (rules.c: output-ties,
 * output-sticky): ties away from zero, and nearest-even that sees only the round bit (a value just above
 * a midpoint taken for the midpoint). */
#define FP_RNA ((fp_rounding)MMAREF_ROUNDING_COUNT)
#define FP_RNE_NO_STICKY ((fp_rounding)(MMAREF_ROUNDING_COUNT + 1))

/* The format parameters, visible to the compiler so decoding a known format folds to a few
 * instructions.  name, width, exp_bits, man_bits, bias, has_sign, specials, ignored bits[, parts, part] */
#define F32_FIELDS 8, 23, 127, 1, MMAREF_SPECIALS_IEEE, 0
#define SCALAR 0, (mmaref_format)0 /* parts, part: one value */
static const fmt_desc fmt_table[MMAREF_FORMAT_COUNT] = {
    [MMAREF_F64]      = {"f64",      64, 11, 52, 1023, 1, MMAREF_SPECIALS_IEEE, 0, SCALAR},
    [MMAREF_F32]      = {"f32",      32, F32_FIELDS, SCALAR},
    /* TF32 is stored in 32 bits; Tensor and Matrix Cores treat the low 13 bits as zero (Step 0). */
    [MMAREF_TF32]     = {"tf32",     32,  8, 23,  127, 1, MMAREF_SPECIALS_IEEE, 0x1FFF, SCALAR},
    [MMAREF_F16]      = {"f16",      16,  5, 10,   15, 1, MMAREF_SPECIALS_IEEE, 0, SCALAR},
    [MMAREF_BF16]     = {"bf16",     16,  8,  7,  127, 1, MMAREF_SPECIALS_IEEE, 0, SCALAR},
    [MMAREF_E4M3]     = {"e4m3",      8,  4,  3,    7, 1, MMAREF_SPECIALS_FN,   0, SCALAR},
    [MMAREF_E5M2]     = {"e5m2",      8,  5,  2,   15, 1, MMAREF_SPECIALS_IEEE, 0, SCALAR},
    [MMAREF_E3M2]     = {"e3m2",      6,  3,  2,    3, 1, MMAREF_SPECIALS_NONE, 0, SCALAR},
    [MMAREF_E2M3]     = {"e2m3",      6,  2,  3,    1, 1, MMAREF_SPECIALS_NONE, 0, SCALAR},
    [MMAREF_E2M1]     = {"e2m1",      4,  2,  1,    1, 1, MMAREF_SPECIALS_NONE, 0, SCALAR},
    [MMAREF_UE8M0]    = {"ue8m0",     8,  8,  0,  127, 0, MMAREF_SPECIALS_E8M0, 0, SCALAR},
    /* UE4M3 is stored in 8 bits; the Tensor Core treats its most significant bit as zero. */
    [MMAREF_UE4M3]    = {"ue4m3",     8,  4,  3,    7, 0, MMAREF_SPECIALS_FN,   0x80, SCALAR},
    [MMAREF_E4M3FNUZ] = {"e4m3fnuz",  8,  4,  3,    8, 1, MMAREF_SPECIALS_FNUZ, 0, SCALAR},
    [MMAREF_E5M2FNUZ] = {"e5m2fnuz",  8,  5,  2,   16, 1, MMAREF_SPECIALS_FNUZ, 0, SCALAR},
    /* M3XU's complex FP32: the memory layout of a little-endian complex64, real part first (low bits). */
    [MMAREF_F32C]     = {"f32c",     64, F32_FIELDS, 2, MMAREF_F32},
};
#undef F32_FIELDS
#undef SCALAR

static inline const fmt_desc *fmt_of(mmaref_format f) { return &fmt_table[f]; }

/* A complex format's parts: each part_width bits, part i at bit i * part_width (real part first). */
static inline int fmt_parts(const fmt_desc *f) { return f->parts > 1 ? f->parts : 1; }
static inline int fmt_part_width(const fmt_desc *f) { return f->width / fmt_parts(f); }
static inline uint64_t fmt_part_bits(const fmt_desc *f, uint64_t raw, int i)
{
    int w = fmt_part_width(f);
    return w == 64 ? raw : (raw >> (i * w)) & ((1ULL << w) - 1);
}
static inline uint64_t fmt_join_part(const fmt_desc *f, uint64_t part_raw, int i)
{
    return part_raw << (i * fmt_part_width(f));
}
static inline int fmt_min_exp(const fmt_desc *f) { return 1 - f->bias; }
/* Mantissa bits that count: TF32's low 13, which the hardware treats as zero, do not. */
static inline int fmt_precision(const fmt_desc *f)
{
    return f->man_bits - (f->ignored & 1 ? __builtin_ctzll(~f->ignored) : 0);
}
/* A -0: a sign, and not FNUZ's single zero (whose 1000...0 is its NaN); the unsigned formats have none. */
static inline int fmt_has_neg_zero(const fmt_desc *f) { return f->has_sign && f->specials != MMAREF_SPECIALS_FNUZ; }

/* Decode raw bits (bits above the width and ignored bits are dropped first). */
static inline __attribute__((always_inline)) fp_unpacked fmt_decode(const fmt_desc *f, uint64_t raw)
{
    fp_unpacked u;
    uint64_t mask = f->width == 64 ? ~0ULL : ((1ULL << f->width) - 1);
    raw &= mask & ~f->ignored;
    int man_bits = f->man_bits;
    uint64_t man = raw & ((1ULL << man_bits) - 1);
    uint64_t e = (raw >> man_bits) & ((1ULL << f->exp_bits) - 1);
    uint64_t exp_all_ones = (1ULL << f->exp_bits) - 1;
    u.sign = f->has_sign ? (int)((raw >> (f->width - 1)) & 1) : 0;

    switch (f->specials) {
    case MMAREF_SPECIALS_E8M0:
        u.sign = 0;
        u.sig = 1; u.exp = (int)e - f->bias;
        u.cls = e == exp_all_ones ? CLS_NAN : CLS_NORMAL;
        return u;
    case MMAREF_SPECIALS_IEEE:
        if (e == exp_all_ones) {
            u.sig = man; u.exp = 0;
            u.cls = man ? CLS_NAN : CLS_INF;
            return u;
        }
        break;
    case MMAREF_SPECIALS_FN:
        if (e == exp_all_ones && man == (1ULL << man_bits) - 1) {
            u.sig = man; u.exp = 0; u.cls = CLS_NAN;
            return u;
        }
        break;
    case MMAREF_SPECIALS_FNUZ:
        if (raw == 1ULL << (f->width - 1)) {
            u.sig = 0; u.exp = 0; u.cls = CLS_NAN;
            return u;
        }
        break;
    default: /* MMAREF_SPECIALS_NONE */
        break;
    }
    /* branch-free: a zero exponent field is a subnormal (or zero) at the minimum exponent */
    int is_normal = e != 0;
    u.sig = man | ((uint64_t)is_normal << man_bits);
    u.exp = (int)e - f->bias + !is_normal;
    u.cls = is_normal ? CLS_NORMAL : man ? CLS_SUBNORMAL : CLS_ZERO;
    return u;
}

/* Does `to` hold every value of `from` exactly (fmt_widen's precondition)?  Both IEEE, `to` with as
 * many mantissa and exponent bits, reaching as high and, subnormals included, as low. */
static inline int fmt_widens_exactly(const fmt_desc *from, const fmt_desc *to)
{
    return from == to ||
           (from->specials == MMAREF_SPECIALS_IEEE && to->specials == MMAREF_SPECIALS_IEEE &&
            from->man_bits <= to->man_bits && from->exp_bits <= to->exp_bits &&
            fmt_min_exp(from) - from->man_bits >= fmt_min_exp(to) - to->man_bits &&
            (1 << from->exp_bits) - 2 - from->bias <= (1 << to->exp_bits) - 2 - to->bias);
}

/* An exact widening conversion (f16 -> f32 for Volta's C): the same value in format `to`, normalized
 * as `to` decodes it (a subnormal of the narrow format becomes normal in the wide one). */
static inline fp_unpacked fmt_widen(const fmt_desc *from, const fmt_desc *to, fp_unpacked u)
{
    if (u.cls == CLS_ZERO || u.cls == CLS_SUBNORMAL || u.cls == CLS_NORMAL) {
        u.sig <<= to->man_bits - from->man_bits;
        if (u.cls == CLS_ZERO) {
            u.exp = fmt_min_exp(to);
            return u;
        }
        while (!(u.sig >> to->man_bits) && u.exp > fmt_min_exp(to)) {
            u.sig <<= 1;
            u.exp--;
        }
        u.cls = (u.sig >> to->man_bits) ? CLS_NORMAL : CLS_SUBNORMAL;
    }
    return u;
}

uint64_t fmt_inf(const fmt_desc *f, int sign);      /* +-inf, or the NaN of a format without inf */
uint64_t fmt_canonical_nan(const fmt_desc *f);       /* positive quiet NaN with all mantissa bits set */

/* The encoder is inline so that, for a known format and rounding, it folds to a few instructions. */
typedef unsigned __int128 u128;

static inline int msb128(u128 x)
{
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
}

/* Largest biased exponent and, at that exponent, largest mantissa of a finite number. */
static inline void fmt_max_finite(const fmt_desc *f, uint64_t *max_biased, uint64_t *max_man_at_top)
{
    uint64_t all_exp = (1ULL << f->exp_bits) - 1, all_man = (1ULL << f->man_bits) - 1;
    switch (f->specials) {
    case MMAREF_SPECIALS_IEEE: *max_biased = all_exp - 1; *max_man_at_top = all_man; break;
    case MMAREF_SPECIALS_FN:   *max_biased = all_exp;     *max_man_at_top = all_man - 1; break;
    case MMAREF_SPECIALS_E8M0: *max_biased = all_exp - 1; *max_man_at_top = 0; break;
    default:            *max_biased = all_exp;     *max_man_at_top = all_man; break;
    }
}

static inline uint64_t round_increment(fp_rounding r, int sign, u128 kept, u128 rem, int shift)
{
    if (rem == 0)
        return 0;
    switch (r) {
    case MMAREF_RZ: return 0;
    case MMAREF_RD: return sign ? 1 : 0;
    case MMAREF_RNE:
        if (shift > 128)
            return 0;
        {
            u128 half = (u128)1 << (shift - 1);
            return rem > half || (rem == half && (kept & 1));
        }
    default:
        if (shift > 128)
            return 0;
        if (r == FP_RNA)
            return rem >= (u128)1 << (shift - 1);
        if (r == FP_RNE_NO_STICKY)
            return (rem >> (shift - 1) & 1) && (kept & 1);
        return 0;
    }
}

/* Encode (-1)^sign * mag * 2^lsb_exp into f with rounding mode r.  Overflow past the format's largest
 * exponent gives infinity in every mode (the Tensor Core rule: |x| >= 2^128 becomes inf even under
 * RZ); formats without infinity give their NaN.  *inexact (if non-NULL) is set when rounding changed
 * the value.  A zero magnitude keeps the sign given (formats without -0 give +0). */
static inline uint64_t fmt_encode128(const fmt_desc *f, int sign, uint64_t hi, uint64_t lo, int lsb_exp, fp_rounding r,
                       int *inexact)
{
    u128 mag = ((u128)hi << 64) | lo;
    int dummy;
    if (!inexact)
        inexact = &dummy;
    *inexact = 0;
    uint64_t sign_bit = f->has_sign ? (uint64_t)(sign != 0) << (f->width - 1) : 0;
    if (!f->has_sign && sign && mag != 0) {
        *inexact = 1;
        return fmt_canonical_nan(f);
    }
    if (mag == 0) {
        if (f->specials == MMAREF_SPECIALS_E8M0) { *inexact = 1; return fmt_canonical_nan(f); }
        if (f->specials == MMAREF_SPECIALS_FNUZ) return 0; /* no negative zero */
        return sign_bit;
    }
    int man = f->man_bits;
    int e_min = fmt_min_exp(f);
    int e = msb128(mag) + lsb_exp;                 /* exponent of the leading one */
    int q = (e < e_min ? e_min : e) - man;         /* weight of the last kept bit */
    if (f->specials == MMAREF_SPECIALS_E8M0)
        q = e;                                     /* no subnormals: powers of two only */
    int shift = q - lsb_exp;
    u128 kept, rem = 0;
    if (shift <= 0) {
        kept = mag << -shift;
    } else if (shift >= 128) {
        kept = 0; rem = mag;
    } else {
        kept = mag >> shift;
        rem = mag & (((u128)1 << shift) - 1);
    }
    *inexact = rem != 0;
    kept += round_increment(r, sign, kept, rem, shift);
    if (kept >> (man + 1)) {                       /* rounding carried into a new leading bit */
        kept >>= 1;
        q++;
    }
    uint64_t biased, mantissa;
    if (f->specials == MMAREF_SPECIALS_E8M0) {
        if (kept == 0 || q + f->bias < 0) { *inexact = 1; return fmt_canonical_nan(f); }
        biased = (uint64_t)(q + f->bias); mantissa = 0;
    } else if (kept >> man) {
        biased = (uint64_t)(q + man + f->bias);
        mantissa = (uint64_t)kept & ((1ULL << man) - 1);
    } else {
        biased = 0;
        mantissa = (uint64_t)kept;
    }
    uint64_t max_biased, max_man;
    fmt_max_finite(f, &max_biased, &max_man);
    if (biased > max_biased || (biased == max_biased && mantissa > max_man)) {
        *inexact = 1;
        return fmt_inf(f, sign);
    }
    if (biased == 0 && mantissa == 0 && f->specials == MMAREF_SPECIALS_FNUZ)
        sign_bit = 0;
    return sign_bit | (biased << man) | mantissa;
}

/* Same with a 64-bit magnitude. */
static inline uint64_t fmt_encode(const fmt_desc *f, int sign, uint64_t mag, int lsb_exp, fp_rounding r, int *inexact)
{
    return fmt_encode128(f, sign, 0, mag, lsb_exp, r, inexact);
}

#endif
