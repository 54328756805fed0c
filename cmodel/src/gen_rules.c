/* The rule kind (MMAREF_GEN_RULE): vectors that catch the rules of the inventory (rules.c).  Rule vector i
 * aims at the instruction's i-th rule (mod how many it has): up to RULE_TRIES candidates, each a random
 * vector of the usual kinds reshaped where the rule needs a rare input (a zero beside a large factor, a
 * subnormal C, an infinity of each sign ...), and the first on which a unit breaking the rule gives
 * another D is kept -- the test is the rule's planted bug itself (rule_broken_d), so a kept vector
 * catches it by construction, and one that never does is counted honestly by the coverage model. */
#include <string.h>

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
            x[j] = inf(f, 1);
        }
        break;
    }
    case RULE_OVERFLOW:
        /* every product and C large and of one sign */
        for (int i = 0; i < k; i++) {
            v->a[i] = big(rs, fa) & ~fa->sign_bit;
            v->b[i] = big(rs, fb) & ~fb->sign_bit;
        }
        v->c = big(rs, fc) & ~fc->sign_bit;
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
        if (r == RULE_ALIGN_DIRECTION) {
            for (int i = 0; i < k; i++) {
                v->a[i] = gen_clustered(rs, fa, fa->i.bias, 1);
                v->b[i] = gen_clustered(rs, fb, fb->i.bias, 1);
            }
            v->c = gen_fin_raw(fc, gen_below(rs, 2), fc->i.bias + 8 + gen_below(rs, 20), gen_next(rs));
        }
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
    /* FDRDA's dot, rounded down below C's binade, shows only near a rounding boundary of D: more tries */
    const int tries = r == RULE_ALIGN_DIRECTION ? 4 * RULE_TRIES : RULE_TRIES;
    for (int t = 0; t < tries; t++) {
        uint64_t at = index * 4 * RULE_TRIES + (uint64_t)t;
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
