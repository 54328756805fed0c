/* The GDFS lanes of the batched fast path: the MMA-Sim paper's group dot, fused sum (IV-E; algo_gdfs.c
 * is the scalar model) of Blackwell's MXFP4 and NVFP4 instructions, for LANES dot-adds at once. */
#ifndef MMAREF_FAST_GDFS_H
#define MMAREF_FAST_GDFS_H

#include "fast.h"
#include "lanes.h"

/* The LANES dot-adds from j: D into *res, the lanes left to the scalar model (an inf or NaN C, a NaN
 * scale; a subnormal C widened into the output's format) as all-ones lanes.  G: products per group;
 * block: products per scale factor (a multiple of G); F: Step 5's fractional bits; one pass. */
LANE_INLINE vi gdfs_lanes(const fmt_desc *fa, const fmt_desc *fb, const fmt_desc *fc, const fmt_desc *fs,
                          const int block, const int G, const int K, const int F, const mmaref_output out,
                          const mmaref_dots *x, size_t j, vu *res, vu *stray)
{
    const fmt_desc *fd = fmt_of(out_table[out].format);
    vi special = v_splat(0), flags_a = v_splat(0), flags_b = v_splat(0), flags_s = v_splat(0);
    vu c = (vu)v_splat(0);
    if (x->c.p) {
        c = v_load(x->c.p + (ptrdiff_t)j * x->c.lane, x->c.lane);
        *stray |= c & lane_stray_mask(fc);
    }
    lane_value uc = lane_decode(fc, c);
    special |= lane_special(fc, uc.special_flag);
    if (fc != fd)
        special |= v_nonzero(uc.sig) & ~v_nonzero(uc.sig >> fc->man_bits);

    /* Steps 2-3: each group's exact sum sigma_g, in units of the smallest product 2^(e_min,a + e_min,b
     * - man_a - man_b): s_a * s_b shifted by how far e_a + e_b lies above e_min,a + e_min,b (a zero's
     * exponent, ZERO_OPERAND_EXP here, clamped: its product is 0 at any shift) */
    const int groups = K / G, e_min = fmt_min_exp(fa) + fmt_min_exp(fb);
    vi sigma[MMAREF_MAX_K];
    for (int g = 0; g < groups; g++) {
        lane_product_t pr[MMAREF_MAX_K];
        lane_products(fa, fb, x, j, g * G, G, 0, 0, pr, &flags_a, &flags_b, stray);
        sigma[g] = v_splat(0);
        for (int i = 0; i < G; i++) {
            vi p = (vi)((vu)pr[i].sig << (vu)v_max_small(pr[i].exp - e_min, v_splat(0)));
            sigma[g] += v_negate_where(pr[i].neg, p);
        }
    }
    /* FP4 has no inf or NaN: the operands' flags are always clear (kept for a format that has them) */
    special |= lane_special(fa, flags_a) | lane_special(fb, flags_b);

    /* Step 4: gamma_g = sigma_g * s_sa * s_sb at exponent e_sa + e_sb (its block's two scales);
     * e_max over C and the gammas */
    const int gamma_frac = fa->man_bits + fb->man_bits - e_min + 2 * fs->man_bits;
    vi gamma_sig[MMAREF_MAX_K], gamma_exp[MMAREF_MAX_K], gamma_sign[MMAREF_MAX_K];
    vi e_max = uc.exp;
    for (int g = 0; g < groups; g++) {
        const int s = g * G / block;
        vu ra = v_load(x->sa.p + (ptrdiff_t)j * x->sa.lane + s * x->sa.step, x->sa.lane);
        vu rb = v_load(x->sb.p + (ptrdiff_t)j * x->sb.lane + s * x->sb.step, x->sb.lane);
        *stray |= (ra | rb) & lane_stray_mask(fs);
        lane_value ua = lane_decode(fs, ra), ub = lane_decode(fs, rb);
        flags_s |= ua.special_flag | ub.special_flag;
        gamma_sign[g] = v_neg(sigma[g]);
        vi mag = (sigma[g] ^ gamma_sign[g]) - gamma_sign[g];
        gamma_sig[g] = v_mul32(v_mul32(mag, ua.sig), ub.sig); /* |sigma| < 2^32, a scale's sig < 2^8 */
        gamma_exp[g] = ua.exp + ub.exp;
        e_max = v_max_small(e_max, gamma_exp[g]);
    }
    special |= lane_special(fs, flags_s);

    /* Steps 5-6: C and the gammas aligned to e_max keeping F fractional bits (truncated), summed */
    vi sum = lane_align_rz(uc.sign << 63, uc.sig, fc->man_bits, uc.exp, e_max, F);
    for (int g = 0; g < groups; g++)
        sum += lane_align_rz(gamma_sign[g], gamma_sig[g], gamma_frac, gamma_exp[g], e_max, F);

    /* Step 7: normalize to the output */
    *res = lane_to_output(sum, e_max - F, out);
    return special;
}

#endif
