/* The FDA lanes of the batched fast path: the MMA-Sim paper's FDA (section IV-C; algo_fda.c is the
 * scalar model) for LANES dot-adds at once, one per vector lane, every pass of a CoFDA-style schedule
 * in turn (fast_kernel.h runs them). */
#ifndef MMAREF_FAST_FDA_H
#define MMAREF_FAST_FDA_H

#include "fast.h"
#include "lanes.h"

/* The LANES dot-adds from j: D into *res, the lanes the fast path leaves to the scalar model (an
 * inf or NaN among C, the operands, the scales or a pass's result; a subnormal C widened into the
 * output's format) as a mask of all-ones lanes.  Stray bits (above a format's width) into *stray. */
LANE_INLINE vi fda_lanes(const fmt_desc *fa, const fmt_desc *fb, const fmt_desc *fc, const fmt_desc *fs,
                         const int block, const int zero_exp, const int K, const int passes, const int *F,
                         const mmaref_output *out,
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

        /* Steps 1-2: exact products s_a * s_b, e_a + e_b (+ e_sa + e_sb); e_max over C and the products
         * (with zero_exp, a zero term takes that exponent: algo.h, c_term_exp and product_term_exp) */
        vi c_exp = zero_exp ? v_sel(v_zero(uc.sig), v_splat(zero_exp), uc.exp) : uc.exp;
        lane_product_t pr[MMAREF_MAX_K];
        const int shift = F[pass] > prod_frac ? F[pass] - prod_frac : 0; /* Step 3's move to F bits */
        lane_products(fa, fb, x, j, pass * kp, kp, fs ? 0 : zero_exp, shift, pr, &flags_a, &flags_b, stray);
        vi e_max = c_exp;
        for (int i = 0; i < kp; i++) {
            if (fs) {
                pr[i].exp += scale_exp[(pass * kp + i) / block];
                if (zero_exp)
                    pr[i].exp = v_sel(v_zero(pr[i].sig), v_splat(zero_exp), pr[i].exp);
            }
            e_max = v_max_small(e_max, pr[i].exp);
        }

        special |= lane_special(fa, flags_a) | lane_special(fb, flags_b);

        /* Steps 3-4: every term aligned to e_max keeping F fractional bits (truncated), summed exactly */
        vi sum = lane_align_rz(uc.sign << 63, uc.sig, c_fmt->man_bits, c_exp, e_max, F[pass]);
        for (int i = 0; i < kp; i++)
            sum += lane_align_rz(pr[i].neg, pr[i].sig, prod_frac + shift, pr[i].exp, e_max, F[pass]);

        /* Step 5: normalize to the pass's output; the next pass takes it as C */
        c = lane_to_output(sum, e_max - F[pass], out[pass]);
        c_fmt = fd;
    }
    *res = c;
    return special;
}

#endif
