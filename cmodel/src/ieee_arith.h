/* IEEE 754 arithmetic on decoded values, each operation rounded once to nearest even (internal).
 *
 * The IEEE summation kinds (SFMA: algo_sfma.c, GPS: algo_gps.c) compute with these instead of the host's
 * float and double: exact integer products, an exact sum kept in 128 bits with a sticky bit, one rounding
 * (the project's encoder fmt_encode128, or its normal-range case below).  The results therefore do not
 * depend on the host's floating-point environment (rounding mode, x86 flush-to-zero / denormals-are-zero)
 * or on whether the CPU has an FMA instruction.  No float or double appears here.
 *
 * Semantics are IEEE 754's under round-to-nearest-even with subnormals kept: a NaN operand, inf - inf and
 * 0 * inf give NaN (always the output format's canonical NaN, the MFMA and DMMA convention), overflow
 * gives inf, underflow is gradual, an exact zero sum of nonzero terms is +0, and a sum of two zeros is -0
 * only when both are -0.  The output format is an IEEE one (MMAREF_SPECIALS_IEEE); operand significands
 * have at most 53 bits (f64 and narrower).
 *
 * Everything is inline: the IEEE passes call it with a constant format, which folds into the code. */
#ifndef MMAREF_IEEE_ARITH_H
#define MMAREF_IEEE_ARITH_H

#include <stdint.h>
#include "format.h"

#define IEEE_INLINE static inline __attribute__((always_inline))

/* An operand: (-1)^sign * sig * 2^lsb_exp when finite (cls zero, subnormal or normal), else inf or NaN. */
typedef struct {
    int sign;
    fp_class cls;
    uint64_t sig;   /* integer significand, < 2^53 */
    int lsb_exp;    /* weight of sig's last bit: the decoded exponent less the format's mantissa bits */
} ieee_value;

IEEE_INLINE ieee_value ieee_decode(const fmt_desc *f, uint64_t raw)
{
    fp_unpacked u = fmt_decode(f, raw);
    ieee_value v = {u.sign, u.cls, u.sig, u.exp - f->man_bits};
    return v;
}

/* +0 (GPS Step 1's flushed operand). */
static const ieee_value ieee_plus_zero = {0, CLS_ZERO, 0, 0};

/* ---- 128-bit integers as two 64-bit halves (as SoftFloat's uint128): GCC 12 keeps these in registers
 * where its unsigned __int128 code spills to the stack, and the selects below are masks, not branches
 * on the data.  Shift counts are 0 .. 127. */
typedef struct {
    uint64_t hi, lo;
} ieee_w128;

IEEE_INLINE ieee_w128 w128_mul64(uint64_t a, uint64_t b)
{
    u128 p = (u128)a * b;
    ieee_w128 r = {(uint64_t)(p >> 64), (uint64_t)p};
    return r;
}

IEEE_INLINE ieee_w128 w128_add(ieee_w128 a, ieee_w128 b)
{
    ieee_w128 r = {0, a.lo + b.lo};
    r.hi = a.hi + b.hi + (r.lo < a.lo);
    return r;
}

IEEE_INLINE ieee_w128 w128_sub(ieee_w128 a, ieee_w128 b)
{
    ieee_w128 r = {a.hi - b.hi - (a.lo < b.lo), a.lo - b.lo};
    return r;
}

/* a where mask is all ones, b where it is 0. */
IEEE_INLINE ieee_w128 w128_select(uint64_t mask, ieee_w128 a, ieee_w128 b)
{
    ieee_w128 r = {(a.hi & mask) | (b.hi & ~mask), (a.lo & mask) | (b.lo & ~mask)};
    return r;
}

/* -v (two's complement) when mask is all ones, v when it is 0. */
IEEE_INLINE ieee_w128 w128_negate_if(ieee_w128 v, uint64_t mask)
{
    ieee_w128 r = {(v.hi ^ mask) + (mask & (v.lo == 0)), (v.lo ^ mask) - mask};
    return r;
}

IEEE_INLINE int w128_is_zero(ieee_w128 v) { return (v.hi | v.lo) == 0; }

/* Position of the leading one of v (v != 0). */
IEEE_INLINE int w128_msb(ieee_w128 v) { return v.hi ? 127 - __builtin_clzll(v.hi) : 63 - __builtin_clzll(v.lo); }

IEEE_INLINE ieee_w128 w128_shift_left(ieee_w128 v, int s)
{
    int r = s & 63;
    uint64_t whole = 0 - (uint64_t)(s >> 6); /* all ones when s >= 64: the low half moves up */
    uint64_t hi = (v.hi << r) | ((v.lo >> 1) >> (63 - r)), lo = v.lo << r;
    ieee_w128 out = {(hi & ~whole) | (lo & whole), lo & ~whole};
    return out;
}

