/* Number formats: the format table, encoding with rounding, and the public format helpers. */
#include "format.h"

#include <string.h>
#include <strings.h>

uint64_t fmt_canonical_nan(const fmt_desc *f)
{
    switch (f->specials) {
    case MMAREF_SPECIALS_FNUZ: return 1ULL << (f->width - 1);
    case MMAREF_SPECIALS_E8M0: return 0xFF;
    case MMAREF_SPECIALS_NONE: return 0; /* no NaN: callers check before asking */
    default: {
        uint64_t all = f->width == 64 ? ~0ULL : (1ULL << f->width) - 1;
        return f->has_sign ? all >> 1 : all & ~f->ignored;
    }
    }
}

uint64_t fmt_inf(const fmt_desc *f, int sign)
{
    if (f->specials != MMAREF_SPECIALS_IEEE)
        return fmt_canonical_nan(f);
    uint64_t bits = ((1ULL << f->exp_bits) - 1) << f->man_bits;
    return sign ? bits | (1ULL << (f->width - 1)) : bits;
}

/* ---- public helpers ---- */


const char *mmaref_specials_name(mmaref_specials s)
{
    static const char *const names[MMAREF_SPECIALS_COUNT] = {"ieee", "fn", "fnuz", "none", "e8m0"};
    return (unsigned)s < MMAREF_SPECIALS_COUNT ? names[s] : "?";
}

/* Low mantissa bits the hardware ignores (tf32: 13). */

int mmaref_format_precision(mmaref_format f)
{
    return (unsigned)f < MMAREF_FORMAT_COUNT ? fmt_precision(&fmt_table[f]) : 0;
}



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

int mmaref_format_width(mmaref_format f) { return (unsigned)f < MMAREF_FORMAT_COUNT ? fmt_table[f].width : 0; }

int mmaref_format_valid_bits(mmaref_format f, uint64_t raw)
{
    if ((unsigned)f >= MMAREF_FORMAT_COUNT)
        return 0;
    int w = fmt_table[f].width;
    return w == 64 || (raw >> w) == 0;
}

int mmaref_format_parts(mmaref_format f) { return (unsigned)f < MMAREF_FORMAT_COUNT ? fmt_parts(fmt_of(f)) : 0; }

mmaref_format mmaref_format_part(mmaref_format f)
{
    if ((unsigned)f >= MMAREF_FORMAT_COUNT)
        return MMAREF_FORMAT_COUNT;
    return fmt_parts(fmt_of(f)) > 1 ? fmt_of(f)->part : f;
}

uint64_t mmaref_format_part_bits(mmaref_format f, uint64_t raw, int i)
{
    if ((unsigned)f >= MMAREF_FORMAT_COUNT || i < 0 || i >= fmt_parts(fmt_of(f)))
        return 0;
    return fmt_part_bits(fmt_of(f), raw, i);
}

uint64_t mmaref_format_join_parts(mmaref_format f, const uint64_t *parts)
{
    if ((unsigned)f >= MMAREF_FORMAT_COUNT || !parts)
        return 0;
    const fmt_desc *d = fmt_of(f);
    uint64_t raw = 0;
    for (int i = 0; i < fmt_parts(d); i++)
        raw |= fmt_join_part(d, fmt_part_bits(d, parts[i], 0), i);
    return raw;
}

/* The host's doubles cross the API as binary64 bit patterns, decoded and encoded with integer
 * operations only: no conversion depends on the caller's rounding mode or on x86's flush-to-zero and
 * denormals-are-zero (a -ffast-math library, torch.set_flush_denormal), under which frexp, ldexp and
 * comparisons take the 2^52 - 1 binary64 subnormals of each sign for zeros. */
