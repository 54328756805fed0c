/* Stimulus generator, in the manner of TestFloat's testfloat_gen: vectors and tiles of raw operand bits
 * addressed by (instruction, seed, index), so any one can be regenerated from those three numbers.
 *
 * Directed vectors come first in the mixed stream (an SFMA instruction's IEEE FMA corners and an AMD
 * instruction's FDRDA / GPS corners first: gen_ieee.c, gen_amd.c; for f32 operands the corners of units
 * that split significands into halves, the paper's M3XU check value first; special values on every lane,
 * the papers' precision and order probes, alignment shifts 0..F+3, carry chains, total cancellation,
 * overflow, f16 ties; the papers' experiments, the battery of `mmaref probe`: gen_experiments.c; then
 * vectors made for the bins of the coverage model, so that the directed set closes it: the cov_ parts); then seeded random ones: raw bits, exponent clusters, cancellation, sprinkled
 * specials, extremes.  A tile draws the random kind's parameters once (exponent centres, spread, how
 * many specials per dot-add), so each of its M x N dot-adds is a dot-add of that kind; a vector is the
 * 1 x 1 tile.  Format fields come from the library's format table (mmaref_format_get_info).
 *
 * A complex instruction (f32c operands) draws from its real view, the same instruction on the part
 * format (f32): its directed vectors are its own complex corners (gen_complex_parts, gen_m3xu.c), then the view's,
 * each placed on each pair of parts (re*re, im*im with C negated, re*im, im*re; the other parts +0),
 * and its random tiles are two tiles of the view,
 * the real parts and the imaginary parts, of one kind and one exponent cluster. */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "mmaref.h"
#include "gen_internal.h"
#include "gen_sets.h"
#include "host_fp.h"
#include "instr_memo.h"
#include "schedule.h"

enum { GEN_WIDE_SPREAD = 12 };

/* F: fractional bits kept when aligning to e_max (the first pass's; every pass of a table entry has
 * the same).  The only place the generator reads it. */
static int gen_frac_bits(const mmaref_instr *in) { return in->pass[0].frac_bits; }

/* ---- random numbers: splitmix64 ---- */

static inline uint64_t next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t mmaref_rand(uint64_t *state) { return state ? next(state) : 0; }

static int below(uint64_t *r, int n) { return (int)(((next(r) >> 32) * (uint64_t)n) >> 32); }

/* Vector or tile `index` has its own stream, so that it is regenerated alone. */
static uint64_t stream_at(uint64_t seed, uint64_t index)
{
    uint64_t r = seed * 0xD1B54A32D192ED03ULL ^ (index + 1) * 0x9E3779B97F4A7C15ULL;
    next(&r);
    return r;
}

/* ---- format fields, as the generator uses them ---- */


static void add_special(gen_fmt *f, uint64_t raw) { f->special[f->nspecial++] = raw & f->mask; }

/* The encodings the special kind draws from: +-0, +-smallest and largest subnormal, +-smallest normal,
 * +-largest finite, +-1; inf, quiet, signalling and negative NaNs where the format has them; and for
 * TF32 the patterns whose ignored low bits change their meaning (an f32 NaN that is inf, an f32
 * subnormal that is +0, 1 + 2^-23 (2^13 - 1) that is 1). */
static void specials_of(gen_fmt *f)
{
    f->nspecial = 0;
    uint64_t s = f->sign_bit, one = (uint64_t)f->i.bias << f->i.man_bits, normal = 1ULL << f->i.man_bits;
    uint64_t low = f->ulp - 1, specials[] = {0, s, f->ulp, s | f->ulp, f->man_all, normal, s | normal,
                                             f->i.max_finite, s | f->i.max_finite, one, s | one};
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        add_special(f, specials[i]);
    if (f->i.has_inf) {
        uint64_t quiet = 1ULL << (f->i.man_bits - 1), inf = f->i.inf;
        uint64_t nans[] = {inf, s | inf, inf | quiet, inf | f->ulp, s | inf | quiet | f->ulp, f->i.nan};
        for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++)
            add_special(f, nans[i]);
    } else if (f->i.has_nan) {
        add_special(f, f->i.nan);
        if (f->i.specials == MMAREF_SPECIALS_FN)
            add_special(f, s | f->i.nan);
    }
    if (low && f->i.has_inf) {
        add_special(f, f->i.inf | 1);
        add_special(f, low);
        add_special(f, one | low);
    }
}

static void fmt_init(gen_fmt *f, mmaref_format format)
{
    mmaref_format_get_info(format, &f->i);
    f->f = format;
    uint64_t man_mask = (1ULL << f->i.man_bits) - 1;
    f->mask = f->i.width == 64 ? ~0ULL : (1ULL << f->i.width) - 1;
    f->sign_bit = f->i.has_sign ? 1ULL << (f->i.width - 1) : 0;
    f->exp_all = (1ULL << f->i.exp_bits) - 1;
    f->man_all = man_mask & ~f->i.ignored;
    f->ulp = (man_mask & f->i.ignored) + 1;
    f->man_eff = f->i.man_bits - __builtin_ctzll(f->ulp); /* ignored mantissa bits are the low ones */
    f->emin = 1 - f->i.bias;
    f->exp_top = (long)(f->i.max_finite >> f->i.man_bits & f->exp_all);
    f->nspecial = 0;
}

/* A finite pattern with the given sign, biased exponent field (clamped to the finite range) and
 * mantissa (the bits that count). */
static uint64_t fin_raw(const gen_fmt *f, int sign, long biased, uint64_t man)
{
    if (biased < 0) biased = 0;
    if (biased > f->exp_top) biased = f->exp_top;
    man &= f->man_all;
    if (f->i.specials == MMAREF_SPECIALS_FN && (uint64_t)biased == f->exp_all && man == f->man_all)
        man -= f->ulp; /* e4m3: S.1111.111 is NaN */
    return ((uint64_t)biased << f->i.man_bits) | man | (sign ? f->sign_bit : 0);
}

static uint64_t max_finite(const gen_fmt *f, int sign) { return f->i.max_finite | (sign ? f->sign_bit : 0); }
static uint64_t raw_bits(uint64_t *r, const gen_fmt *f) { return next(r) & f->mask; }

/* Random sign and mantissa, exponent field within +-spread of center (one draw). */
static uint64_t clustered(uint64_t *r, const gen_fmt *f, long center, int spread)
{
    uint64_t x = next(r);
    long e = center + (long)(((x >> 1 & 0xFFFF) * (uint64_t)(2 * spread + 1)) >> 16) - spread;
    return fin_raw(f, (int)(x & 1), e, x >> 17);
}

/* One of the format's specials, or a random subnormal. */
static uint64_t special(uint64_t *r, const gen_fmt *f)
{
    int i = below(r, f->nspecial + 1);
    return i < f->nspecial ? f->special[i] : fin_raw(f, below(r, 2), 0, next(r));
}

/* The helpers the rule kind (gen_rules.c) draws with. */
uint64_t gen_next(uint64_t *r) { return next(r); }
int gen_below(uint64_t *r, int n) { return below(r, n); }
uint64_t gen_stream_at(uint64_t seed, uint64_t index) { return stream_at(seed, index); }
uint64_t gen_fin_raw(const gen_fmt *f, int sign, long biased, uint64_t man) { return fin_raw(f, sign, biased, man); }
uint64_t gen_clustered(uint64_t *r, const gen_fmt *f, long center, int spread) { return clustered(r, f, center, spread); }

/* ---- one instruction's generator ---- */