/* x << s for x < 2^64 (0 <= s < 128); the branch on s < 64 is a predictable one in a chain of FMAs,
 * where the accumulator's size relative to the products changes slowly. */
IEEE_INLINE ieee_w128 w128_of_shifted(uint64_t x, int s)
{
    ieee_w128 r = {0, 0};
    if (__builtin_expect(s < 64, 1))
        r.hi = (x >> 1) >> (63 - s), r.lo = x << s;
    else
        r.hi = x << (s - 64);
    return r;
}

/* v (v != 0) shifted so that its leading one is bit 127; *msb gets the leading one's position in v. */
IEEE_INLINE ieee_w128 w128_normalize(ieee_w128 v, int *msb)
{
    ieee_w128 r = {0, 0};
    if (__builtin_expect(v.hi != 0, 1)) {
        int s = __builtin_clzll(v.hi);
        r.hi = (v.hi << s) | ((v.lo >> 1) >> (63 - s)), r.lo = v.lo << s;
        *msb = 127 - s;
    } else {
        int s = __builtin_clzll(v.lo);
        r.hi = v.lo << s;
        *msb = 63 - s;
    }
    return r;
}

IEEE_INLINE ieee_w128 w128_shift_right(ieee_w128 v, int s)
{
    int r = s & 63;
    uint64_t whole = 0 - (uint64_t)(s >> 6); /* all ones when s >= 64: the high half moves down */
    uint64_t lo = (v.lo >> r) | ((v.hi << 1) << (63 - r)), hi = v.hi >> r;
    ieee_w128 out = {hi & ~whole, (lo & ~whole) | (hi & whole)};
    return out;
}

/* v >> s (s >= 0) with every bit shifted out ORed into bit 0 (a sticky bit). */
IEEE_INLINE ieee_w128 w128_shift_right_jam(ieee_w128 v, int s)
{
    s = s < 127 ? s : 127;
    ieee_w128 r = w128_shift_right(v, s), back = w128_shift_left(r, s);
    r.lo |= (back.hi != v.hi) | (back.lo != v.lo);
    return r;
}

/* ---- rounding and the exact sum ---- */

/* top (its leading one at bit 127) rounded to nearest even to man + 1 bits: 2^man .. 2^(man + 1), the
 * last after a carry.  The bits below the kept ones: the rest of top.hi and, as a sticky bit, top.lo. */
IEEE_INLINE uint64_t ieee_round_top(ieee_w128 top, int man)
{
    int drop = 63 - man;                               /* >= 10 */
    uint64_t kept = top.hi >> drop;
    uint64_t round = (top.hi >> (drop - 1)) & 1;       /* the first bit below the kept ones */
    uint64_t sticky = ((top.hi & ((1ULL << (drop - 1)) - 1)) | top.lo) != 0; /* any bit below it */
    return kept + (round & (sticky | kept));           /* ties (round, no sticky) to an even kept */
}

/* The bits of (-1)^sign * sig * 2^(e - man), 2^man <= sig <= 2^(man + 1), e within out's normal range:
 * the hidden bit of sig adds one to the exponent field, and sig = 2^(man + 1) (a rounding carry) one more
 * (at the largest exponent that gives the all-ones field with a zero mantissa: inf, as RNE overflows). */
IEEE_INLINE uint64_t ieee_pack(const fmt_desc *out, int sign, int e, uint64_t sig)
{
    return ((uint64_t)sign << (out->width - 1)) + ((uint64_t)(e - fmt_min_exp(out)) << out->man_bits) + sig;
}

IEEE_INLINE int ieee_max_exp(const fmt_desc *out) { return (1 << out->exp_bits) - 2 - out->bias; }

/* (-1)^sign * mag * 2^lsb_exp (mag > 0) rounded to nearest even in out.  A result in the normal range is
 * rounded here, with the format's constants folded in; subnormal results and overflow go to the
 * project's encoder fmt_encode128, which gives the same bits for every input (fmt_encode128 is the
 * definition; this is its normal-range case, made fast). */
IEEE_INLINE uint64_t ieee_round(const fmt_desc *out, int sign, ieee_w128 mag, int lsb_exp)
{
    int m;
    ieee_w128 top = w128_normalize(mag, &m);
    int e = m + lsb_exp; /* exponent of the leading one */
    if (__builtin_expect(e < fmt_min_exp(out) || e > ieee_max_exp(out), 0))
        return fmt_encode128(out, sign, mag.hi, mag.lo, lsb_exp, MMAREF_RNE, NULL);
    return ieee_pack(out, sign, e, ieee_round_top(top, out->man_bits));
}

