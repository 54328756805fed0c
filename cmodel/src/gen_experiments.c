/* The papers' experiments as directed vectors: the MMA-Sim paper's targeted experiments on a black box
 * (section III) written as dot-adds, built from an instruction's formats, K and block scales alone (its
 * schedule plays no part), so that `mmaref probe` asks a device of unknown schedule exactly these and
 * every bench of an instruction of that shape drives them:
 *   - one-row questions: NaN encodings, infinities and invalid products, overflow, the sign of zero
 *     results, subnormal inputs and C, exact products;
 *   - the alignment ladder in ten layouts: terms 2^E and -2^E cancel, and a small term +-s 2^(E-j)
 *     (s = 1, 1.5) shows whether, and how rounded, it survived the alignment to e_max = E, for
 *     j = 0, 1, ... as far as the formats reach;
 *   - the rounding ladder: C = 2^E, a product that puts the sum on a rounding boundary of D, and a
 *     second product 2^-m below it: on which side D lands tells each rounding.
 * A term +-s 2^e can be placed for e in an interval (in C, or in a lane as a * b, with its block's
 * scales when the block holds no term of another size), worked out once per call from the formats; so
 * vector i, and the count, come from arithmetic on those intervals, not from building the vectors before
 * i.  A complex instruction gets its real view's experiments (gen.c places them on the pairs of parts). */
#include <math.h>
#include <string.h>

#include "gen_sets.h"

/* The ladders' reach: j = 0..80 below e_max, m = 1..40 below the rounding boundary. */
enum { LADDER_J = 80, ROUNDING_M = 40, LAYOUTS = 10, NO_LANE = -2 };

static const double sigs[2] = {1.0, 1.5}; /* the small term's significand: on a bit, and on two */

/* The exponents e for which a value sig 2^e exists; empty when lo > hi. */
typedef struct {
    int lo, hi;
} span;

static int in_span(span s, int e) { return s.lo <= e && e <= s.hi; }
static int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
static int min_of(int x, int y) { return x < y ? x : y; }
static int max_of(int x, int y) { return x > y ? x : y; }

typedef struct {
    mmaref_instr view;             /* the instruction; a complex one's real view (its part formats) */
    mmaref_format_info fa, fb, fc;
    int K, S;
    span a[2][2], c[2][2];         /* A and C: significand sigs[si], sign neg */
    span b, s;                     /* the powers of two of B and of the scale format */
    int cap;                       /* the big terms' largest exponent: 2 below the top of D and of C */
    uint64_t one_b;                /* 1.0 in B (+0 when B has no 1.0) */
} xp_ctx;

/* The operands of one vector, cleared by the caller (+0, unit scales); a vector writes what it sets and
 * reads nothing back. */
typedef struct {
    uint64_t *c, *a, *b, *sa, *sb;
} xp_row;

/* ---- values ---- */

/* Bits of (-1)^neg sig 2^e in f, when exactly representable. */
static int value_bits(mmaref_format f, double sig, int e, int neg, uint64_t *bits)
{
    double x = ldexp(neg ? -sig : sig, e);
    return x != 0 && !isinf(x) && mmaref_format_from_double(f, x, bits) == MMAREF_OK;
}

static int exp_of_max(mmaref_format f)
{
    mmaref_format_info fi;
    mmaref_format_get_info(f, &fi);
    return ilogb(mmaref_format_to_double(f, fi.max_finite));
}

/* The exponents of the powers of two f holds: its smallest subnormal (or normal) to its largest. */
static span power_span(mmaref_format f)
{
    mmaref_format_info fi;
    mmaref_format_get_info(f, &fi);
    /* ue8m0: 2^-127 */
    return (span){1 - fi.bias - (fi.specials == MMAREF_SPECIALS_E8M0 ? 1 : fi.man_bits), exp_of_max(f)};
}