static int ctx_init(gen_ctx *g, const mmaref_instr *in)
{
    if (schedule_usable(in, NULL, 0) != MMAREF_OK) /* NULL, or a record the check refuses */
        return -1;
    g->in = in;
    g->k = in->k;
    g->ns = mmaref_scale_count(in);
    g->F = gen_frac_bits(in);
    g->complex = mmaref_format_parts(in->a) > 1;
    if (g->complex != (mmaref_format_parts(in->b) > 1) || g->complex != (mmaref_format_parts(in->c) > 1) ||
        (g->complex && g->ns))
        return -1; /* complex operands are all complex, without scales */
    fmt_init(&g->fa, mmaref_format_part(in->a));
    fmt_init(&g->fb, mmaref_format_part(in->b));
    fmt_init(&g->fc, mmaref_format_part(in->c));
    g->scale_one = 0;
    if (g->ns) {
        if ((unsigned)in->scale >= MMAREF_FORMAT_COUNT || g->ns > MMAREF_MAX_K)
            return -1;
        fmt_init(&g->fs, in->scale);
        mmaref_format_from_double(in->scale, 1.0, &g->scale_one);
    }
    return 0;
}

/* A tile's operands, row-major: A[M][K], B[K][N], C[M][N], SA[M][S], SB[S][N]. */
typedef struct {
    uint64_t *A, *B, *C, *SA, *SB;
    int m, n;
} gen_tile;

static uint64_t *a_at(const gen_ctx *g, const gen_tile *t, int i, int k) { return &t->A[i * g->k + k]; }
static uint64_t *b_at(const gen_tile *t, int k, int j) { return &t->B[k * t->n + j]; }
static uint64_t *sa_at(const gen_ctx *g, const gen_tile *t, int i, int s) { return &t->SA[i * g->ns + s]; }
static uint64_t *sb_at(const gen_tile *t, int s, int j) { return &t->SB[s * t->n + j]; }


/* ---- products of representable factors ---- */

/* The exponent window of a factor: x 2^-j is exactly representable in f iff *lo <= j <= *hi. */
static int factor_window(const gen_fmt *f, double x, int *lo, int *hi)
{
    uint64_t zero;
    if (x == 0) { /* a zero product (a subnormal C times 2^-s underflows in f64): 0 * 1 */
        *lo = -60;
        *hi = 59;
        return mmaref_format_from_double(f->f, x, &zero) == MMAREF_OK;
    }
    if (signbit(x) && !f->i.has_sign)
        return 0;
    int e;
    double fr = frexp(fabs(x), &e);                               /* |x| = fr 2^e, 0.5 <= fr < 1 */
    int lsb = e - 53 + __builtin_ctzll((uint64_t)ldexp(fr, 53)); /* weight of x's lowest set bit */
    if (e - 1 - lsb > f->man_eff)
        return 0;
    *lo = e - f->max_e + (fr > f->max_fr); /* x 2^-j <= the largest finite */
    *hi = lsb - (f->emin - f->man_eff); /* lowest bit at or above the smallest subnormal */
    return 1;
}

/* x = a * b with both factors representable: a = x 2^-j, b = 2^j, j the nearest to 0 (|j| <= 60) --
 * the split the directed vectors have always used.  Returns 0 when there is none. */
static int split_exp(const gen_ctx *g, double x, int *j)
{
    int alo, ahi;
    if (!factor_window(&g->fa, x, &alo, &ahi))
        return 0;
    int lo = alo > -g->b_hi ? alo : -g->b_hi, hi = ahi < -g->b_lo ? ahi : -g->b_lo;
    if (lo < -60) lo = -60;
    if (hi > 59) hi = 59;
    if (lo > hi)
        return 0;
    *j = lo > 0 ? lo : hi < 0 ? hi : 0;
    return 1;
}

static int is_product(const gen_ctx *g, double x)
{
    int j;
    return split_exp(g, x, &j);
}

/* Lane i of v gets the product x; returns 0 (and leaves the lane) when x is no such product. */
static int lane(const gen_ctx *g, gen_vec *v, int i, double x)
{
    uint64_t a, b;
    int j;
    if (!split_exp(g, x, &j) || mmaref_format_from_double(g->fa.f, ldexp(x, -j), &a) != MMAREF_OK ||
        mmaref_format_from_double(g->fb.f, ldexp(1.0, j), &b) != MMAREF_OK)
        return 0;
    v->a[i] = a;
    v->b[i] = b;
    return 1;
}

static int is_c(const gen_ctx *g, double x)
{
    uint64_t raw;
    return mmaref_format_from_double(g->fc.f, x, &raw) == MMAREF_OK;
}

/* C = x, or +0 when x is not representable. */
static int set_c(const gen_ctx *g, gen_vec *v, double x)
{
    v->c = 0;
    return mmaref_format_from_double(g->fc.f, x, &v->c) == MMAREF_OK;
}

static uint64_t one_of(const gen_fmt *f)
{
    uint64_t raw = 0;
    mmaref_format_from_double(f->f, 1.0, &raw);
    return raw;
}

/* ---- directed vectors ----
 * Each family enumerates its candidates in a fixed order; take() counts one and says whether it is the
 * one wanted, so that vector i is found without building the others. */


/* All-zero operands (+0 in every format), unit scales. */
static void vec_base(const gen_ctx *g, gen_vec *v)
{
    v->c = 0;
    memset(v->a, 0, (size_t)g->k * sizeof v->a[0]);
    memset(v->b, 0, (size_t)g->k * sizeof v->b[0]);
    for (int j = 0; j < g->ns; j++)
        v->sa[j] = v->sb[j] = g->scale_one;
}

static int take(sink *s)
{
    if (s->n++ != s->want)
        return 0;
    vec_base(s->g, s->v);
    return 1;
}

int gen_take(sink *s) { return take(s); }

static int special_lane_applies(const gen_ctx *g, int cls)
{
    switch (cls) {
    case 2: return g->fa.i.has_nan;
    case 3: return g->fb.i.has_nan;
    case 4: return g->fb.i.has_inf;
    case 5: return g->fa.i.has_inf && g->k >= 2;
    default: return g->fa.i.has_inf;
    }
}

/* Every special class on every lane (+inf, -inf, NaN a, NaN b, 0 * inf, +inf and -inf on neighbouring
 * lanes), the other lanes ordinary products; then -(smallest subnormal) * largest finite on every lane. */
static void d_special_lanes(sink *s)
{
    s->label = "special values per lane";
    const gen_ctx *g = s->g;
    const gen_fmt *fa = &g->fa, *fb = &g->fb;
    for (int i = 0; i < g->k; i++) {
        for (int cls = 0; cls < 6; cls++) {
            if (!special_lane_applies(g, cls) || !take(s))
                continue;
            gen_vec *v = s->v;
            for (int j = 0; j < g->k; j++)
                lane(g, v, j, ldexp(1.0 + (j & 3) / 4.0, -(j % 5)));
            switch (cls) {
            case 0: v->a[i] = fa->i.inf; break;
            case 1: v->a[i] = fa->i.inf | fa->sign_bit; break;
            case 2: v->a[i] = fa->i.nan; break;
            case 3: v->b[i] = fb->i.nan; break;
            case 4: v->a[i] = 0; v->b[i] = fb->i.inf; break;
            default: v->a[i] = fa->i.inf; v->a[(i + 1) % g->k] = fa->i.inf | fa->sign_bit; break;
            }
        }
        if (take(s)) {
            s->v->a[i] = fin_raw(fa, 1, 0, fa->ulp);
            s->v->b[i] = max_finite(fb, 0);
        }
    }
}

/* C = +-inf alone and against a +inf or -inf product; C = NaN. */
static void d_special_c(sink *s)
{
    s->label = "special C";
    const gen_ctx *g = s->g;
    if (!g->fc.i.has_inf)
        return;
    for (int sign = 0; sign < 2; sign++)
        for (int p = 0; p < 3; p++) {
            if (!take(s))
                continue;
            s->v->c = g->fc.i.inf | (sign ? g->fc.sign_bit : 0);
            if (p && g->fa.i.has_inf) {
                s->v->a[0] = g->fa.i.inf | (p == 2 ? g->fa.sign_bit : 0);
                s->v->b[0] = one_of(&g->fb);
                lane(g, s->v, 1, 1.0);
            }
        }
    if (take(s))
        s->v->c = g->fc.i.nan;
}

/* Step 0: a TF32 NaN whose payload lies only in the ignored low 13 bits is an infinity (twice, of the
 * same sign, or +inf and -inf). */
