/* The rule kind (MMAREF_GEN_RULE): vectors that catch the rules of the inventory (rules.c).  Rule vector i
 * aims at the instruction's i-th rule (mod how many it has): up to RULE_TRIES candidates, each a random
 * vector of the usual kinds reshaped where the rule needs a rare input (a zero beside a large factor, a
 * subnormal C, an infinity of each sign ...), and the first on which a unit breaking the rule gives
 * another D is kept -- the test is the rule's planted bug itself (rule_broken_d), so a kept vector
 * catches it by construction, and one that never does is counted honestly by the coverage model. */
#include <string.h>

#include "fixed.h"
#include "format.h"
#include "gen_internal.h"
#include "rules.h"
#include "schedule.h"

enum { RULE_TRIES = 24 };

/* A value of f whose exponent field lies in lo .. hi (clamped to the finite range), random sign and bits. */
static uint64_t exp_between(uint64_t *r, const gen_fmt *f, long lo, long hi, int sign)
{
    long e = lo + gen_below(r, (int)(hi - lo + 1));
    uint64_t x = gen_fin_raw(f, sign < 0 ? gen_below(r, 2) : sign, e, gen_next(r));
    return x;
}
static uint64_t big(uint64_t *r, const gen_fmt *f) { return exp_between(r, f, f->exp_top - 3, f->exp_top, -1); }
static uint64_t subnormal(uint64_t *r, const gen_fmt *f)
{
    uint64_t x = gen_fin_raw(f, gen_below(r, 2), 0, gen_next(r));
    return (x & ~f->sign_bit) ? x : x | f->ulp; /* not zero */
}
static uint64_t zero(uint64_t *r, const gen_fmt *f)
{
    return f->i.specials == MMAREF_SPECIALS_FNUZ || !gen_below(r, 2) ? 0 : f->sign_bit;
}
/* a C in C's bottom binades: subnormal or just above */
static uint64_t tiny_c(uint64_t *r, const gen_fmt *f) { return exp_between(r, f, 0, 2, -1); }
static int has_inf(const gen_fmt *f) { return f->i.specials == MMAREF_SPECIALS_IEEE; }
static uint64_t inf(const gen_fmt *f, int sign) { return (f->exp_all << f->i.man_bits) | (sign ? f->sign_bit : 0); }

/* The window's edge, made visible: the first pass's products 0 and 1 cancel exactly at the top of the
 * range (they set e_max and leave nothing), its product 2 -- or, in half of them, C -- lies F - j binades
 * below them (j = 0 .. 11: its top j bits inside the window), every other lane a zero product, so that
 * D is that term as the window cuts it, whatever D's precision. */
static void straddle(const gen_ctx *g, uint64_t *rs, gen_vec *v)
{
    const gen_fmt *fa = &g->fa, *fb = &g->fb;
    const mmaref_pass *p = &g->in->pass[0];
    if (p->k_count < 3)
        return;
    int l0 = mmaref_pass_k(p, 0), l1 = mmaref_pass_k(p, 1), l2 = mmaref_pass_k(p, 2);
    for (int i = 0; i < g->k; i++)
        v->a[i] = zero(rs, fa), v->b[i] = gen_clustered(rs, fb, fb->i.bias, 4);
    long ea = fa->exp_top - gen_below(rs, 3), eb = fb->exp_top - gen_below(rs, 3);
    v->a[l0] = gen_fin_raw(fa, gen_below(rs, 2), ea, gen_next(rs));
    v->b[l0] = gen_fin_raw(fb, gen_below(rs, 2), eb, gen_next(rs));
    v->a[l1] = v->a[l0] ^ fa->sign_bit;
    v->b[l1] = v->b[l0];
    int drop = g->F - gen_below(rs, 12), da = gen_below(rs, drop + 1);
    v->c = 0;
    if (gen_below(rs, 2) || g->in->c_last) {
        v->a[l2] = gen_fin_raw(fa, gen_below(rs, 2), ea - da, gen_next(rs));
        v->b[l2] = gen_fin_raw(fb, gen_below(rs, 2), eb - (drop - da), gen_next(rs));
    } else { /* C in its place: the small formats' products span fewer than F binades */
        const gen_fmt *fc = &g->fc;
        long e = (ea - fa->i.bias) + (eb - fb->i.bias) - drop;
        v->c = gen_fin_raw(fc, gen_below(rs, 2), e + fc->i.bias, gen_next(rs));
    }
}

