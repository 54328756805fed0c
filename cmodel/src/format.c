/* Number formats: the format table, encoding with rounding, and the public format helpers. */
#include "format.h"

#include <math.h>
#include <string.h>
#include <strings.h>


typedef unsigned __int128 u128;

static int msb128(u128 x)
{
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
}

uint64_t fmt_canonical_nan(const fmt_desc *f)
{
    switch (f->specials) {
    case SPECIALS_FNUZ: return 1ULL << (f->width - 1);
    case SPECIALS_E8M0: return 0xFF;
    case SPECIALS_NONE: return 0; /* no NaN: callers check before asking */
    default: {
        uint64_t all = f->width == 64 ? ~0ULL : (1ULL << f->width) - 1;
        return f->has_sign ? all >> 1 : all & ~f->ignored;
    }
    }
}

uint64_t fmt_inf(const fmt_desc *f, int sign)
{
    if (f->specials != SPECIALS_IEEE)
        return fmt_canonical_nan(f);
    uint64_t bits = ((1ULL << f->exp_bits) - 1) << f->man_bits;
    return sign ? bits | (1ULL << (f->width - 1)) : bits;
}

/* Largest biased exponent and, at that exponent, largest mantissa of a finite number. */
static void fmt_max_finite(const fmt_desc *f, uint64_t *max_biased, uint64_t *max_man_at_top)
{
    uint64_t all_exp = (1ULL << f->exp_bits) - 1, all_man = (1ULL << f->man_bits) - 1;
    switch (f->specials) {
    case SPECIALS_IEEE: *max_biased = all_exp - 1; *max_man_at_top = all_man; break;
    case SPECIALS_FN:   *max_biased = all_exp;     *max_man_at_top = all_man - 1; break;
    case SPECIALS_E8M0: *max_biased = all_exp - 1; *max_man_at_top = 0; break;
    default:            *max_biased = all_exp;     *max_man_at_top = all_man; break;
    }
}

static uint64_t round_increment(fp_rounding r, int sign, u128 kept, u128 rem, int shift)
{
    if (rem == 0)
        return 0;
    switch (r) {
    case ROUND_RZ: return 0;
    case ROUND_RD: return sign ? 1 : 0;
    case ROUND_RNE:
        if (shift > 128)
            return 0;
        {
            u128 half = (u128)1 << (shift - 1);
            return rem > half || (rem == half && (kept & 1));
        }
    }
    return 0;
}

uint64_t fmt_encode128(const fmt_desc *f, int sign, uint64_t hi, uint64_t lo, int lsb_exp, fp_rounding r,
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
        if (f->specials == SPECIALS_E8M0) { *inexact = 1; return fmt_canonical_nan(f); }
        if (f->specials == SPECIALS_FNUZ) return 0; /* no negative zero */
        return sign_bit;
    }
    int man = f->man_bits;
    int e_min = fmt_min_exp(f);
    int e = msb128(mag) + lsb_exp;                 /* exponent of the leading one */
    int q = (e < e_min ? e_min : e) - man;         /* weight of the last kept bit */
    if (f->specials == SPECIALS_E8M0)
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
    if (f->specials == SPECIALS_E8M0) {
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
    if (biased == 0 && mantissa == 0 && f->specials == SPECIALS_FNUZ)
        sign_bit = 0;
    return sign_bit | (biased << man) | mantissa;
}

uint64_t fmt_encode(const fmt_desc *f, int sign, uint64_t mag, int lsb_exp, fp_rounding r, int *inexact)
{
    return fmt_encode128(f, sign, 0, mag, lsb_exp, r, inexact);
}

/* ---- public helpers ---- */

const char *mmaref_format_name(mmaref_format f)
{
    return (unsigned)f < MMAREF_FORMAT_COUNT ? fmt_table[f].name : "?";
}

mmaref_format mmaref_format_by_name(const char *name)
{
    static const struct { const char *alias; mmaref_format f; } aliases[] = {
        {"fp8", MMAREF_E4M3FNUZ}, {"bf8", MMAREF_E5M2FNUZ}, {"xf32", MMAREF_TF32},
        {"e4m3fn", MMAREF_E4M3}, {"e8m0", MMAREF_UE8M0},
    };
    if (!name)
        return MMAREF_FORMAT_COUNT;
    for (int i = 0; i < MMAREF_FORMAT_COUNT; i++)
        if (!strcasecmp(name, fmt_table[i].name))
            return (mmaref_format)i;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (!strcasecmp(name, aliases[i].alias))
            return aliases[i].f;
    return MMAREF_FORMAT_COUNT;
}

int mmaref_format_width(mmaref_format f) { return fmt_table[f].width; }

int mmaref_format_valid_bits(mmaref_format f, uint64_t raw)
{
    int w = fmt_table[f].width;
    return w == 64 || (raw >> w) == 0;
}

double mmaref_format_to_double(mmaref_format f, uint64_t raw)
{
    const fmt_desc *d = fmt_of(f);
    fp_unpacked u = fmt_decode(d, raw);
    double v;
    switch (u.cls) {
    case CLS_NAN: return NAN;
    case CLS_INF: v = INFINITY; break;
    default: v = ldexp((double)u.sig, u.exp - d->man_bits); break;
    }
    return u.sign ? -v : v;
}

static mmaref_status format_convert_double(mmaref_format f, double x, uint64_t *raw, int exact);

mmaref_status mmaref_format_from_double(mmaref_format f, double x, uint64_t *raw)
{
    return format_convert_double(f, x, raw, 1);
}

mmaref_status mmaref_format_round_double(mmaref_format f, double x, uint64_t *raw)
{
    return format_convert_double(f, x, raw, 0);
}

static mmaref_status format_convert_double(mmaref_format f, double x, uint64_t *raw, int exact)
{
    const fmt_desc *d = fmt_of(f);
    if (isnan(x)) {
        if (d->specials == SPECIALS_NONE)
            return MMAREF_ERR_VALUE;
        *raw = fmt_canonical_nan(d);
        return MMAREF_OK;
    }
    if (isinf(x)) {
        if (d->specials != SPECIALS_IEEE)
            return MMAREF_ERR_VALUE;
        *raw = fmt_inf(d, signbit(x) != 0);
        return MMAREF_OK;
    }
    int sign = signbit(x) != 0;
    if (sign && (!d->has_sign || (x == 0 && d->specials == SPECIALS_FNUZ)))
        return MMAREF_ERR_VALUE;
    int ex;
    double fr = frexp(fabs(x), &ex);               /* |x| = fr * 2^ex, 0.5 <= fr < 1 */
    uint64_t mag = (uint64_t)ldexp(fr, 53);
    int inexact;
    uint64_t bits = fmt_encode(d, sign, mag, ex - 53, ROUND_RNE, &inexact);
    if (!exact && (bits & d->ignored)) {           /* tf32: round again at 10 mantissa bits */
        uint64_t keep = bits & ~d->ignored, half = (d->ignored + 1) >> 1, rest = bits & d->ignored;
        bits = keep + ((rest > half || (rest == half && (keep & (d->ignored + 1)))) ? d->ignored + 1 : 0);
        inexact = 0;
    }
    if (exact && (inexact || (bits & d->ignored)))  /* tf32: more than 10 mantissa bits */
        return MMAREF_ERR_VALUE;
    *raw = bits;
    return MMAREF_OK;
}