static void d_ignored_bits(sink *s)
{
    s->label = "ignored low bits as infinities (TF32)";
    const gen_fmt *fa = &s->g->fa;
    if (fa->ulp == 1 || !fa->i.has_inf)
        return;
    for (int sign = 0; sign < 2; sign++)
        if (take(s)) {
            s->v->a[0] = fa->i.inf | 1 | (sign ? fa->sign_bit : 0);
            s->v->a[1] = fa->i.inf | (fa->ulp - 1);
            s->v->b[0] = s->v->b[1] = one_of(&s->g->fb);
        }
}

/* A subnormal C (Volta widens an f16 one to a normal f32, moving e_max) against smaller products. */
static void d_subnormal_c(sink *s)
{
    s->label = "subnormal C against smaller products";
    const gen_ctx *g = s->g;
    const gen_fmt *fc = &g->fc;
    for (int t = 0; t < 3; t++)
        for (int sh = 0; sh <= g->F + 3; sh += 3) {
            uint64_t c = fin_raw(fc, t == 2, 0, t == 0 ? fc->ulp : fc->man_all >> 1);
            double cv = mmaref_format_to_double(fc->f, c), x = fabs(cv) * ldexp(1.0, -sh) * 1.5;
            if (cv == 0 || !is_product(g, x) || !take(s))
                continue;
            s->v->c = c;
            lane(g, s->v, 0, x);
        }
}

/* Every scale slot NaN in SA, in SB, and with the ignored bit set (UE8M0 0xFF; UE4M3 0x7F and 0xFF). */
static void d_scale_nan(sink *s)
{
    s->label = "NaN block scales";
    const gen_ctx *g = s->g;
    for (int j = 0; j < g->ns; j++)
        for (int w = 0; w < 3; w++) {
            if (!take(s))
                continue;
            lane(g, s->v, 0, 1.0);
            if (w == 1)
                s->v->sb[j] = g->fs.i.nan;
            else
                s->v->sa[j] = g->fs.i.nan | (w == 2 ? g->fs.i.ignored : 0);
        }
}

/* mma-sim.md: precision of 1 + eps and of -1 + 1 + eps, eps halved until it vanishes, on several lane
 * pairs and through C. */
static void d_precision(sink *s)
{
    s->label = "precision probes 1 + eps";
    const gen_ctx *g = s->g;
    int K = g->k, one = is_product(g, 1.0), c_one = is_c(g, 1.0), minus_one = K >= 3 && is_product(g, -1.0);
    for (int t = 0; t <= g->F + 4; t++) {
        double eps = ldexp(1.0, -t);
        int eps_ok = one && is_product(g, eps);
        for (int pair = 0; pair < 3 && eps_ok; pair++) {
            int i = pair == 0 ? 0 : pair == 1 ? K - 1 : K / 2, j = (i + 1 + pair) % K, k3 = (j + 1) % K;
            if (take(s)) {
                lane(g, s->v, i, 1.0);
                lane(g, s->v, j, eps);
            }
            if (c_one && take(s)) {
                set_c(g, s->v, 1.0);
                lane(g, s->v, j, eps);
            }
            if (minus_one && take(s)) {
                lane(g, s->v, i, -1.0);
                lane(g, s->v, j, 1.0);
                lane(g, s->v, k3, eps);
            }
        }
    }
}

/* mma-sim.md summation-order probe: X at lane i, -X at lane j, y on every other lane and in C, for every
 * pair of the first 8 lanes. */
static void d_order(sink *s)
{
    s->label = "summation order";
    const gen_ctx *g = s->g;
    int K = g->k, ok[2];
    double y = ldexp(1.0, -6), X[2] = {ldexp(1.0, 8), ldexp(1.0, 20)};
    for (int big = 0; big < 2; big++)
        ok[big] = is_product(g, X[big]) && is_product(g, -X[big]) && (K <= 2 || is_product(g, y));
    for (int i = 0; i < K && i < 8; i++)
        for (int j = 0; j < K && j < 8; j++)
            for (int big = 0; big < 2 && i != j; big++) {
                if (!ok[big] || !take(s))
                    continue;
                lane(g, s->v, i, X[big]);
                lane(g, s->v, j, -X[big]);
                for (int l = 0; l < K; l++)
                    if (l != i && l != j)
                        lane(g, s->v, l, y);
                set_c(g, s->v, y);
            }
}

/* Alignment shifts 0..F+3: one product +-1.75 2^-s against C = 1 + ulp (or 1), and against a product 1.5. */
static void d_shifts(sink *s)
{
    s->label = "alignment shifts";
    const gen_ctx *g = s->g;
    int K = g->k, cman = g->fc.i.man_bits < 10 ? g->fc.i.man_bits : 10, p15 = is_product(g, 1.5);
    for (int sh = 0; sh <= g->F + 3; sh++)
        for (int neg = 0; neg < 2; neg++) {
            double x = (neg ? -1.75 : 1.75) * ldexp(1.0, -sh);
            for (int last = 0; last < 2 && is_product(g, x); last++) {
                int li = last ? K - 1 : 0;
                if (take(s)) {
                    lane(g, s->v, li, x);
                    if (!set_c(g, s->v, 1.0 + ldexp(1.0, -cman)))
                        set_c(g, s->v, 1.0);
                }
                if (p15 && take(s)) {
                    lane(g, s->v, li, x);
                    lane(g, s->v, (li + 1) % K, 1.5);
                }
            }
        }
}

/* Carry chains: every product the largest significand at one exponent, C just below the next power. */
static void d_carries(sink *s)
{
    s->label = "carry chains";
    const gen_ctx *g = s->g;
    for (int neg = 0; neg < 2; neg++)
        for (int e = -2; e <= 2; e += 2) {
            if (!take(s))
                continue;
            uint64_t a = fin_raw(&g->fa, neg, g->fa.i.bias + e, ~0ULL), b = fin_raw(&g->fb, 0, g->fb.i.bias, ~0ULL);
            for (int l = 0; l < g->k; l++) {
                s->v->a[l] = a;
                s->v->b[l] = b;
            }
            s->v->c = fin_raw(&g->fc, neg, g->fc.i.bias + e + 3, ~0ULL);
        }
}

/* Total cancellation: x, -x pairs, with C = 0, or a product 1 and C = -1. */
static void d_cancel(sink *s)
{
    s->label = "total cancellation";
    const gen_ctx *g = s->g;
    int K = g->k;
    for (int t = 0; t < 8; t++) {
        if (!take(s))
            continue;
        for (int l = 0; l + 1 < K; l += 2) {
            double x = (1.0 + (l % 4) / 4.0) * ldexp(1.0, (t * 3 + l) % 7 - 3);
            if (lane(g, s->v, l, x))
                lane(g, s->v, l + 1, -x);
        }
        if (t & 1) {
            lane(g, s->v, K - 1, 1.0);
            set_c(g, s->v, -1.0);
        }
    }
}

/* Overflow to inf: every product the largest finite, both signs, with and without the largest C; and C
 * at the top of its range plus one such product. */
static void d_overflow(sink *s)
{
    s->label = "overflow to infinity";
    const gen_ctx *g = s->g;
    for (int neg = 0; neg < 2; neg++)
        for (int withc = 0; withc < 2; withc++) {
            if (take(s)) {
                for (int l = 0; l < g->k; l++) {
                    s->v->a[l] = max_finite(&g->fa, neg);
                    s->v->b[l] = max_finite(&g->fb, 0);
                }
                if (withc)
                    s->v->c = max_finite(&g->fc, neg);
            }
            if (take(s)) {
                s->v->c = max_finite(&g->fc, neg);
                s->v->a[0] = max_finite(&g->fa, neg);
                s->v->b[0] = max_finite(&g->fb, 0);
            }
        }
}

/* f16 round-to-nearest-even ties (f16 D): normal, subnormal and at the overflow boundary, the tie made
 * of one product and of two. */