/* |(-1)^sx x + (-1)^sy y| (x, y < 2^126) and its sign, without a branch: x + y, or |x - y| from x - y
 * and its borrow. */
IEEE_INLINE ieee_w128 ieee_signed_sum(int sx, ieee_w128 x, int sy, ieee_w128 y, int *sign)
{
    ieee_w128 sum = w128_add(x, y), x_minus_y = w128_sub(x, y);
    uint64_t differ = 0 - (uint64_t)(sx ^ sy);         /* all ones: a subtraction */
    uint64_t y_bigger = 0 - (x_minus_y.hi >> 63);      /* all ones: x - y < 0 (|x - y| < 2^126) */
    *sign = sx ^ (int)(differ & y_bigger & 1);
    return w128_select(differ, w128_negate_if(x_minus_y, y_bigger), sum);
}

/* (-1)^sx x + (-1)^sy y, both in units of 2^lsb_exp and below 2^126, rounded once to nearest even in out. */
IEEE_INLINE uint64_t ieee_add_aligned(const fmt_desc *out, int sx, ieee_w128 x, int sy, ieee_w128 y, int lsb_exp)
{
    int sign;
    ieee_w128 mag = ieee_signed_sum(sx, x, sy, y, &sign);
    if (w128_is_zero(mag)) /* an exact cancellation is +0 under round to nearest */
        return fmt_encode(out, 0, 0, 0, MMAREF_RNE, NULL);
    return ieee_round(out, sign, mag, lsb_exp);
}

/* The exact sum is formed in 128 bits with each addend's leading one first placed at bit SUM_TOP: bit 126
 * is left for the carry of an addition and bit 127 for the sign of a difference.  An addend is at most
 * 106 bits wide (a product of two 53-bit significands), so its lowest one is then at bit 19 or above. */
enum { SUM_TOP = 124 };

/* (-1)^sx x 2^ex + (-1)^sy y 2^ey (x, y < 2^106, zero allowed), rounded once to nearest even in out.
 *
 * Both addends are placed at SUM_TOP; the one whose last bit has the lower weight is shifted right to the
 * other's, what falls below bit 0 jammed into a sticky bit.  Bits fall out only when that shift is 20 or
 * more (an addend's lowest one is at bit 19 or above); the shifted addend is then below 2^105 and the
 * other at least 2^124, so the sum exceeds 2^123, its round bit is at 2^70 or above, and the sticky bit
 * changes neither the kept bits nor which side of the halfway point the sum lies (the classic guard/
 * round/sticky argument).  Otherwise the sum is exact. */
IEEE_INLINE uint64_t ieee_round_sum(const fmt_desc *out, int sx, ieee_w128 x, int ex, int sy, ieee_w128 y, int ey)
{
    if (w128_is_zero(x) || w128_is_zero(y)) {
        if (w128_is_zero(x) && w128_is_zero(y)) /* IEEE: +0 + -0 = +0 under round to nearest; -0 + -0 = -0 */
            return fmt_encode(out, sx & sy, 0, 0, MMAREF_RNE, NULL);
        return w128_is_zero(y) ? ieee_round(out, sx, x, ex) : ieee_round(out, sy, y, ey);
    }
    int up_x = SUM_TOP - w128_msb(x), up_y = SUM_TOP - w128_msb(y);
    x = w128_shift_left(x, up_x), ex -= up_x;
    y = w128_shift_left(y, up_y), ey -= up_y;
    int lsb_exp = ex > ey ? ex : ey;
    x = w128_shift_right_jam(x, lsb_exp - ex);         /* one of the two shifts is 0 */
    y = w128_shift_right_jam(y, lsb_exp - ey);
    return ieee_add_aligned(out, sx, x, sy, y, lsb_exp);
}

/* a * b + c, rounded once. */
IEEE_INLINE uint64_t ieee_fma(const fmt_desc *out, ieee_value a, ieee_value b, ieee_value c)
{
    int product_sign = a.sign ^ b.sign;
    if (__builtin_expect(a.cls >= CLS_INF || b.cls >= CLS_INF || c.cls >= CLS_INF, 0)) {
        if (a.cls == CLS_NAN || b.cls == CLS_NAN || c.cls == CLS_NAN)
            return fmt_canonical_nan(out);
        if (a.cls == CLS_INF || b.cls == CLS_INF) {
            if (a.cls == CLS_ZERO || b.cls == CLS_ZERO)
                return fmt_canonical_nan(out);         /* 0 * inf */
            if (c.cls == CLS_INF && c.sign != product_sign)
                return fmt_canonical_nan(out);         /* inf - inf */
            return fmt_inf(out, product_sign);
        }
        return fmt_inf(out, c.sign);
    }
    /* Finite: the exact product (a zero operand has sig 0) plus c. */
    ieee_w128 cw = {0, c.sig};
    return ieee_round_sum(out, product_sign, w128_mul64(a.sig, b.sig), a.lsb_exp + b.lsb_exp, c.sign, cw, c.lsb_exp);
}