/* The exponents at which sigs[si] 2^e is a value of f: the powers' range, less an end where the
 * second bit of 1.5 (or a bit the format ignores) falls below the smallest subnormal, or 1.5 passes the
 * largest finite value (the values between are all there). */
static span sig_span(mmaref_format f, int si)
{
    span r = power_span(f);
    uint64_t bits;
    while (r.lo <= r.hi && !value_bits(f, sigs[si], r.lo, 0, &bits))
        r.lo++;
    while (r.hi >= r.lo && !value_bits(f, sigs[si], r.hi, 0, &bits))
        r.hi--;
    return r;
}

/* The same for (-1)^neg sigs[si] 2^e: a signed format's negative values mirror its positive ones. */
static void signed_spans(mmaref_format f, span out[2][2])
{
    mmaref_format_info fi;
    mmaref_format_get_info(f, &fi);
    for (int si = 0; si < 2; si++) {
        out[si][0] = sig_span(f, si);
        out[si][1] = fi.has_sign ? out[si][0] : (span){1, 0};
    }
}

static int ctx_init(xp_ctx *x, const mmaref_instr *in)
{
    if (!in || in->k < 1 || in->k > MMAREF_MAX_K || (unsigned)in->a >= MMAREF_FORMAT_COUNT ||
        (unsigned)in->b >= MMAREF_FORMAT_COUNT || (unsigned)in->c >= MMAREF_FORMAT_COUNT ||
        (unsigned)in->d >= MMAREF_FORMAT_COUNT)
        return -1;
    x->view = *in;
    x->view.a = mmaref_format_part(in->a), x->view.b = mmaref_format_part(in->b);
    x->view.c = mmaref_format_part(in->c), x->view.d = mmaref_format_part(in->d);
    const mmaref_instr *v = &x->view;
    x->K = v->k;
    x->S = mmaref_scale_count(v);
    if (x->S && ((unsigned)v->scale >= MMAREF_FORMAT_COUNT || x->S > MMAREF_MAX_K))
        return -1;
    mmaref_format_get_info(v->a, &x->fa);
    mmaref_format_get_info(v->b, &x->fb);
    mmaref_format_get_info(v->c, &x->fc);
    signed_spans(v->a, x->a);
    signed_spans(v->c, x->c);
    x->b = sig_span(v->b, 0);
    x->s = x->S ? sig_span(v->scale, 0) : (span){0, 0};
    x->cap = min_of(exp_of_max(v->d), exp_of_max(v->c)) - 2;
    x->one_b = 0;
    value_bits(v->b, 1, 0, 0, &x->one_b);
    return 0;
}

/* ---- placing a term ---- */

/* C (lane -1) or lane k's product; `scaled`: its block's scales may carry part of the exponent (the
 * block holds no term of another size, so its terms choose the same scales). */
typedef struct {
    int lane, scaled;
} place;

/* The exponents e at which (-1)^neg sigs[si] 2^e can be put at p: A carries the significand and the
 * sign, B a power of two, the block's two scales 2^t between them. */
static span term_span(const xp_ctx *x, place p, int si, int neg)
{
    if (p.lane < 0)
        return x->c[si][neg];
    span a = x->a[si][neg];
    if (a.lo > a.hi || x->b.lo > x->b.hi)
        return (span){1, 0};
    span r = {a.lo + x->b.lo, a.hi + x->b.hi};
    if (p.scaled && x->S)
        r.lo += 2 * x->s.lo, r.hi += 2 * x->s.hi;
    return r;
}

/* Put (-1)^neg sigs[si] 2^e at p: the scales' share t as near 0 as the factors allow, split between SA
 * and SB; the rest between a and b, a's exponent as near half of it as their formats allow.  Returns 1
 * on success (e within term_span). */