static void d_f16_ties(sink *s)
{
    s->label = "f16 ties";
    static const double cs[] = {1.0, 1.0 + 0x1p-10, 0.0, 0.0, 0.0, 65504.0, 65472.0, -1.0, 0x1p-14};
    static const double ps[] = {0x1p-11, 0x1p-11, 0x1p-25, 0x1.8p-24, 0x1p-24, 16.0, 16.0, -0x1p-11, 0x1p-25};
    const gen_ctx *g = s->g;
    if (g->in->d != MMAREF_F16)
        return;
    for (size_t t = 0; t < sizeof cs / sizeof cs[0]; t++)
        for (int split = 0; split < 2; split++) {
            int two = split && g->k >= 2;
            if (!is_c(g, cs[t]) || !is_product(g, two ? ps[t] / 2 : ps[t]) || !take(s))
                continue;
            set_c(g, s->v, cs[t]);
            lane(g, s->v, 0, two ? ps[t] / 2 : ps[t]);
            if (two)
                lane(g, s->v, 1, ps[t] / 2);
        }
}

/* ---- the coverage bins' own vectors (coverage.c, mmaref_cov_bins) ----
 * Each bin of the coverage model that the families above may miss gets vectors built for it, so that
 * the directed set alone closes the model: zeros by each route and sign, D at the edges of its range,
 * +inf against -inf from either operand, results lost to the alignment, each rounding case, -0 in every
 * lane, every scale slot at its smallest and largest. */
static int neg_zero_ok(const gen_fmt *f) { return gen_has_neg_zero(&f->i); }

/* Lane i's product a -0: +0 x -1 (a -0 even where zero inputs are flushed to +0, or A has no -0), or
 * -0 x 1 where B is unsigned. */
static void neg_zero_lane(const gen_ctx *g, gen_vec *v, int i)
{
    int b_neg = g->fb.i.has_sign;
    v->a[i] = b_neg ? 0 : g->fa.sign_bit;
    v->b[i] = one_of(&g->fb) | (b_neg ? g->fb.sign_bit : 0);
}

/* Zeros: every term +0 (the base vector); C = -0 with every product -0 (+0 x -1, 1 x -0, -0 x 1); C = -0
 * against +0 products; +0 C against a -0 product. */
static void cov_zeros(sink *s)
{
    s->label = "coverage bins, zeros by route and sign";
    const gen_ctx *g = s->g;
    take(s);
    if (neg_zero_ok(&g->fc) && take(s)) {
        s->v->c = g->fc.sign_bit;
        for (int l = 0; l < g->k; l++)
            neg_zero_lane(g, s->v, l);
    }
    for (int via_b = 0; via_b < 2; via_b++) { /* -0 operands: 1 x -0, -0 x 1 */
        const gen_fmt *f = via_b ? &g->fb : &g->fa;
        if (!neg_zero_ok(&g->fc) || !neg_zero_ok(f) || !take(s))
            continue;
        s->v->c = g->fc.sign_bit;
        for (int l = 0; l < g->k; l++) {
            s->v->a[l] = via_b ? one_of(&g->fa) : f->sign_bit;
            s->v->b[l] = via_b ? f->sign_bit : one_of(&g->fb);
        }
    }
    if (neg_zero_ok(&g->fc) && take(s))
        s->v->c = g->fc.sign_bit;
    if (take(s))
        neg_zero_lane(g, s->v, 0);
}

/* D at the edges of its range: C's smallest subnormal and smallest normal (either sign), a product
 * there; C's largest finite alone and with a small product added (saturation). */
static void cov_range(sink *s)
{
    s->label = "coverage bins, D at the edges of its range";
    const gen_ctx *g = s->g;
    const gen_fmt *fc = &g->fc;
    mmaref_format_info fd;
    mmaref_format_get_info(mmaref_format_part(g->in->d), &fd);
    int d_emin = 1 - fd.bias, P = mmaref_output_precision(g->in->pass[g->in->passes - 1].out);
    uint64_t edges[] = {fin_raw(fc, 0, 0, fc->ulp), fin_raw(fc, 1, 0, fc->ulp), fin_raw(fc, 0, 0, fc->man_all),
                        fin_raw(fc, 1, 0, fc->man_all), fin_raw(fc, 0, 1, 0), fin_raw(fc, 1, 1, 0),
                        max_finite(fc, 0), max_finite(fc, 1)};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        if (take(s))
            s->v->c = edges[i];
    for (int i = 0; i < 2; i++)
        if (take(s)) {
            s->v->c = max_finite(fc, i);
            lane(g, s->v, 0, i ? -1.0 : 1.0);
        }
    for (int j = 0; j <= P + 2; j++) { /* products at and below D's smallest normal */
        double x = ldexp(1.5, d_emin - j);
        if (is_product(g, x) && take(s))
            lane(g, s->v, 0, x);
        if (is_product(g, ldexp(1.0, d_emin - j)) && take(s))
            lane(g, s->v, 0, -ldexp(1.0, d_emin - j));
    }
    /* a negative product below half of D's smallest subnormal: -0 where the output keeps the sign */
    for (int j = P + 2; j <= P + 6; j += 2)
        if (is_product(g, -ldexp(1.0, d_emin - j)) && take(s))
            lane(g, s->v, g->k - 1, -ldexp(1.0, d_emin - j));
    /* a product at D's smallest normal and one below it through the smallest block scales (ue8m0:
     * 1 x 2 x 2^-127, 1 x 1 x 2^-127; every SA slot at 2^-127, so that no block's zero sum outweighs) */
    uint64_t two;
    for (int sub = 0; sub < 2; sub++)
        if (g->ns && g->fs.i.specials == MMAREF_SPECIALS_E8M0 &&
            mmaref_format_from_double(g->fb.f, 2.0, &two) == MMAREF_OK && take(s)) {
            s->v->a[0] = one_of(&g->fa);
            s->v->b[0] = sub ? one_of(&g->fb) : two;
            for (int j = 0; j < g->ns; j++)
                s->v->sa[j] = 0;
        }
    /* a negative sum inside D's subnormal range from normal terms: C = -1.5 2^emin, a product 2^emin,
     * every other product -0 (a flushing schedule's -0 result survives adding them) */
    if (is_c(g, -ldexp(1.5, d_emin)) && is_product(g, ldexp(1.0, d_emin)) && take(s)) {
        set_c(g, s->v, -ldexp(1.5, d_emin));
        for (int l = 1; l < g->k; l++)
            neg_zero_lane(g, s->v, l);
        lane(g, s->v, 0, ldexp(1.0, d_emin));
    }
}

/* An infinite product and +inf against -inf from B (A's infinities are among the special lanes). */
static void cov_infinities(sink *s)
{
    s->label = "coverage bins, +inf and -inf from B";
    const gen_ctx *g = s->g;
    if (!g->fb.i.has_inf)
        return;
    if (take(s)) { /* 1 x inf alone */
        s->v->a[0] = one_of(&g->fa);
        s->v->b[0] = g->fb.i.inf;
    }
    if (g->k >= 2 && take(s)) {
        s->v->a[0] = s->v->a[1] = one_of(&g->fa);
        s->v->b[0] = g->fb.i.inf;
        s->v->b[1] = g->fb.i.inf | g->fb.sign_bit;
    }
}

/* Bits lost: x - x plus a term far below the alignment window (D 0, the exact sum not); and the
 * rounding cases at D's last place P: 1 + 2^-(P+1) (tie), + 2^-(P+2) (below half), both (above), each
 * also under a carry (1.5 + 1.5 on two lanes: 3 = 1.1 2^1). */
/* Terms x[0 .. n-1] (zeros skipped) as products on their own lanes, except at most one that is no product
 * (FP8 products stop at 2^-18) and goes to C: can they be placed so, with at most K lanes?  place() does. */
static int placeable(const gen_ctx *g, const double *x, int n)
{
    int lanes = 0, in_c = 0;
    for (int i = 0; i < n; i++) {
        if (x[i] == 0)
            continue;
        if (is_product(g, x[i]))
            lanes++;
        else if (is_c(g, x[i]))
            in_c++;
        else
            return 0;
    }
    return in_c <= 1 && lanes <= g->k;
}