/* a * b rounded once is a * b + z for a zero z of the product's sign: z leaves a nonzero product
 * unchanged, and a zero product keeps its sign (-0 + -0 = -0, +0 + +0 = +0). */
IEEE_INLINE uint64_t ieee_mul(const fmt_desc *out, ieee_value a, ieee_value b)
{
    ieee_value zero = ieee_plus_zero;
    zero.sign = a.sign ^ b.sign;
    return ieee_fma(out, a, b, zero);
}

/* a + b is a * 1 + b: the product a * 1 is a itself (inf and NaN included, zero with a's sign). */
IEEE_INLINE uint64_t ieee_add(const fmt_desc *out, ieee_value a, ieee_value b)
{
    const ieee_value one = {0, CLS_NORMAL, 1, 0};
    return ieee_fma(out, a, one, b);
}

/* ---- SFMA's shortcut: a chain of FMAs on normal numbers ---- */

/* A normal number of an IEEE format, unpacked: (-1)^sign * sig * 2^(exp - man), 2^man <= sig <= 2^(man + 1)
 * (the last after a rounding carry).  SFMA keeps its accumulator so between FMAs. */
typedef struct {
    int sign;
    int exp;        /* exponent of the hidden bit */
    uint64_t sig;   /* significand, hidden bit included */
} ieee_normal;

/* raw as an ieee_normal; 0 if it is not a normal number (biased exponent 0 or all ones).  fmt_decode's
 * normal case, read without classifying the others (the shortcut needs no more, and runs faster). */
IEEE_INLINE int ieee_normal_of(const fmt_desc *f, uint64_t raw, ieee_normal *v)
{
    const uint64_t exp_field = (1ULL << f->exp_bits) - 1, hidden = 1ULL << f->man_bits;
    uint64_t e = (raw >> f->man_bits) & exp_field;
    v->sign = (int)(raw >> (f->width - 1)) & 1;
    v->exp = (int)e - f->bias;
    v->sig = (raw & (hidden - 1)) | hidden;
    return e - 1 < exp_field - 1;
}

IEEE_INLINE uint64_t ieee_normal_bits(const fmt_desc *f, ieee_normal v) { return ieee_pack(f, v.sign, v.exp, v.sig); }

/* *d = a * b + *d rounded once, for raw a and b of format f, when that takes the shortcut; else returns 0
 * and leaves *d alone.  The shortcut: a and b normal, *d's last bit 0 .. 124 - man places above the
 * product's (for f64: *d's leading one from 53 binades below the product's to 20 above), and a normal
 * result below the largest binade (so that a rounding carry stays finite and normal).  The product
 * (< 2^(2 man + 2) <= 2^106) and *d shifted to the product's last bit (< 2^126) then add exactly, with no
 * sticky bit, and the sum is rounded without a branch on the data (in a chain of FMAs the signs and
 * magnitudes are random). */
IEEE_INLINE int ieee_fma_normal(const fmt_desc *f, uint64_t a, uint64_t b, ieee_normal *d)
{
    ieee_normal va, vb;
    int normal = ieee_normal_of(f, a, &va) & ieee_normal_of(f, b, &vb);
    const int man = f->man_bits;
    int p_lsb = va.exp + vb.exp - 2 * man, sh = d->exp - man - p_lsb; /* last-bit weights, relative */
    if (__builtin_expect(!(normal & ((unsigned)sh <= (unsigned)(124 - man))), 0))
        return 0;
    int sign, m;
    ieee_w128 mag = ieee_signed_sum(va.sign ^ vb.sign, w128_mul64(va.sig, vb.sig), d->sign,
                                    w128_of_shifted(d->sig, sh), &sign);
    if (__builtin_expect(w128_is_zero(mag), 0))
        return 0;
    ieee_w128 top = w128_normalize(mag, &m);
    int e = m + p_lsb;
    if (__builtin_expect(e < fmt_min_exp(f) || e >= ieee_max_exp(f), 0))
        return 0;
    d->sign = sign, d->exp = e, d->sig = ieee_round_top(top, man);
    return 1;
}

#endif