static int put_term(const xp_ctx *x, const xp_row *r, place p, int si, int e, int neg)
{
    const mmaref_instr *v = &x->view;
    if (!in_span(term_span(x, p, si, neg), e))
        return 0;
    if (p.lane < 0)
        return value_bits(v->c, sigs[si], e, neg, r->c);
    span a = x->a[si][neg];
    int t = 0;
    if (p.scaled && x->S) {
        int blk = p.lane / v->block_size;
        t = clamp(0, max_of(2 * x->s.lo, e - (a.hi + x->b.hi)), min_of(2 * x->s.hi, e - (a.lo + x->b.lo)));
        if (!value_bits(v->scale, 1, t / 2, 0, &r->sa[blk]) || !value_bits(v->scale, 1, t - t / 2, 0, &r->sb[blk]))
            return 0;
    }
    int et = e - t, ea = clamp(et / 2, max_of(a.lo, et - x->b.hi), min_of(a.hi, et - x->b.lo));
    return value_bits(v->a, sigs[si], ea, neg, &r->a[p.lane]) && value_bits(v->b, 1, et - ea, 0, &r->b[p.lane]);
}

/* ---- the one-row questions ---- */

static uint64_t sign_of(const mmaref_format_info *f) { return 1ULL << (f->width - 1); }

static int nan_a(const xp_ctx *x, const xp_row *r)
{
    r->a[0] = x->fa.nan, r->b[0] = x->one_b;
    return x->fa.has_nan;
}

static int nan_c(const xp_ctx *x, const xp_row *r)
{
    *r->c = x->fc.nan;
    return x->fc.has_nan;
}

/* A NaN C other than the canonical one (its sign set): a unit passing C's NaN through answers it, one
 * writing the canonical NaN does not.  FNUZ has one NaN, 0x80: nothing to tell. */
static int nan_c_payload(const xp_ctx *x, const xp_row *r)
{
    *r->c = x->fc.nan | sign_of(&x->fc);
    return x->fc.has_nan && x->fc.has_sign && x->fc.specials != MMAREF_SPECIALS_FNUZ;
}

static int inf_a(const xp_ctx *x, const xp_row *r)
{
    r->a[0] = x->fa.inf, r->b[0] = x->one_b;
    return x->fa.has_inf;
}

static int inf_times_zero(const xp_ctx *x, const xp_row *r)
{
    r->a[0] = x->fa.inf;
    return x->fa.has_inf;
}

static int inf_minus_inf(const xp_ctx *x, const xp_row *r)
{
    r->a[0] = r->a[1] = x->fa.inf, r->b[0] = x->one_b;
    value_bits(x->view.b, 1, 0, 1, &r->b[1]);
    return x->fa.has_inf && x->K >= 2;
}

static int inf_c(const xp_ctx *x, const xp_row *r)
{
    *r->c = x->fc.inf | sign_of(&x->fc);
    return x->fc.has_inf;
}

static int overflow(const xp_ctx *x, const xp_row *r)
{
    *r->c = x->fc.max_finite;
    for (int k = 0; k < x->K; k++)
        r->a[k] = x->fa.max_finite, r->b[k] = x->fb.max_finite;
    return 1;
}

static int zero_plus(const xp_ctx *x, const xp_row *r)
{
    *r->c = sign_of(&x->fc);
    return gen_has_neg_zero(&x->fc);
}

static int zero_minus(const xp_ctx *x, const xp_row *r)
{
    *r->c = sign_of(&x->fc);
    for (int k = 0; k < x->K; k++)
        r->a[k] = sign_of(&x->fa);
    return gen_has_neg_zero(&x->fc) && gen_has_neg_zero(&x->fa);
}

/* A without a -0 (FNUZ, whose 0x80 is NaN): each product an exact zero of negative sign from A's own
 * zero, +0 x -1. */
static int zero_minus_signed(const xp_ctx *x, const xp_row *r)
{
    *r->c = sign_of(&x->fc);
    int ok = gen_has_neg_zero(&x->fc) && !gen_has_neg_zero(&x->fa) && x->fb.has_sign;
    for (int k = 0; k < x->K && ok; k++)
        ok = value_bits(x->view.b, 1, 0, 1, &r->b[k]);
    return ok;
}