/* The lanes are taken from pass ps's last product down (the last pass: the terms meet in a multi-pass
 * schedule's last pass, whose rounding is D's); below a pass of one run, on into the lanes before it. */
static void place(const gen_ctx *g, gen_vec *v, const double *x, int n, const mmaref_pass *ps)
{
    for (int i = 0, j = ps->k_count - 1; i < n; i++) {
        if (x[i] == 0)
            continue;
        int placed = 0;
        if (is_product(g, x[i])) {
            int l = j >= 0 ? mmaref_pass_k(ps, j) : ps->k_run ? -1 : ps->k_first + j;
            j--;
            placed = l >= 0 && lane(g, v, l, x[i]);
        }
        if (!placed)
            set_c(g, v, x[i]);
    }
}

static void cov_rounding(sink *s)
{
    s->label = "coverage bins, lost terms and rounding cases";
    const gen_ctx *g = s->g;
    int K = g->k, P = mmaref_output_precision(g->in->pass[g->in->passes - 1].out), F = g->F > 0 ? g->F : P;
    /* X + tiny - X, X the largest power of two both signs of which are products: the tiny term is lost
     * to the alignment (below F) or to the rounding of X + tiny (pairwise sums) */
    int t = 30;
    while (t > -30 && !(is_product(g, ldexp(1.0, t)) && is_product(g, -ldexp(1.0, t))))
        t--;
    for (int j = t - F - 2; j >= t - F - 8 && K >= 2; j -= 3) {
        double X = ldexp(1.0, t), tiny = ldexp(1.0, j);
        if (K >= 3 && is_product(g, tiny) && take(s)) {
            lane(g, s->v, 0, X);
            lane(g, s->v, 1, tiny);
            lane(g, s->v, 2, -X);
        }
        if (is_c(g, tiny) && take(s)) {
            lane(g, s->v, 0, X);
            lane(g, s->v, 1, -X);
            set_c(g, s->v, tiny);
        }
    }
    /* a wide carry: every lane but two x 2^t (x = 1.75, or 1.5, 1 where 1.75 is no product; their sum
     * below 2^(m + 1)), then on the last two a tie at the sum's last place, half of it, the tie with a
     * sticky bit, and the tie with a sticky bit at the last bit the alignment keeps, 2^(t - F + j) (j
     * up to 4: a later pass's e_max lies higher; a rounder that looks at fewer bits misses it) */
    static const double wide[] = {1.75, 1.5, 1.0};
    for (int p = 0; p < g->in->passes; p++) {
        const mmaref_pass *ps = &g->in->pass[p];
        int lanes = ps->k_count, last = p == g->in->passes - 1;
        for (int w = last ? 0 : 2; w < (last ? 8 : 3) && lanes > 3; w++) {
            double terms[MMAREF_MAX_K];
            int found = 0, n = 0;
            for (int merged = 1; merged >= 0 && !found; merged--) /* both tails in one product if it can be */
                for (size_t x = 0; x < sizeof wide / sizeof wide[0] && !found; x++) {
                    int ntails = w >= 2 && !merged ? 2 : 1, nbig = lanes - ntails, lift = ilogb(wide[x] * nbig);
                    for (int i = 0; i <= 80 && !found; i++) { /* 2^t: t = 0, 1, -1, 2, -2, ... */
                        int t = i & 1 ? (i + 1) / 2 : -(i / 2), m = t + lift, low = t - F + (w - 3);
                        double tie = ldexp(1.0, m - P - (w == 1 ? 2 : 1));
                        double sticky = w < 2 ? 0 : ldexp(1.0, w == 2 ? m - P - 3 : low);
                        n = 0; /* the tails first: the pass's last lanes */
                        terms[n++] = merged ? tie + sticky : tie;
                        if (ntails == 2)
                            terms[n++] = sticky;
                        for (int l = 0; l < nbig; l++)
                            terms[n++] = ldexp(wide[x], t);
                        found = (w < 3 || low < m - P - 1) && (!merged || w >= 2) && placeable(g, terms, n);
                    }
                }
            if (found && take(s))
                place(g, s->v, terms, n, ps);
        }
    }
    /* one, two equal big terms (1.5 + 1.5 = 3: the last place moves up one), scaled by 2^t, and tails at
     * 2^-(P + i) below the last place of the sum */
    static const double big[][2] = {{1.0, 0}, {1.5, 1.5}, {1.75, 1.75}};
    static const int tails[][2] = {{1, 0}, {2, 0}, {1, 2}, {2, 3}, {1, 8}};
    for (size_t b = 0; b < sizeof big / sizeof big[0]; b++)
        for (size_t u = 0; u < sizeof tails / sizeof tails[0]; u++) {
            int n = big[b][1] != 0 ? 2 : 1, carry = n == 2, nt = n + 1 + (tails[u][1] != 0), found = 0;
            double terms[4];
            for (int i = 0; i <= 80 && !found && nt <= K + 1; i++) {
                int t = i & 1 ? (i + 1) / 2 : -(i / 2);
                for (int l = 0; l < n; l++)
                    terms[l] = ldexp(big[b][l], t);
                terms[n] = ldexp(1.0, t + carry - P - tails[u][0]);
                if (tails[u][1])
                    terms[n + 1] = ldexp(1.0, t + carry - P - tails[u][1]);
                found = placeable(g, terms, nt);
            }
            if (found && take(s))
                place(g, s->v, terms, nt, &g->in->pass[g->in->passes - 1]);
        }
    /* C added last (c_last): the carries of that addition, C = 1.5 x 2^t plus the passes' exact result --
     * 1.5 x 2^t + 2^(t - P) (one unit of its last place: a tie under the carry), or 2^(t - 1) + 2^(t - 1 - P)
     * (a finer last place: a quarter unit, a sticky bit under the carry) */
    static const double c_last_terms[2][2] = {{1.5, 0}, {0.5, -1}}; /* the products: x 2^t, then 2^(t - P + e) */
    for (int m = 0; m < 2 && g->in->c_last; m++) {
        double terms[2];
        int found = 0;
        for (int i = 0; i <= 80 && !found; i++) {
            int t = i & 1 ? (i + 1) / 2 : -(i / 2);
            terms[0] = ldexp(c_last_terms[m][0], t);
            terms[1] = ldexp(1.0, t - P + (int)c_last_terms[m][1]);
            found = is_c(g, ldexp(1.5, t)) && is_product(g, terms[0]) && is_product(g, terms[1]);
            if (found && take(s)) {
                place(g, s->v, terms, 2, &g->in->pass[g->in->passes - 1]);
                set_c(g, s->v, ldexp(1.5, t));
            }
        }
    }
}

/* -0 in every lane. */
static void cov_lane_zeros(sink *s)
{
    s->label = "coverage bins, -0 in every lane";
    const gen_ctx *g = s->g;
    for (int i = 0; i < g->k; i++)
        if (take(s)) {
            lane(g, s->v, (i + 1) % g->k, 1.0);
            neg_zero_lane(g, s->v, i);
        }
}

/* Every scale slot at its smallest positive encoding and at its largest finite, in SA and SB at once. */
static void cov_scales(sink *s)
{
    s->label = "coverage bins, scale slots at their extremes";
    const gen_ctx *g = s->g;
    uint64_t min = g->fs.i.specials == MMAREF_SPECIALS_E8M0 ? 0 : 1;
    for (int j = 0; j < g->ns; j++)
        for (int w = 0; w < 2; w++)
            if (take(s)) {
                lane(g, s->v, j * (g->k / g->ns), 1.0);
                s->v->sa[j] = s->v->sb[j] = w ? g->fs.i.max_finite : min;
            }
}

/* The families addressed by index (gen_sets.h): a set of thousands costs O(1) a vector. */
/* An indexed family: its count for the instruction and vector idx of it (its label returned). */
static void indexed(sink *s, const gen_set *set)
{
    if (s->n > s->want)
        return;
    uint64_t n = set->count(s->g->in);
    if (s->want - s->n < n) {
        vec_base(s->g, s->v);
        s->label = set->vector(s->g->in, s->want - s->n, &s->v->c, s->v->a, s->v->b, s->v->sa, s->v->sb);
    }
    s->n += n;
}

