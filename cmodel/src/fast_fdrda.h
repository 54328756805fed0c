/* The FDRDA lanes of the batched fast path: AMD CDNA3's fused dot, round-down add (the MMA-Sim paper,
 * IV-F to IV-I; algo_fdrda.c is the scalar model) for LANES dot-adds at once, every pass of a CoFDRDA
 * schedule in turn; with `grouped`, GFDRDA (FP8: the even and odd products summed apart). */
#ifndef MMAREF_FAST_FDRDA_H
#define MMAREF_FAST_FDRDA_H

#include "fast.h"
#include "lanes.h"

/* A signed fixed-point value s moved onto another grid: shift > 0 drops that many low bits, rounding
 * down (RD: an arithmetic shift, the floor of the two's complement) or toward zero (RZ); shift <= 0
 * appends zeros.  (algo_fdrda.c's align_signed, fixed.h's fixed_align_rd/_rz.) */
LANE_INLINE vi lane_shift_signed(vi s, vi shift, const mmaref_rounding r)
{
    vi left = v_lt(shift, v_splat(1));
    vi up = (vi)((vu)s << (vu)v_min_small(v_max_small(-shift, v_splat(0)), v_splat(63)));
    vi drop = v_max_small(v_min_small(shift, v_splat(63)), v_splat(0));
    vi down;
    if (r == MMAREF_RD) {
        down = s >> drop; /* arithmetic: toward -inf */
    } else {
        vi neg = v_neg(s);
        vu mag = (vu)((s ^ neg) - neg);
        down = ((vi)(mag >> (vu)drop) ^ neg) - neg;
    }
    return v_sel(left, up, down);
}

/* Steps 4-5 over the products i = first, first + step, ... < kp: aligned to their largest exponent
 * (into *e) keeping F fractional bits, truncated, summed. */
LANE_INLINE vi fused_dot_lanes(const lane_product_t *pr, const int kp, const int first, const int step,
                               const int prod_frac, const int F, vi *e)
{
    vi e_max = pr[first].exp, sum = v_splat(0);
    for (int i = first + step; i < kp; i += step)
        e_max = v_max_small(e_max, pr[i].exp);
    for (int i = first; i < kp; i += step)
        sum += lane_align_rz(pr[i].neg, pr[i].sig, prod_frac, pr[i].exp, e_max, F);
    *e = e_max;
    return sum;
}

/* The LANES dot-adds from j: D into *res, the lanes left to the scalar model (an inf or NaN among C,
 * the operands or a pass's result; a product that may reach 2^128, Step 2's overflow) as all-ones
 * lanes.  F: Step 4's fractional bits (24); round_p, round_c: Step 6's roundings of the dot and of C;
 * grouped: GFDRDA (every pass has both even and odd products: fast_key_of). */
LANE_INLINE vi fdrda_lanes(const fmt_desc *fa, const fmt_desc *fb, const fmt_desc *fc, const int K, const int passes,
                           const int *F, const mmaref_output *out, const mmaref_rounding round_p,
                           const mmaref_rounding round_c, const int grouped, const mmaref_dots *x, size_t j,
                           vu *res, vu *stray)
{
    vi special = v_splat(0), flags_a = v_splat(0), flags_b = v_splat(0), big = v_splat(0);
    vu c = (vu)v_splat(0);
    if (x->c.p) {
        c = v_load(x->c.p + (ptrdiff_t)j * x->c.lane, x->c.lane);
        *stray |= c & lane_stray_mask(fc);
    }
    const fmt_desc *c_fmt = fc;
    const int kp = K / passes, prod_frac = fa->man_bits + fb->man_bits;
#pragma GCC unroll 8
    for (int pass = 0; pass < passes; pass++) {
        lane_value uc = lane_decode(c_fmt, c);
        special |= lane_special(c_fmt, uc.special_flag);

        /* Steps 2-3: exact products */
        lane_product_t pr[MMAREF_MAX_K];
        const int shift = F[pass] > prod_frac ? F[pass] - prod_frac : 0; /* Step 4's move to F bits */
        lane_products(fa, fb, x, j, pass * kp, kp, 0, shift, pr, &flags_a, &flags_b, stray);

        /* Steps 4-5: the products aligned to e_dot, their largest exponent (C does not take part),
         * keeping F fractional bits (truncated), summed.  GFDRDA: the even and the odd products so,
         * apart; then (its Steps 6-7) both aligned to e_dot = max(e_even, e_odd), rounded by round_p. */
        vi s_dot, e_dot;
        if (!grouped) {
            s_dot = fused_dot_lanes(pr, kp, 0, 1, prod_frac + shift, F[pass], &e_dot);
        } else {
            vi e_even, e_odd;
            vi s_even = fused_dot_lanes(pr, kp, 0, 2, prod_frac + shift, F[pass], &e_even);
            vi s_odd = fused_dot_lanes(pr, kp, 1, 2, prod_frac + shift, F[pass], &e_odd);
            e_dot = v_max_small(e_even, e_odd);
            s_dot = lane_shift_signed(s_even, e_dot - e_even, round_p) +
                    lane_shift_signed(s_odd, e_dot - e_odd, round_p);
        }
        /* a product below 4 * 2^e_k: only e_k >= 126 can reach 2^128 (left to the scalar model) */
        big |= ~v_lt(e_dot, v_splat(AMD_PRODUCT_OVERFLOW_EXP - 2));
        special |= lane_special(fa, flags_a) | lane_special(fb, flags_b) | big;

        /* Step 6: s_dot and C onto e_max = max(e_dot, e_c): the dot at 31 fractional bits, C at 24 */
        vi e_max = v_max_small(e_dot, uc.exp);
        vi dot = lane_shift_signed(s_dot, F[pass] - FDRDA_DOT_F + (e_max - e_dot), round_p);
        vi neg_c = -uc.sign;
        vi c_signed = (uc.sig ^ neg_c) - neg_c;
        vi c_shift = c_fmt->man_bits - FDRDA_C_F + (e_max - uc.exp);
        vi c_al = lane_shift_signed(c_signed, c_shift, round_c);
        if (grouped) /* GFDRDA's patch: C below e_max - 25 rounds toward zero */
            c_al = v_sel(v_lt(uc.exp, e_max - GFDRDA_C_WINDOW), lane_shift_signed(c_signed, c_shift, MMAREF_RZ),
                         c_al);

        /* Steps 7-8: the exact sum in units of 2^(e_max - 31), rounded to the pass's output */
        vi sum = dot + (vi)((vu)c_al << (FDRDA_DOT_F - FDRDA_C_F));
        c = lane_to_output(sum, e_max - FDRDA_DOT_F, out[pass]);
        c_fmt = fmt_of(out_table[out[pass]].format);
    }
    *res = c;
    return special;
}

#endif