static int zero_cancel(const xp_ctx *x, const xp_row *r)
{
    return x->fc.has_sign && value_bits(x->view.c, 1, 0, 1, r->c) && put_term(x, r, (place){0, 0}, 0, 0, 0);
}

/* A's smallest subnormal times B's largest power of two above 1: the product kept in D's normal range
 * when possible. */
static int subnormal_a(const xp_ctx *x, const xp_row *r)
{
    r->a[0] = 1;
    for (int eb = exp_of_max(x->view.b); eb > 0 && !value_bits(x->view.b, 1, eb, 0, &r->b[0]); eb--)
        ;
    return x->fa.exp_bits > 0 && x->fa.man_bits > 0;
}

/* Every scale at its format's smallest power of two: a GDFS group, whose exponent is its scales' alone,
 * then lies below a subnormal C (with unit scales its exponent, 0, would set e_max and push C out). */
static void smallest_scales(const xp_ctx *x, const xp_row *r)
{
    for (int j = 0; j < x->S; j++) {
        value_bits(x->view.scale, 1, x->s.lo, 0, &r->sa[j]);
        value_bits(x->view.scale, 1, x->s.lo, 0, &r->sb[j]);
    }
}

static int subnormal_c_min(const xp_ctx *x, const xp_row *r)
{
    *r->c = 1;
    smallest_scales(x, r);
    return x->fc.exp_bits > 0 && x->fc.man_bits > 0;
}

static int subnormal_c_max(const xp_ctx *x, const xp_row *r)
{
    *r->c = ((1ULL << x->fc.man_bits) - 1) | sign_of(&x->fc);
    smallest_scales(x, r);
    return x->fc.exp_bits > 0 && x->fc.man_bits > 0;
}

/* A zero term's exponent in e_max (Hopper's -133, or a zero operand's own -126 as in the MMA-Sim paper):
 * C a negative subnormal of middle size, every product +0 times B's largest power of two.  Where a zero
 * product's exponent is -126 + e_b, it sets e_max and C drops below the grid; where zero terms sit
 * lower, C sets e_max and stays. */
static int zero_term(const xp_ctx *x, const xp_row *r)
{
    int m = x->fc.man_bits, ok = x->fc.exp_bits > 0 && m >= 2 && x->b.hi > 0;
    /* a subnormal with bits spread over its field (f16: its top and its bottom bit) */
    *r->c = sign_of(&x->fc) | (m >= 11 ? 1ULL << (m - 8) | 1ULL << (m - 11) | 0x13 : 1ULL << (m - 1) | 1);
    for (int k = 0; k < x->K && ok; k++)
        ok = value_bits(x->view.b, 1, x->b.hi, 0, &r->b[k]);
    return ok;
}

/* FP8 operands converted to f16 (mma.sync FP8): a subnormal of the side whose subnormals become f16
 * normals (e4m3) times the other side's largest power of two 2^k sets e_max at its f16 exponent; a
 * second such subnormal times 2^(k - F + man - 1) lies one binade below where the window would end were
 * the subnormal summed at its FP8 exponent (man binades higher): kept, and D = both products exactly
 * (23 binades apart: f32 holds them). */
static int f16_operands(const xp_ctx *x, const xp_row *r)
{
    const mmaref_instr *v = &x->view;
    const mmaref_pass *p = &v->pass[0];
    int sub_a = x->fa.exp_bits > 0 && 1 - x->fa.bias > -14, sub_b = x->fb.exp_bits > 0 && 1 - x->fb.bias > -14;
    if (!p->ab_f16 || x->K < 2 || (!sub_a && !sub_b) || mmaref_pass_k(p, 1) != 1)
        return 0;
    const mmaref_format_info *fx = sub_a ? &x->fa : &x->fb;
    mmaref_format fy = sub_a ? v->b : v->a;
    int k = exp_of_max(fy), j = k - p->frac_bits + fx->man_bits - 1;
    uint64_t *xs = sub_a ? r->a : r->b, *ys = sub_a ? r->b : r->a;
    xs[0] = xs[1] = 1; /* the smallest subnormal */
    return value_bits(fy, 1, k, 0, &ys[0]) && value_bits(fy, 1, j, 0, &ys[1]);
}