/* FDRDA's dot rounded down, not toward zero, made visible: one negative product -m 2^-frac (both factors
 * in [1, 2), e_dot = 0) and every other product zero, C positive s = 12 .. 23 binades above it.  Aligned
 * to e_max = s at 31 fractional bits (unit u = 2^(s - 31)) the product is -ceil(m / 2^q) u rounded down,
 * one u more than toward zero (q = frac + s - 31, m with bits below 2^q).  With ceil(m / 2^q) = 129 mod
 * 256 the sum lies 127 u above a grid point of f32 at C's binade (256 u apart) -- rounded down it stays
 * below the midpoint, toward zero it is the midpoint -- and C's last bit makes that grid point odd, so
 * that the midpoint rounds up: D differs by one ulp.  Returns 0 when no m was found. */
static int fdrda_midpoint(const gen_ctx *g, uint64_t *rs, gen_vec *v)
{
    const gen_fmt *fa = &g->fa, *fb = &g->fb, *fc = &g->fc;
    const int man_a = fa->i.man_bits, man_b = fb->i.man_bits, frac = man_a + man_b;
    const int s = 12 + gen_below(rs, 12), q = frac + s - 31;
    if (q < 1 || q > 56 || g->complex || fc->i.man_bits != 23)
        return 0;
    for (int t = 0; t < 4096; t++) {
        uint64_t xa = gen_next(rs) & fa->man_all, xb = gen_next(rs) & fb->man_all;
        uint64_t m = ((1ULL << man_a) | xa) * ((1ULL << man_b) | xb);
        if (!(m & ((1ULL << q) - 1)) || (frac > 24 && (m & ((1ULL << (frac - 24)) - 1))))
            continue; /* nothing below u, or bits Step 4's 24 do not keep */
        uint64_t up = (m >> q) + 1;
        if ((up & 255) != 129)
            continue;
        for (int i = 0; i < g->k; i++)
            v->a[i] = zero(rs, fa), v->b[i] = gen_clustered(rs, fb, fb->i.bias, 4);
        int l = mmaref_pass_k(&g->in->pass[0], 0);
        v->a[l] = gen_fin_raw(fa, 1, fa->i.bias, xa);
        v->b[l] = gen_fin_raw(fb, 0, fb->i.bias, xb);
        uint64_t sig = (1ULL << 23) | (1ULL << 22) | (gen_next(rs) & ((1ULL << 22) - 1)); /* C's 24 bits */
        uint64_t below = sig - (up + 127) / 256;
        if (!(below & 1))
            sig ^= 1;
        v->c = gen_fin_raw(fc, 0, fc->i.bias + s, sig);
        return 1;
    }
    return 0;
}

/* +-2^e in f (a normal, or a subnormal below them), or 0 when f cannot hold it. */
static uint64_t pow2(const gen_fmt *f, long e, int sign)
{
    long biased = e + f->i.bias, sub = biased - 1 + f->i.man_bits; /* a subnormal's bit position */
    uint64_t s = sign ? f->sign_bit : 0;
    if (biased >= 1 && biased <= f->exp_top)
        return s | (uint64_t)biased << f->i.man_bits;
    if (biased < 1 && sub >= 0 && (1ULL << sub) >= f->ulp) /* TF32: a bit that counts */
        return s | 1ULL << sub;
    return 0;
}

/* A product of exactly +-2^e in lane l (a zero from both factors' range: 0). */
static int product_pow2(const gen_ctx *g, uint64_t *rs, gen_vec *v, int l, long e, int sign)
{
    const gen_fmt *fa = &g->fa, *fb = &g->fb;
    for (int t = 0; t < 8; t++) {
        long ea = (long)gen_below(rs, (int)(fa->exp_top + fa->i.man_bits)) - fa->i.bias - fa->i.man_bits + 1;
        uint64_t x = pow2(fa, ea, sign), y = pow2(fb, e - ea, 0);
        if (x && y) {
            v->a[l] = x, v->b[l] = y;
            return 1;
        }
    }
    return 0;
}

/* Round to nearest even's tie and sticky bit, made visible: C with D's precision at binade E, and in the
 * first pass one product of exactly half D's last place at E (a tie: C + half lies halfway between two
 * values of D) -- with output-sticky a second one below it, of the same sign (just above halfway) -- every
 * other product zero and every scale one.  C's last place is even where a tie to even and one away from
 * zero part (the half of C's sign: even; of the other sign: odd); just above halfway, even.  Returns 0
 * when the formats hold no such C and products. */