static uint64_t no_count(const mmaref_instr *in)
{
    (void)in;
    return 0;
}
const gen_set gen_no_corners = {no_count, NULL};

/* The corners of the instruction's summation kind, from the kind's row (schedule.c): the IEEE FMA
 * corners of SFMA (gen_ieee.c), the FDRDA / GPS corners of the AMD kinds (gen_amd.c). */
static void kind_corners(sink *s)
{
    indexed(s, schedule_kind_corners(s->g->in->pass[0].algo));
}

static void experiments(sink *s)
{
    static const gen_set set = {gen_experiments_count, gen_experiments_vector};
    indexed(s, &set);
}

/* The directed stream, step by step: the kind's own corner set first; the papers' experiments (the
 * probe's battery) after the enumerated families, so that the short corner families (the M3XU check
 * value first) open the stream; the coverage bins' own vectors (cov_*) last. */
static void (*const steps[])(sink *) = {kind_corners,   gen_split_halves, d_special_lanes,
                                        d_special_c,    d_ignored_bits, d_subnormal_c,  d_scale_nan,
                                        d_precision,    d_order,        d_shifts,       d_carries,
                                        d_cancel,       d_overflow,     d_f16_ties,     experiments,
                                        cov_zeros,      cov_range,      cov_infinities, cov_rounding,
                                        cov_lane_zeros, cov_scales};
enum { STEPS = sizeof steps / sizeof steps[0] };

/* What the directed vectors' product splits need: the largest finite A and B, and the powers of two B has. */
static void directed_init(gen_ctx *g)
{
    gen_fmt *f[] = {&g->fa, &g->fb};
    for (int i = 0; i < 2; i++)
        f[i]->max_fr = frexp(mmaref_format_to_double(f[i]->f, f[i]->i.max_finite), &f[i]->max_e);
    factor_window(&g->fb, 1.0, &g->b_lo, &g->b_hi); /* 2^j = 1.0 2^-(-j) */
}

/* A complex instruction's directed vectors: its own (gen_complex_parts), then the real view's, vector i
 * of them on the pair of parts i % 4 of the view's vector i / 4. */
enum { COMPLEX_PLACEMENTS = 4 };

/* Where each step of the directed stream starts (start[STEPS]: the real stream's count) and how many
 * vectors are a complex instruction's own: counted once per instruction, an enumeration of the whole
 * stream, then kept (instr_memo.h), so that vector i costs its own step's enumeration, not every step
 * before it. */
typedef struct {
    uint64_t start[STEPS + 1], own;
} gen_layout;

static void layout_of(const gen_ctx *g, gen_layout *L)
{
    if (instr_memo_get(g->in, MEMO_GEN_LAYOUT, L, sizeof *L))
        return;
    memset(L, 0, sizeof *L);
    gen_vec unused;
    sink s = {g, UINT64_MAX, 0, &unused, NULL};
    for (int i = 0; i < STEPS; i++) {
        L->start[i] = s.n;
        steps[i](&s);
    }
    L->start[STEPS] = s.n;
    if (g->complex) {
        sink own = {g, UINT64_MAX, 0, &unused, NULL};
        gen_complex_parts(&own);
        L->own = own.n;
    }
    instr_memo_put(g->in, MEMO_GEN_LAYOUT, L, sizeof *L);
}

static uint64_t directed_count(const gen_ctx *g, const gen_layout *L)
{
    return g->complex ? L->own + L->start[STEPS] * COMPLEX_PLACEMENTS : L->start[STEPS];
}

/* Vector `index` of the real stream into v, from its step alone; returns its label. */
static const char *real_at(const gen_ctx *g, const gen_layout *L, uint64_t index, gen_vec *v)
{
    int j = 0;
    while (j < STEPS && L->start[j + 1] <= index)
        j++;
    if (j == STEPS)
        return NULL;
    sink s = {g, index, L->start[j], v, NULL};
    steps[j](&s);
    return s.label;
}

/* A real view's vector on the parts of a complex one: x * y + c lands in the real part as re*re (C in
 * the real part) or as im*im (its sign flipped by the unit: C negated, so the real part is the view's
 * result negated), in the imaginary part as re*im or im*re (C in the imaginary part). */
static void place_parts(const gen_ctx *g, int placement, const gen_vec *x, gen_vec *v)
{
    int a_im = placement == 1 || placement == 3, b_im = placement == 1 || placement == 2;
    int c_im = placement >= 2;
    uint64_t c = placement == 1 ? x->c ^ g->fc.sign_bit : x->c;
    for (int k = 0; k < g->k; k++) {
        uint64_t a[2] = {0, 0}, b[2] = {0, 0};
        a[a_im] = x->a[k];
        b[b_im] = x->b[k];
        v->a[k] = mmaref_format_join_parts(g->in->a, a);
        v->b[k] = mmaref_format_join_parts(g->in->b, b);
    }
    uint64_t cp[2] = {0, 0};
    cp[c_im] = c;
    v->c = mmaref_format_join_parts(g->in->c, cp);
}

/* Directed vector `index` into v; returns the name of its family (or experiment). */
static const char *directed_at(const gen_ctx *g, const gen_layout *L, uint64_t index, gen_vec *v)
{
    if (g->complex) {
        if (index < L->own) {
            sink s = {g, index, 0, v, NULL};
            gen_complex_parts(&s);
            return s.label;
        }
        index -= L->own;
        gen_vec x;
        const char *label = real_at(g, L, index / COMPLEX_PLACEMENTS, &x);
        place_parts(g, (int)(index % COMPLEX_PLACEMENTS), &x, v);
        return label;
    }
    return real_at(g, L, index, v);
}

/* Directed vector index * max(M, N) + l goes to row l of A and C and to column l of B (mod the count). */
static void directed_tile(const gen_ctx *g, const gen_layout *L, uint64_t index, uint64_t count,
                          const gen_tile *t)
{
    int lines = t->m > t->n ? t->m : t->n;
    gen_vec v;
    for (int l = 0; l < lines; l++) {
        directed_at(g, L, ((index % count) * (uint64_t)lines + (uint64_t)l) % count, &v);
        for (int k = 0; k < g->k; k++) {
            if (l < t->m) *a_at(g, t, l, k) = v.a[k];
            if (l < t->n) *b_at(t, k, l) = v.b[k];
        }
        for (int j = 0; j < t->n && l < t->m; j++)
            t->C[l * t->n + j] = v.c;
        for (int s = 0; s < g->ns; s++) {
            if (l < t->m) *sa_at(g, t, l, s) = v.sa[s];
            if (l < t->n) *sb_at(t, s, l) = v.sb[s];
        }
    }
}

/* ---- random tiles ---- */

typedef struct {
    long ca, cb; /* exponent fields the A and B elements cluster around */
    int spread;
} cluster;

static void raw_tile(const gen_ctx *g, uint64_t *r, const gen_tile *t)
{
    for (int i = 0; i < t->m * g->k; i++) t->A[i] = raw_bits(r, &g->fa);
    for (int i = 0; i < g->k * t->n; i++) t->B[i] = raw_bits(r, &g->fb);
    for (int i = 0; i < t->m * t->n; i++) t->C[i] = raw_bits(r, &g->fc);
    for (int i = 0; i < t->m * g->ns; i++) t->SA[i] = raw_bits(r, &g->fs);
    for (int i = 0; i < g->ns * t->n; i++) t->SB[i] = raw_bits(r, &g->fs);
}

/* Near 1 seven times in eight, else raw bits. */
static uint64_t scale_near_one(uint64_t *r, const gen_ctx *g)
{
    return below(r, 8) ? clustered(r, &g->fs, g->fs.i.bias, 6) : raw_bits(r, &g->fs);
}

static int uniform(uint64_t *r, int lo, int hi) { return lo + below(r, hi - lo + 1); } /* lo..hi */

/* The exponent fields A and B cluster around: in half the tiles anywhere in their formats (products
 * that overflow or vanish included), in the other half such that the products' exponent is uniform in
 * C's normal range and both factors are normal (the results a hardware run can compare digit by digit). */