/* (1 + u)^2 - 1 = 2u + u^2 needs the product's low bit. */
static int exact_products(const xp_ctx *x, const xp_row *r)
{
    const mmaref_instr *v = &x->view;
    return x->fa.man_bits > 0 && x->fb.man_bits > 0 && value_bits(v->c, 1, 0, 1, r->c) &&
           value_bits(v->a, 1 + ldexp(1, -mmaref_format_precision(v->a)), 0, 0, &r->a[0]) &&
           value_bits(v->b, 1 + ldexp(1, -mmaref_format_precision(v->b)), 0, 0, &r->b[0]);
}

/* Each builds its row on a base row and says whether the formats can ask it. */
static const struct {
    int (*build)(const xp_ctx *x, const xp_row *r);
    const char *label;
} questions[] = {
    {nan_a, "NaN encoding: a[0] is NaN"},
    {nan_c, "NaN encoding: C is NaN"},
    {nan_c_payload, "NaN encoding: C is a NaN of the other sign"},
    {f16_operands, "f16 operands: a[0], a[1] FP8 subnormals times the largest power of two 2^k and 2^(k - F + man - 1)"},
    {inf_a, "infinity: a[0] = +inf"},
    {inf_times_zero, "invalid: a[0] = +inf times b[0] = 0"},
    {inf_minus_inf, "invalid: products +inf and -inf"},
    {inf_c, "infinity: C = -inf"},
    {overflow, "overflow: every a, b and C at its largest finite value"},
    {zero_plus, "sign of zero: C = -0, every product +0 x +0"},
    {zero_minus, "sign of zero: C = -0, every product -0 x +0"},
    {zero_minus_signed, "sign of zero: C = -0, every product +0 x -1"},
    {zero_cancel, "sign of zero: exact cancellation C = -1, a[0] b[0] = 1"},
    {subnormal_a, "subnormal input: a[0] is A's smallest subnormal, b[0] a large power of two"},
    {subnormal_c_min, "subnormal C: C is C's smallest positive subnormal, every product +0"},
    {subnormal_c_max, "subnormal C: C is -(C's largest subnormal), every product +0"},
    {zero_term, "zero term: C = -(a subnormal), every product +0 x B's largest power of two"},
    {exact_products, "exact products: C = -1, a[0] = b[0] = 1 + ulp"},
};
enum { QUESTIONS = sizeof questions / sizeof questions[0] };

/* ---- the walk over the experiments ----
 * Each part knows how many vectors a block of it holds; a block that does not hold the one wanted is
 * counted and passed over. */

typedef struct {
    const xp_ctx *x;
    uint64_t want, n;  /* the vector wanted (UINT64_MAX: only count), vectors so far */
    const xp_row *row; /* where the one wanted is built (NULL: only count) */
    const char *label; /* the wanted one's */
} walk;

/* A block of n vectors with the given label: 1 (and *at, the wanted one's place in it) when it holds
 * the one wanted. */
static int block(walk *w, uint64_t n, const char *label, uint64_t *at)
{
    int hit = w->want >= w->n && w->want - w->n < n;
    if (hit)
        *at = w->want - w->n, w->label = label;
    w->n += n;
    return hit;
}

/* Whether the formats can ask a question is what its build says; counting, it builds into scratch. */
static void walk_questions(walk *w)
{
    uint64_t c, a[MMAREF_MAX_K], b[MMAREF_MAX_K], s[MMAREF_MAX_K];
    xp_row scratch = {&c, a, b, s, s};
    for (int i = 0; i < QUESTIONS && w->n <= w->want; i++) {
        uint64_t at;
        if (questions[i].build(w->x, &scratch) && block(w, 1, questions[i].label, &at) && w->row)
            questions[i].build(w->x, w->row);
    }
}