static int midpoint(const gen_ctx *g, mmaref_rule_id r, uint64_t *rs, gen_vec *v)
{
    const gen_fmt *fa = &g->fa, *fb = &g->fb, *fc = &g->fc;
    const mmaref_pass *p0 = &g->in->pass[0];
    const int d_man = out_table[g->in->pass[g->in->passes - 1].out].man_bits, shift = fc->i.man_bits - d_man;
    if (shift < 0 || p0->k_count < 2)
        return 0;
    /* the half's exponent: a product both factors can make, under a normal C */
    long lo = (1 - fa->i.bias - fa->i.man_bits) + (1 - fb->i.bias - fb->i.man_bits) + 2;
    long hi = (fa->exp_top - fa->i.bias) + (fb->exp_top - fb->i.bias);
    long c_lo = 1 - fc->i.bias - d_man - 1, c_hi = fc->exp_top - fc->i.bias - d_man - 1;
    if (lo < c_lo) lo = c_lo;
    if (hi > c_hi) hi = c_hi;
    if (lo > hi)
        return 0;
    long e = lo + (long)gen_below(rs, (int)(hi - lo + 1 > 4096 ? 4096 : hi - lo + 1));
    int c_sign = gen_below(rs, 2), same = r == RULE_OUTPUT_STICKY || gen_below(rs, 2);
    for (int i = 0; i < g->k; i++)
        v->a[i] = zero(rs, fa), v->b[i] = gen_clustered(rs, fb, fb->i.bias, 4);
    for (int j = 0; j < g->ns; j++)
        v->sa[j] = v->sb[j] = g->scale_one;
    int l0 = mmaref_pass_k(p0, 0), l1 = mmaref_pass_k(p0, 1);
    int p_sign = same ? c_sign : !c_sign;
    if (!product_pow2(g, rs, v, l0, e, p_sign))
        return 0;
    if (r == RULE_OUTPUT_STICKY && !product_pow2(g, rs, v, l1, e - 1 - (long)gen_below(rs, 3), p_sign))
        return 0;
    uint64_t last = 1ULL << shift, man = gen_next(rs) & fc->man_all & ~(last - 1);
    man = same ? man & ~last : man | last;
    v->c = gen_fin_raw(fc, c_sign, e + d_man + 1 + fc->i.bias, man);
    return 1;
}

/* Reshape candidate v for rule r (random draws from rs); the rules whose catching vectors random kinds
 * hit often enough are left as drawn. */