static void cluster_centres(const gen_ctx *g, uint64_t *r, cluster *cl)
{
    const gen_fmt *fa = &g->fa, *fb = &g->fb, *fc = &g->fc;
    int ahi = (int)fa->exp_top - fa->i.bias, bhi = (int)fb->exp_top - fb->i.bias, chi = (int)fc->exp_top - fc->i.bias;
    int plo = fc->emin > fa->emin + fb->emin ? fc->emin : fa->emin + fb->emin, phi = chi < ahi + bhi ? chi : ahi + bhi;
    if (below(r, 2) || plo > phi) {
        cl->ca = 1 + below(r, (int)fa->exp_all);
        cl->cb = 1 + below(r, (int)fb->exp_all);
        return;
    }
    int p = uniform(r, plo, phi), ea = uniform(r, p - bhi > fa->emin ? p - bhi : fa->emin, p - fb->emin < ahi ? p - fb->emin : ahi);
    cl->ca = ea + fa->i.bias;
    cl->cb = p - ea + fb->i.bias;
}

/* Exponents clustered around one centre per operand so that products have similar magnitudes and random
 * signs cancel; spread 0..3, or in one tile in four 12 binades per factor (products up to 48 binades
 * apart: alignment shifts across and past any F-bit window).  C: +-0, near the products' exponent, or
 * anywhere within F+4 binades of it. */
static cluster cluster_tile(const gen_ctx *g, uint64_t *r, const gen_tile *t, const cluster *given)
{
    const gen_fmt *fa = &g->fa, *fb = &g->fb, *fc = &g->fc;
    cluster cl;
    if (given) { /* a complex tile's imaginary parts: the real parts' centres and spread */
        cl = *given;
    } else {
        cluster_centres(g, r, &cl);
        cl.spread = below(r, 4) == 0 ? GEN_WIDE_SPREAD : below(r, 4);
    }
    for (int i = 0; i < t->m * g->k; i++) t->A[i] = clustered(r, fa, cl.ca, cl.spread);
    for (int i = 0; i < g->k * t->n; i++) t->B[i] = clustered(r, fb, cl.cb, cl.spread);
    long pe = (cl.ca - fa->i.bias) + (cl.cb - fb->i.bias); /* the products' exponent */
    for (int i = 0; i < t->m * t->n; i++) {
        int mode = below(r, 4);
        t->C[i] = mode == 0 ? fin_raw(fc, below(r, 2), 0, 0)
                            : clustered(r, fc, pe + fc->i.bias + (mode == 3 ? below(r, 2 * g->F + 8) - g->F - 4 : 0), 3);
    }
    for (int i = 0; i < t->m * g->ns; i++) t->SA[i] = scale_near_one(r, g);
    for (int i = 0; i < g->ns * t->n; i++) t->SB[i] = scale_near_one(r, g);
    return cl;
}

/* Exact pairwise cancellation: A[.][k+1] = -A[.][k], B[k+1][.] = B[k][.], so the products cancel but
 * still set e_max; C is +0 in half the tiles, and in half of them each row has one lane redrawn a little
 * below the others (a small residue). */
static void cancel_tile(const gen_ctx *g, uint64_t *r, const gen_tile *t, const cluster *cl)
{
    for (int k = 0; k + 1 < g->k; k += 2) {
        for (int i = 0; i < t->m; i++) *a_at(g, t, i, k + 1) = *a_at(g, t, i, k) ^ g->fa.sign_bit;
        for (int j = 0; j < t->n; j++) *b_at(t, k + 1, j) = *b_at(t, k, j);
    }
    if (below(r, 2))
        for (int i = 0; i < t->m * t->n; i++) t->C[i] = fin_raw(&g->fc, 0, 0, 0);
    if (below(r, 2))
        for (int i = 0; i < t->m; i++) {
            int k = below(r, g->k);
            *a_at(g, t, i, k) = clustered(r, &g->fa, cl->ca - below(r, 8), 2);
        }
}

/* 1..3 specials per dot-add, each in A or in B with even odds: that many on every row of A and every
 * column of B; C special one time in four; one NaN scale factor in one row in eight. */
static void special_tile(const gen_ctx *g, uint64_t *r, const gen_tile *t)
{
    int n = 1 + below(r, 3), in_a = 0;
    for (int i = 0; i < n; i++) in_a += below(r, 2);
    for (int i = 0; i < t->m; i++)
        for (int s = 0; s < in_a; s++) {
            int k = below(r, g->k);
            *a_at(g, t, i, k) = special(r, &g->fa);
        }
    for (int j = 0; j < t->n; j++)
        for (int s = 0; s < n - in_a; s++) {
            int k = below(r, g->k);
            *b_at(t, k, j) = special(r, &g->fb);
        }
    for (int i = 0; i < t->m * t->n; i++)
        if (below(r, 4) == 0) t->C[i] = special(r, &g->fc);
    for (int i = 0; i < t->m && g->ns; i++)
        if (below(r, 8) == 0) *sa_at(g, t, i, below(r, g->ns)) = g->fs.i.nan;
}

/* Every exponent within 2 of the top of its range (clamped to the largest finite), unit scales. */
static void extreme_tile(const gen_ctx *g, uint64_t *r, const gen_tile *t)
{
    const gen_fmt *fa = &g->fa, *fb = &g->fb, *fc = &g->fc;
    for (int i = 0; i < t->m * g->k; i++) t->A[i] = fin_raw(fa, below(r, 2), (long)fa->exp_all - below(r, 3), next(r));
    for (int i = 0; i < g->k * t->n; i++) t->B[i] = fin_raw(fb, below(r, 2), (long)fb->exp_all - below(r, 3), next(r));
    for (int i = 0; i < t->m * t->n; i++) t->C[i] = fin_raw(fc, below(r, 2), (long)fc->exp_all - below(r, 3), next(r));
    for (int i = 0; i < t->m * g->ns; i++) t->SA[i] = g->scale_one;
    for (int i = 0; i < g->ns * t->n; i++) t->SB[i] = g->scale_one;
}

/* One tile of a random kind; `shared` (a complex tile's imaginary parts) takes that exponent cluster. */
static void kind_tile(const gen_ctx *g, uint64_t *r, mmaref_gen_kind kind, const gen_tile *t, cluster *cl,
                      const cluster *shared)
{
    if (kind == MMAREF_GEN_RAW) {
        raw_tile(g, r, t);
    } else if (kind == MMAREF_GEN_EXTREME) {
        extreme_tile(g, r, t);
    } else {
        *cl = cluster_tile(g, r, t, shared);
        if (kind == MMAREF_GEN_CANCEL)
            cancel_tile(g, r, t, cl);
        else if (kind == MMAREF_GEN_SPECIAL)
            special_tile(g, r, t);
    }
}

/* The largest complex tile operand (elements of A, B or C) the generator makes: the parts are drawn
 * into buffers of this size on the stack (M3XU's 8 x 4 x 2 needs 32). */
enum { GEN_COMPLEX_MAX_ELEMS = 256 };

/* A complex tile: the real parts, then the imaginary parts, two tiles of the real view joined. */
static int complex_tile(const gen_ctx *g, uint64_t *r, mmaref_gen_kind kind, const gen_tile *t)
{
    int na = t->m * g->k, nb = g->k * t->n, nc = t->m * t->n;
    if (na > GEN_COMPLEX_MAX_ELEMS || nb > GEN_COMPLEX_MAX_ELEMS || nc > GEN_COMPLEX_MAX_ELEMS)
        return -1;
    uint64_t A[2][GEN_COMPLEX_MAX_ELEMS], B[2][GEN_COMPLEX_MAX_ELEMS], C[2][GEN_COMPLEX_MAX_ELEMS];
    cluster cl;
    for (int part = 0; part < 2; part++) {
        gen_tile pt = {A[part], B[part], C[part], NULL, NULL, t->m, t->n};
        kind_tile(g, r, kind, &pt, &cl, part ? &cl : NULL);
    }
    const mmaref_instr *in = g->in;
    for (int i = 0; i < na; i++) t->A[i] = mmaref_format_join_parts(in->a, (uint64_t[]){A[0][i], A[1][i]});
    for (int i = 0; i < nb; i++) t->B[i] = mmaref_format_join_parts(in->b, (uint64_t[]){B[0][i], B[1][i]});
    for (int i = 0; i < nc; i++) t->C[i] = mmaref_format_join_parts(in->c, (uint64_t[]){C[0][i], C[1][i]});
    return 0;
}