/* -- the alignment ladder -- */

static const char *const ladder_labels[LAYOUTS] = {
    "alignment ladder: a0b0 = 2^E, a1b1 = -2^E, a2b2 = +-s 2^(E-j)",
    "alignment ladder: C = 2^E, a0b0 = -2^E, a1b1 = +-s 2^(E-j)",
    "alignment ladder: a0b0 = 2^E, a1b1 = -2^E, C = +-s 2^(E-j)",
    "alignment ladder: C = 2^E, a0b0 = -2^E, last product +-s 2^(E-j)",
    "alignment ladder: first product 2^E, middle -2^E, last +-s 2^(E-j)",
    "alignment ladder: last product 2^E, one before -2^E, first +-s 2^(E-j)",
    "alignment ladder: first product 2^E, last -2^E, middle +-s 2^(E-j)",
    "alignment ladder, two small terms: C = 2^E, last product -2^E, products K/2-1, K/2 both +-s 2^(E-j)",
    "alignment ladder, two small terms: C = 2^E, last product -2^E, products K/4-1, K/4 both +-s 2^(E-j)",
    "alignment ladder, two small terms: C = 2^E, last product -2^E, products K/8-1, K/8 both +-s 2^(E-j)",
};

/* One layout of the ladder: the big terms 2^E and -2^E at at[0], at[1], the small term(s) at at[2]
 * (and at[3]), each small term's exponents per (si, neg), and the rows j = 0 .. j_end - 1. */
typedef struct {
    place at[4];
    int nterms, E, j_end;
    span small[2][2];
} ladder;

/* Layout l's lanes (-1: C; NO_LANE: no second small term): the terms in one pass, spread over the passes
 * and blocks, C as a big term, as the small one, or not at all (FDRDA aligns C apart from the products);
 * then two small terms either side of a boundary of groups and passes of K/2, K/4, K/8.  0 when K lanes
 * cannot hold it. */
static int layout_lanes(int K, int l, int pos[4])
{
    const int lanes[LAYOUTS][4] = {
        {0, 1, 2, NO_LANE}, {-1, 0, 1, NO_LANE}, {0, 1, -1, NO_LANE}, {-1, 0, K - 1, NO_LANE},
        {0, K / 2, K - 1, NO_LANE}, {K - 1, K - 2, 0, NO_LANE}, {0, K - 1, K / 2, NO_LANE},
        {-1, K - 1, K / 2 - 1, K / 2}, {-1, K - 1, K / 4 - 1, K / 4}, {-1, K - 1, K / 8 - 1, K / 8}};
    memcpy(pos, lanes[l], sizeof lanes[l]);
    int n = pos[3] == NO_LANE ? 3 : 4, ok = 1;
    for (int t = 0; t < n; t++) {
        ok &= pos[t] < K && pos[t] >= -1;
        for (int u = 0; u < t; u++)
            ok &= pos[t] != pos[u];
    }
    return ok;
}

/* The rungs j at which the small term(s) (sigs[si], sign neg) can be placed: an interval. */
static span ladder_js(const ladder *L, int si, int neg)
{
    return (span){L->E - L->small[si][neg].hi, L->E - L->small[si][neg].lo};
}

/* The first rung from j on at which no small term can be placed. */
static int ladder_gap(const ladder *L, int j)
{
    for (int moved = 1; moved;) {
        moved = 0;
        for (int si = 0; si < 2; si++)
            for (int neg = 0; neg < 2; neg++)
                if (in_span(ladder_js(L, si, neg), j))
                    j = ladder_js(L, si, neg).hi + 1, moved = 1;
    }
    return j;
}