static void shape(const gen_ctx *g, mmaref_rule_id r, uint64_t *rs, gen_vec *v)
{
    const gen_fmt *fa = &g->fa, *fb = &g->fb, *fc = &g->fc;
    const int k = g->k;
    switch (r) {
    case RULE_ZERO_OPERAND_EXP:
    case RULE_ZERO_TERM_EXP:
        /* zero products with a large other factor beside a tiny C: their exponent alone sets e_max; in
         * half the candidates every lane, in the others three in four (the rest keep their products) */
        for (int i = 0, all = gen_below(rs, 2); i < k; i++) {
            int zero_in_a = gen_below(rs, 2), lane_kind = gen_below(rs, 4);
            if (!all && lane_kind == 0)
                continue;
            v->a[i] = zero_in_a ? zero(rs, fa) : big(rs, fa);
            v->b[i] = zero_in_a ? big(rs, fb) : zero(rs, fb);
        }
        if (gen_below(rs, 4))
            v->c = tiny_c(rs, fc);
        if (gen_below(rs, 4) == 0) { /* or one product of two subnormals: its last bit at the window's edge */
            int i = gen_below(rs, k);
            v->a[i] = subnormal(rs, fa) | fa->ulp;
            v->b[i] = subnormal(rs, fb) | fb->ulp;
            v->c = 0;
        }
        break;
    case RULE_SUBNORMAL_OPERAND:
    case RULE_F16_OPERANDS:
        /* subnormal factors beside a large one, C small: the subnormal products make D */
        for (int i = 0; i < k; i++) {
            if (gen_below(rs, 2))
                continue;
            int in_a = gen_below(rs, 2);
            if (in_a) v->a[i] = subnormal(rs, fa), v->b[i] = exp_between(rs, fb, fb->i.bias - 2, fb->exp_top, -1);
            else v->b[i] = subnormal(rs, fb), v->a[i] = exp_between(rs, fa, fa->i.bias - 2, fa->exp_top, -1);
        }
        if (gen_below(rs, 2))
            v->c = zero(rs, fc);
        break;
    case RULE_SUBNORMAL_C:
    case RULE_SUBNORMAL_RESULT:
        /* a subnormal C and zero products (zero factors that set no e_max above C's), in half of them
         * one tiny product: D is C, or near it */
        v->c = subnormal(rs, fc);
        for (int j = 0; j < g->ns; j++) /* the smallest scales: zero groups' exponents below C's (GDFS) */
            v->sa[j] = v->sb[j] = g->fs.i.specials == MMAREF_SPECIALS_E8M0 ? 0 : g->scale_one;
        for (int i = 0; i < k; i++)
            v->a[i] = zero(rs, fa), v->b[i] = zero(rs, fb);
        if (gen_below(rs, 2)) {
            int i = gen_below(rs, k);
            v->a[i] = exp_between(rs, fa, 0, 2, -1);
            v->b[i] = exp_between(rs, fb, 0, 2, -1);
        }
        break;
    case RULE_NAN_CANONICAL:
        /* a NaN C with a payload of its own */
        v->c = (fc->exp_all << fc->i.man_bits) | (gen_next(rs) & fc->man_all) | (gen_below(rs, 2) ? fc->sign_bit : 0);
        if (!(v->c & fc->man_all & ~fc->sign_bit))
            v->c |= fc->ulp;
        break;
    case RULE_INF_MINUS_INF:
    case RULE_ZERO_TIMES_INF: {
        int i = gen_below(rs, k), j = (i + 1 + gen_below(rs, k - 1 > 0 ? k - 1 : 1)) % k;
        const gen_fmt *f = has_inf(fa) ? fa : fb;
        int in_a = f == fa;
        uint64_t *x = in_a ? v->a : v->b, *y = in_a ? v->b : v->a;
        const gen_fmt *fy = in_a ? fb : fa;
        x[i] = inf(f, gen_below(rs, 2));
        if (r == RULE_ZERO_TIMES_INF) {
            y[i] = zero(rs, fy);
        } else { /* +inf x (positive) and -inf x (positive) */
            y[i] = gen_clustered(rs, fy, fy->i.bias, 2) & ~fy->sign_bit;
            y[j] = gen_clustered(rs, fy, fy->i.bias, 2) & ~fy->sign_bit;
            x[i] = inf(f, 0);
            if (k > 1)
                x[j] = inf(f, 1);
            else if (has_inf(fc)) /* one product: C the other infinity */
                v->c = inf(fc, 1);
        }
        break;
    }
    case RULE_OVERFLOW:
        /* every product and C large and of one sign */
        for (int i = 0; i < k; i++) {
            v->a[i] = big(rs, fa) & ~fa->sign_bit;
            v->b[i] = big(rs, fb) & ~fb->sign_bit;
        }
        /* C within a few ulps of the largest finite (the products of the small formats are too small
         * to pass it otherwise) */
        v->c = gen_below(rs, 2) ? big(rs, fc) & ~fc->sign_bit
                                : gen_fin_raw(fc, 0, fc->exp_top, fc->man_all & ~(gen_next(rs) & fc->ulp * 15));
        if (gen_below(rs, 2)) {
            for (int i = 0; i < k; i++) v->a[i] |= fa->sign_bit;
            v->c |= fc->sign_bit;
        }
        break;
    case RULE_ZERO_SIGN:
        /* C = -0 and every product -0 */
        v->c = fc->sign_bit;
        for (int i = 0; i < k; i++) {
            int zero_in_a = gen_below(rs, 2);
            uint64_t other = zero_in_a ? gen_clustered(rs, fb, fb->i.bias, 6) : gen_clustered(rs, fa, fa->i.bias, 6);
            if (zero_in_a) {
                v->b[i] = other;
                v->a[i] = other & fb->sign_bit ? 0 : fa->sign_bit;
            } else {
                v->a[i] = other;
                v->b[i] = other & fa->sign_bit ? 0 : fb->sign_bit;
            }
        }
        break;
    case RULE_SCALE_MAX:
        if (g->ns) {
            if (gen_below(rs, 2)) v->sa[gen_below(rs, g->ns)] = 0xFE;
            else v->sb[gen_below(rs, g->ns)] = 0xFE;
        }
        break;
    case RULE_WINDOW_SHORT:
    case RULE_WINDOW_LONG:
    case RULE_GROUPING:
    case RULE_ORDER:
    case RULE_ALIGN_DIRECTION:
        /* bits at the window's edge: pairs of products that nearly cancel (the same factors but B's low
         * bits), later blocks scaled F binades down, and for FDRDA's dot a C 8 to 27 binades above it */
        if ((r == RULE_WINDOW_SHORT || r == RULE_WINDOW_LONG) && !g->ns && gen_below(rs, 2)) {
            straddle(g, rs, v);
            break;
        }
        if (gen_below(rs, 2))
            for (int i = 0; i + 1 < k; i += 2) {
                v->a[i + 1] = v->a[i] ^ fa->sign_bit;
                v->b[i + 1] = v->b[i] ^ (gen_next(rs) & fb->ulp * 7);
            }
        for (int j = 1; j < g->ns; j++) {
            long s = (long)v->sa[0] - (g->F - 6 + gen_below(rs, 12));
            v->sa[j] = (uint64_t)(s < 1 ? 1 : s);
            v->sb[j] = v->sb[0];
        }
        if (r != RULE_ORDER && r != RULE_ALIGN_DIRECTION && g->in->pass[0].algo == MMAREF_ALGO_GDFS &&
            gen_below(rs, 2)) {
            /* unit scales and C F - 1 to F + 6 binades above the groups' unit: each group's sum is cut
             * by the window, a whole group's once and two halves' each on its own */
            for (int j = 0; j < g->ns; j++)
                v->sa[j] = v->sb[j] = g->scale_one;
            v->c = gen_fin_raw(fc, gen_below(rs, 2), fc->i.bias + g->F - 1 + gen_below(rs, 8), gen_next(rs));
        }
        if (r == RULE_ALIGN_DIRECTION && g->in->pass[0].algo == MMAREF_ALGO_FDRDA && gen_below(rs, 4) &&
            fdrda_midpoint(g, rs, v))
            break;
        if (r == RULE_ALIGN_DIRECTION) {
            for (int i = 0; i < k; i++) {
                v->a[i] = gen_clustered(rs, fa, fa->i.bias, 1);
                v->b[i] = gen_clustered(rs, fb, fb->i.bias, 1);
            }
            v->c = gen_fin_raw(fc, gen_below(rs, 2), fc->i.bias + 8 + gen_below(rs, 20), gen_next(rs));
        }
        break;
    case RULE_OUTPUT_TIES:
    case RULE_OUTPUT_STICKY:
        midpoint(g, r, rs, v);
        break;
    case RULE_C_WINDOW:
    case RULE_C_ALIGN_DIRECTION:
        /* products in pairs that cancel, every factor in [1, 2) (e_max = 0), and a negative C just
         * below the window (c-window: e_c = e_max - 25) or with bits below C's 24 (c-align-direction):
         * D is C as aligned, rounded down or toward zero */
        for (int i = 0; i + 1 < k; i += 2) {
            v->a[i] = gen_fin_raw(fa, gen_below(rs, 2), fa->i.bias, gen_next(rs));
            v->b[i] = gen_fin_raw(fb, gen_below(rs, 2), fb->i.bias, gen_next(rs));
            v->a[i + 1] = v->a[i] ^ fa->sign_bit;
            v->b[i + 1] = v->b[i];
        }
        if (k % 2)
            v->a[k - 1] = zero(rs, fa);
        v->c = gen_fin_raw(fc, 1, fc->i.bias - (r == RULE_C_WINDOW ? 25 : 1 + gen_below(rs, 24)), gen_next(rs) | 1);
        break;
    default:
        break;
    }
}