static double double_of_bits(uint64_t bits)
{
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* The quiet NaN C's NAN is (the one every NaN converts to). */
#define F64_QUIET_NAN 0x7ff8000000000000ULL

static uint64_t bits_of_double(double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits;
}

double mmaref_format_to_double(mmaref_format f, uint64_t raw)
{
    const fmt_desc *f64 = fmt_of(MMAREF_F64);
    if ((unsigned)f >= MMAREF_FORMAT_COUNT)
        return double_of_bits(F64_QUIET_NAN);
    const fmt_desc *d = fmt_of(f);
    if (fmt_parts(d) > 1) { /* complex: a double only when the imaginary part is zero */
        const fmt_desc *part = fmt_of(d->part);
        fp_unpacked im = fmt_decode(part, fmt_part_bits(d, raw, 1));
        return im.cls == CLS_ZERO ? mmaref_format_to_double(d->part, fmt_part_bits(d, raw, 0))
                                  : double_of_bits(F64_QUIET_NAN);
    }
    fp_unpacked u = fmt_decode(d, raw);
    switch (u.cls) {
    case CLS_NAN: return double_of_bits(F64_QUIET_NAN);
    case CLS_INF: return double_of_bits(fmt_inf(f64, u.sign));
    default: /* every format's finite values are binary64 values: the encoding is exact */
        return double_of_bits(fmt_encode(f64, u.sign, u.sig, u.exp - d->man_bits, MMAREF_RNE, NULL));
    }
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
    if ((unsigned)f >= MMAREF_FORMAT_COUNT || !raw)
        return MMAREF_ERR_ARGUMENT;
    const fmt_desc *d = fmt_of(f);
    if (fmt_parts(d) > 1) { /* complex: x + 0i */
        uint64_t re;
        mmaref_status st = format_convert_double(d->part, x, &re, exact);
        if (st == MMAREF_OK)
            *raw = fmt_join_part(d, re, 0);
        return st;
    }
    fp_unpacked v = fmt_decode(fmt_of(MMAREF_F64), bits_of_double(x));
    if (v.cls == CLS_NAN) {
        if (d->specials == MMAREF_SPECIALS_NONE)
            return MMAREF_ERR_VALUE;
        *raw = fmt_canonical_nan(d);
        return MMAREF_OK;
    }
    if (v.cls == CLS_INF) {
        if (d->specials != MMAREF_SPECIALS_IEEE)
            return MMAREF_ERR_VALUE;
        *raw = fmt_inf(d, v.sign);
        return MMAREF_OK;
    }
    int sign = v.sign;
    if (sign && (!d->has_sign || (v.cls == CLS_ZERO && d->specials == MMAREF_SPECIALS_FNUZ)))
        return MMAREF_ERR_VALUE;
    /* A format whose low bits the hardware ignores (tf32: 13) holds fewer mantissa bits than its
     * storage: round once, at the bits it keeps, then put them back in place. */
    int low = d->man_bits - fmt_precision(d);
    fmt_desc kept = *d;
    kept.man_bits -= low;
    kept.width -= low;
    kept.ignored = 0;
    int inexact; /* |x| = sig 2^(exp - 52), sig an integer */
    uint64_t bits = fmt_encode(&kept, sign, v.sig, v.exp - 52, MMAREF_RNE, &inexact) << low;
    if (exact && inexact)
        return MMAREF_ERR_VALUE;
    /* a format with neither inf nor NaN (e2m1) cannot hold an overflow: the encoder gives its "NaN", 0
     * (a nonzero x of 1 or more never rounds to 0 otherwise: every format's largest finite is above 1) */
    if (d->specials == MMAREF_SPECIALS_NONE && v.cls != CLS_ZERO && v.exp >= 0 &&
        !(bits & ~((uint64_t)d->has_sign << (d->width - 1))))
        return MMAREF_ERR_VALUE;
    *raw = bits;
    return MMAREF_OK;
}

mmaref_status mmaref_format_get_info(mmaref_format f, mmaref_format_info *info)
{
    if ((unsigned)f >= MMAREF_FORMAT_COUNT || !info)
        return MMAREF_ERR_ARGUMENT;
    const fmt_desc *d = fmt_of(f);
    if (fmt_parts(d) > 1) { /* complex: the part's fields; its special values in every part */
        mmaref_format_get_info(d->part, info);
        uint64_t *both[] = {&info->max_finite, &info->inf, &info->nan};
        for (size_t i = 0; i < sizeof both / sizeof both[0]; i++)
            for (int j = 1; j < fmt_parts(d); j++)
                *both[i] |= fmt_join_part(d, *both[i], j);
        info->name = d->name;
        info->width = d->width;
        info->parts = fmt_parts(d);
        return MMAREF_OK;
    }
    uint64_t max_biased, max_man;
    fmt_max_finite(d, &max_biased, &max_man);
    int has_inf = d->specials == MMAREF_SPECIALS_IEEE, has_nan = d->specials != MMAREF_SPECIALS_NONE;
    *info = (mmaref_format_info){
        .name = d->name, .width = d->width, .exp_bits = d->exp_bits, .man_bits = d->man_bits,
        .bias = d->bias, .has_sign = d->has_sign, .specials = d->specials,
        .ignored = d->ignored, .max_finite = (max_biased << d->man_bits | max_man) & ~d->ignored,
        .has_inf = has_inf, .has_nan = has_nan,
        .inf = has_inf ? fmt_inf(d, 0) : 0, .nan = has_nan ? fmt_canonical_nan(d) : 0,
        .parts = 1, .part = f,
    };
    return MMAREF_OK;
}