/* Layout l for this instruction; 0 when it has no rows. */
static int ladder_init(const xp_ctx *x, int l, ladder *L)
{
    int pos[4];
    if (!layout_lanes(x->K, l, pos))
        return 0;
    L->nterms = pos[3] == NO_LANE ? 3 : 4;
    /* a term may move its exponent into its block's scales when every term sharing the block is of its
     * own size (big: terms 0 and 1; small: 2 and 3) */
    for (int t = 0; t < L->nterms; t++) {
        L->at[t] = (place){pos[t], x->S && pos[t] >= 0};
        for (int u = 0; u < L->nterms && L->at[t].scaled; u++)
            if (pos[u] >= 0 && (u < 2) != (t < 2) &&
                pos[u] / x->view.block_size == pos[t] / x->view.block_size)
                L->at[t].scaled = 0;
    }
    /* the largest E both big terms can take */
    span b0 = term_span(x, L->at[0], 0, 0), b1 = term_span(x, L->at[1], 0, 1);
    L->E = min_of(x->cap, min_of(b0.hi, b1.hi));
    if (L->E < max_of(b0.lo, b1.lo) || L->E <= -160)
        return 0;
    for (int si = 0; si < 2; si++)
        for (int neg = 0; neg < 2; neg++) {
            span s = term_span(x, L->at[2], si, neg);
            if (L->nterms == 4) {
                span s3 = term_span(x, L->at[3], si, neg);
                s.lo = max_of(s.lo, s3.lo), s.hi = min_of(s.hi, s3.hi);
            }
            L->small[si][neg] = s;
        }
    /* j while some small term is there (the first three whatever) */
    L->j_end = min_of(ladder_gap(L, 3), LADDER_J + 1);
    return 1;
}

static uint64_t ladder_count(const ladder *L)
{
    uint64_t n = 0;
    for (int si = 0; si < 2; si++)
        for (int neg = 0; neg < 2; neg++) {
            span js = ladder_js(L, si, neg);
            int lo = max_of(js.lo, 0), hi = min_of(js.hi, L->j_end - 1);
            n += (uint64_t)(hi >= lo ? hi - lo + 1 : 0);
        }
    return n;
}

/* Row `at` of the layout: j-major, then s = 1, 1.5, then +, -. */
static void ladder_row(const xp_ctx *x, const ladder *L, uint64_t at, const xp_row *r)
{
    for (int j = 0; j < L->j_end; j++)
        for (int si = 0; si < 2; si++)
            for (int neg = 0; neg < 2; neg++) {
                if (!in_span(L->small[si][neg], L->E - j) || at--)
                    continue;
                put_term(x, r, L->at[0], 0, L->E, 0);
                put_term(x, r, L->at[1], 0, L->E, 1);
                for (int t = 2; t < L->nterms; t++)
                    put_term(x, r, L->at[t], si, L->E - j, neg);
                return;
            }
}

static void walk_ladders(walk *w)
{
    for (int l = 0; l < LAYOUTS && w->n <= w->want; l++) {
        ladder L;
        uint64_t at;
        if (ladder_init(w->x, l, &L) && block(w, ladder_count(&L), ladder_labels[l], &at) && w->row)
            ladder_row(w->x, &L, at, w->row);
    }
}

/* -- the rounding ladder -- */

static const char rounding_label[] =
    "rounding ladder: C = 2^E, a0b0 = +-2^(E-p-1 or 2), a product +-2^(E-p-1-m)";

/* C = 2^E alone at the top, a0b0 = (-1)^neg 2^(E-h) (h = D's precision + 1 or + 2: the midpoints above
 * and below 2^E), and (-1)^neg2 2^(E-h-m) at `lane`, m = 1..40.  With scales, a product alone in its
 * block may take its own. */
typedef struct {
    place first, second;
    int E, h, neg;
} rounding;

/* Valid m at the rung: those that put the second product within its range. */
static int rounding_m(const xp_ctx *x, const rounding *R, int neg2, int *m_lo, int *m_hi)
{
    span s = term_span(x, R->second, 0, neg2);
    *m_lo = max_of(1, R->E - R->h - s.hi);
    *m_hi = min_of(ROUNDING_M, R->E - R->h - s.lo);
    return in_span(x->c[0][0], R->E) && in_span(term_span(x, R->first, 0, R->neg), R->E - R->h) && *m_lo <= *m_hi;
}