int gen_rule_vector(gen_ctx *g, uint64_t seed, uint64_t index, gen_vec *v)
{
    const mmaref_instr *in = g->in;
    mmaref_rule_id mine[RULE_COUNT];
    int n = 0;
    for (int r = 1; r < RULE_COUNT; r++)
        if (rule_applies(in, (mmaref_rule_id)r))
            mine[n++] = (mmaref_rule_id)r;
    /* the candidates: random vectors of a stream of their own, RULE_TRIES per rule vector */
    const uint64_t salt = 0x52554C45ULL; /* "RULE" */
    if (n == 0)
        return gen_random_vector(g, seed ^ salt, index, v) < 0 ? -1 : 0;
    mmaref_rule_id r = mine[index % (uint64_t)n];
    const int ns = g->ns;
    for (int t = 0; t < RULE_TRIES; t++) {
        uint64_t at = index * RULE_TRIES + (uint64_t)t;
        if (gen_random_vector(g, seed ^ salt, at, v) < 0)
            return -1;
        uint64_t rs = gen_stream_at(seed ^ salt ^ 0x5348415045ULL, at); /* "SHAPE" */
        if (!g->complex && gen_below(&rs, 4)) /* three candidates in four reshaped, one left as drawn */
            shape(g, r, &rs, v);
        uint64_t d = schedule_run(in, v->c, v->a, v->b, ns ? v->sa : NULL, ns ? v->sb : NULL);
        if (rule_broken_d(in, r, v->c, v->a, v->b, ns ? v->sa : NULL, ns ? v->sb : NULL, d) != d)
            break;
    }
    return (int)r;
}