static int random_tile(gen_ctx *g, mmaref_gen_kind kind, uint64_t seed, uint64_t index, const gen_tile *t)
{
    uint64_t r = stream_at(seed, index);
    /* drawn for every kind, so that a random vector of one kind is the mixed stream's at that index */
    int cls = below(&r, 100);
    if (kind == MMAREF_GEN_RANDOM || kind == MMAREF_GEN_MIXED)
        kind = cls < 25 ? MMAREF_GEN_RAW : cls < 65 ? MMAREF_GEN_CLUSTER : cls < 80 ? MMAREF_GEN_CANCEL
             : cls < 95 ? MMAREF_GEN_SPECIAL : MMAREF_GEN_EXTREME;
    if (kind == MMAREF_GEN_SPECIAL) { /* the lists, only where they are drawn from */
        specials_of(&g->fa);
        specials_of(&g->fb);
        specials_of(&g->fc);
    }
    if (g->complex)
        return complex_tile(g, &r, kind, t) ? -1 : (int)kind;
    cluster cl;
    kind_tile(g, &r, kind, t, &cl, NULL);
    return (int)kind;
}

/* A 1 x 1 tile of a random kind (MMAREF_GEN_RANDOM's draw), vector `index` of the seed's stream, into v:
 * the rule kind's candidates (gen_rules.c). */
int gen_random_vector(gen_ctx *g, uint64_t seed, uint64_t index, gen_vec *v)
{
    gen_tile t = {v->a, v->b, &v->c, v->sa, v->sb, 1, 1};
    for (int s = 0; s < g->ns; s++)
        v->sa[s] = v->sb[s] = g->scale_one;
    return random_tile(g, MMAREF_GEN_RANDOM, seed, index, &t);
}

/* The mixed stream of single vectors: of each four, three are the directed-then-random stream's next
 * and the fourth a rule vector (every rule of the inventory the instruction has, in turn). */
enum { RULE_EVERY = 4 };

mmaref_gen_kind mmaref_gen_mixed_at(uint64_t directed, uint64_t i, uint64_t *index)
{
    uint64_t j = i / RULE_EVERY * (RULE_EVERY - 1) + i % RULE_EVERY;
    if (i % RULE_EVERY == RULE_EVERY - 1) {
        *index = i / RULE_EVERY;
        return MMAREF_GEN_RULE;
    }
    *index = j;
    return j < directed ? MMAREF_GEN_DIRECTED : MMAREF_GEN_RANDOM;
}

static int generate(const mmaref_instr *in, mmaref_gen_kind kind, uint64_t seed, uint64_t index, gen_tile *t)
{
    gen_ctx g;
    if ((unsigned)kind >= MMAREF_GEN_KIND_COUNT || ctx_init(&g, in) || !t->A || !t->B || !t->C ||
        (g.ns && (!t->SA || !t->SB)) || t->m < 1 || t->n < 1)
        return -1;
    const int single = t->m == 1 && t->n == 1;
    if (kind == MMAREF_GEN_MIXED && single) {
        directed_init(&g);
        gen_layout L;
        layout_of(&g, &L);
        kind = mmaref_gen_mixed_at(directed_count(&g, &L), index, &index);
    }
    if (kind == MMAREF_GEN_RULE) {
        if (!single)
            return -1;
        gen_vec v;
        if (gen_rule_vector(&g, seed, index, &v) < 0)
            return -1;
        t->C[0] = v.c;
        memcpy(t->A, v.a, sizeof *t->A * (size_t)g.k);
        memcpy(t->B, v.b, sizeof *t->B * (size_t)g.k);
        for (int s = 0; s < g.ns; s++)
            t->SA[s] = v.sa[s], t->SB[s] = v.sb[s];
        return MMAREF_GEN_RULE;
    }
    if (kind == MMAREF_GEN_DIRECTED || kind == MMAREF_GEN_MIXED) {
        directed_init(&g);
        gen_layout L;
        layout_of(&g, &L);
        uint64_t count = directed_count(&g, &L), lines = (uint64_t)(t->m > t->n ? t->m : t->n);
        if (count == 0) /* never: carries, cancellation and overflow are there for every instruction */
            return -1;
        if (kind == MMAREF_GEN_DIRECTED || index < (count + lines - 1) / lines) {
            directed_tile(&g, &L, index, count, t);
            return MMAREF_GEN_DIRECTED;
        }
    }
    return random_tile(&g, kind, seed, index, t);
}

/* ---- public entry points ---- */
/* The generator computes with doubles (frexp, ldexp, products of candidate values): each entry point runs
 * in the default floating-point environment (host_fp.h), so the vectors are the same bits whatever the
 * caller's rounding mode, FTZ or DAZ. */

int mmaref_gen_vector(const mmaref_instr *in, mmaref_gen_kind kind, uint64_t seed, uint64_t index,
                      uint64_t *c, uint64_t *a, uint64_t *b, uint64_t *sa, uint64_t *sb)
{
    gen_tile t = {a, b, c, sa, sb, 1, 1};
    host_fp_all_env env;
    host_fp_all_default(&env);
    int made = generate(in, kind, seed, index, &t);
    host_fp_all_restore(&env);
    return made;
}

int mmaref_gen_tile(const mmaref_instr *in, mmaref_gen_kind kind, uint64_t seed, uint64_t index,
                    uint64_t *C, uint64_t *A, uint64_t *B, uint64_t *SA, uint64_t *SB)
{
    gen_tile t = {A, B, C, SA, SB, in ? in->m : 0, in ? in->n : 0};
    host_fp_all_env env;
    host_fp_all_default(&env);
    int made = generate(in, kind, seed, index, &t);
    host_fp_all_restore(&env);
    return made;
}

static uint64_t directed_count_of(const mmaref_instr *in)
{
    gen_ctx g;
    if (ctx_init(&g, in))
        return 0;
    directed_init(&g);
    gen_layout L;
    layout_of(&g, &L);
    return directed_count(&g, &L);
}

uint64_t mmaref_gen_directed_count(const mmaref_instr *in)
{
    host_fp_all_env env;
    host_fp_all_default(&env);
    uint64_t count = directed_count_of(in);
    host_fp_all_restore(&env);
    return count;
}

static const char *directed_label_of(const mmaref_instr *in, uint64_t index)
{
    gen_ctx g;
    gen_vec unused;
    if (ctx_init(&g, in))
        return "?";
    directed_init(&g);
    gen_layout L;
    layout_of(&g, &L);
    uint64_t count = directed_count(&g, &L);
    const char *label = count ? directed_at(&g, &L, index % count, &unused) : NULL;
    return label ? label : "?";
}

const char *mmaref_gen_directed_label(const mmaref_instr *in, uint64_t index)
{
    host_fp_all_env env;
    host_fp_all_default(&env);
    const char *label = directed_label_of(in, index);
    host_fp_all_restore(&env);
    return label;
}

static const char *const kind_names[MMAREF_GEN_KIND_COUNT] = {
    "raw", "cluster", "cancel", "special", "extreme", "directed", "random", "mixed", "rule"};

const char *mmaref_gen_kind_name(mmaref_gen_kind kind)
{
    return (unsigned)kind < MMAREF_GEN_KIND_COUNT ? kind_names[kind] : "?";
}

mmaref_gen_kind mmaref_gen_kind_by_name(const char *name)
{
    for (int k = 0; name && k < MMAREF_GEN_KIND_COUNT; k++)
        if (!strcasecmp(name, kind_names[k]))
            return (mmaref_gen_kind)k;
    return MMAREF_GEN_KIND_COUNT;
}