static uint64_t rounding_count(const xp_ctx *x, const rounding *R)
{
    uint64_t n = 0;
    for (int neg2 = 0; neg2 < 2; neg2++) {
        int lo, hi;
        if (rounding_m(x, R, neg2, &lo, &hi))
            n += (uint64_t)(hi - lo + 1);
    }
    return n;
}

/* Row `at` of the rung: m-major, then +, -. */
static void rounding_row(const xp_ctx *x, const rounding *R, uint64_t at, const xp_row *r)
{
    int lo[2], hi[2], ok[2];
    for (int neg2 = 0; neg2 < 2; neg2++)
        ok[neg2] = rounding_m(x, R, neg2, &lo[neg2], &hi[neg2]);
    for (int m = 1; m <= ROUNDING_M; m++)
        for (int neg2 = 0; neg2 < 2; neg2++) {
            if (!ok[neg2] || m < lo[neg2] || m > hi[neg2] || at--)
                continue;
            put_term(x, r, (place){-1, 0}, 0, R->E, 0);
            put_term(x, r, R->first, 0, R->E - R->h, R->neg);
            put_term(x, r, R->second, 0, R->E - R->h - m, neg2);
            return;
        }
}

/* The rungs of the ladder with the second product at `lane`: every precision P D's format is written
 * with, E the largest for which 2^(E-P-2) is a product. */
static void walk_rounding(walk *w, int lane)
{
    const xp_ctx *x = w->x;
    int own = x->S && lane / x->view.block_size != 0, done[64] = {0};
    for (int o = 0; o < MMAREF_OUT_COUNT && w->n <= w->want; o++) {
        int P = mmaref_output_precision((mmaref_output)o);
        if (mmaref_output_format((mmaref_output)o) != x->view.d || P <= 0 || P >= 64 || done[P]++)
            continue;
        rounding R = {{0, own}, {lane, own}, 0, 0, 0};
        span c = x->c[0][0], p = term_span(x, R.first, 0, 0);
        R.E = min_of(x->cap, min_of(c.hi, p.hi + P + 2));
        if (R.E < max_of(c.lo, p.lo + P + 2) || R.E <= -100)
            R.E = -100; /* none: the rows below that the formats still hold */
        for (R.h = P + 1; R.h <= P + 2; R.h++)
            for (R.neg = 0; R.neg < 2 && w->n <= w->want; R.neg++) {
                uint64_t at;
                if (block(w, rounding_count(x, &R), rounding_label, &at) && w->row)
                    rounding_row(x, &R, at, w->row);
            }
    }
}

static void walk_all(walk *w)
{
    walk_questions(w);
    walk_ladders(w);
    if (w->x->K >= 2) /* the second product in the last lane (another pass, another block), and next to the first */
        walk_rounding(w, w->x->K - 1);
    if (w->x->K >= 3)
        walk_rounding(w, 1);
}

/* ---- the indexed family (gen_sets.h) ---- */

uint64_t gen_experiments_count(const mmaref_instr *in)
{
    xp_ctx x;
    if (ctx_init(&x, in))
        return 0;
    walk w = {&x, UINT64_MAX, 0, NULL, NULL};
    walk_all(&w);
    return w.n;
}

const char *gen_experiments_vector(const mmaref_instr *in, uint64_t idx, uint64_t *c, uint64_t *a, uint64_t *b,
                                   uint64_t *sa, uint64_t *sb)
{
    xp_ctx x;
    if (ctx_init(&x, in) || (mmaref_scale_count(in) && (!sa || !sb)))
        return NULL;
    xp_row r = {c, a, b, sa, sb};
    walk w = {&x, idx, 0, &r, NULL};
    walk_all(&w);
    return w.label;
}
