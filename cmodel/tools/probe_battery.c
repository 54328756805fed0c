/* mmaref probe: the queries.  A fixed battery given the formats, K and scales (nothing depends on an
 * answer, so a GPU can run it offline): the MMA-Sim paper's experiments (section III) written as
 * dot-adds, the library's directed corner cases and random vectors; then the confirmation stream. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "probe.h"

/* Random vectors in the battery (the library's random stream, seed 0x9e0be) and the seed-offset of the
 * confirmation stream, so the two never share a vector. */
enum { BATTERY_RANDOM = 1500, BATTERY_CANCEL = 500, BATTERY_CLUSTER = 500 };
#define BATTERY_SEED 0x9e0beULL

static int K_of(const probe_queries *q) { return q->shape.k; }
static int S_of(const probe_queries *q) { return mmaref_scale_count(&q->shape); }
static uint64_t *c_of(uint64_t *row) { return row; }
static uint64_t *a_of(const probe_queries *q, uint64_t *row)
{
    (void)q;
    return row + 1;
}
static uint64_t *b_of(const probe_queries *q, uint64_t *row) { return row + 1 + K_of(q); }
static uint64_t *sa_of(const probe_queries *q, uint64_t *row) { return row + 1 + 2 * K_of(q); }
static uint64_t *sb_of(const probe_queries *q, uint64_t *row) { return row + 1 + 2 * K_of(q) + S_of(q); }

size_t probe_total(const probe_queries *q) { return q->battery + q->confirm; }

void probe_row(const probe_queries *q, size_t i, uint64_t *row)
{
    if (i < q->battery) {
        memcpy(row, q->rows + i * q->nvals, q->nvals * sizeof *row);
        return;
    }
    int S = S_of(q);
    mmaref_gen_vector(&q->shape, MMAREF_GEN_RANDOM, q->seed, i - q->battery, c_of(row), a_of(q, row),
                      b_of(q, row), S ? sa_of(q, row) : NULL, S ? sb_of(q, row) : NULL);
}

const char *probe_label(const probe_queries *q, size_t i)
{
    return i < q->battery ? q->label[i] : "confirmation (random stream)";
}

void probe_format_row(const probe_queries *q, const uint64_t *row, char *buf, size_t cap)
{
    const mmaref_instr *s = &q->shape;
    int K = K_of(q);
    size_t len = 0;
    for (int i = 0; i < q->nvals && len + 20 < cap; i++) {
        mmaref_format f = i == 0 ? s->c : i <= K ? s->a : i <= 2 * K ? s->b : s->scale;
        if (i)
            buf[len++] = ' ';
        buf[len++] = '0';
        buf[len++] = 'x';
        len = (size_t)(cli_put_hex(buf + len, row[i], cli_hex_digits(f)) - buf);
    }
    buf[len] = 0;
}

int probe_dot(const mmaref_instr *in, const probe_queries *q, const uint64_t *row, uint64_t *d)
{
    int K = K_of(q), S = S_of(q);
    return mmaref_dot(in, row[0], row + 1, row + 1 + K, S ? row + 1 + 2 * K : NULL,
                      S ? row + 1 + 2 * K + S : NULL, d, NULL, 0) != MMAREF_OK;
}

static int is_nan(mmaref_format f, uint64_t x)
{
    double v = mmaref_format_to_double(f, x);
    return v != v;
}

int probe_same(mmaref_format f, uint64_t x, uint64_t y, int nan_any)
{
    if (x == y)
        return 1;
    if (!nan_any)
        return 0;
    mmaref_format part = mmaref_format_part(f);
    for (int i = 0; i < mmaref_format_parts(f); i++) {
        uint64_t u = mmaref_format_part_bits(f, x, i), v = mmaref_format_part_bits(f, y, i);
        if (u != v && !(is_nan(part, u) && is_nan(part, v)))
            return 0;
    }
    return 1;
}

/* ---- building rows ---- */

/* A row of zeros (C = +0, every a and b +0) with every block scale 1. */
static uint64_t *new_row(probe_queries *q, const char *label)
{
    if (q->battery == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 1024;
        q->rows = realloc(q->rows, q->cap * q->nvals * sizeof *q->rows);
        q->label = realloc(q->label, q->cap * sizeof *q->label);
        if (!q->rows || !q->label) {
            fprintf(stderr, "mmaref: probe: out of memory\n");
            exit(2);
        }
    }
    uint64_t *row = q->rows + q->battery * q->nvals;
    memset(row, 0, q->nvals * sizeof *row);
    uint64_t one = 0;
    if (S_of(q))
        mmaref_format_round_double(q->shape.scale, 1.0, &one);
    for (int i = 0; i < 2 * S_of(q); i++)
        sa_of(q, row)[i] = one;
    q->label[q->battery++] = label;
    return row;
}

static void drop_row(probe_queries *q) { q->battery--; }

/* Bits of (-1)^neg sig 2^e in f, when exactly representable. */
static int value_bits(mmaref_format f, double sig, int e, int neg, uint64_t *bits)
{
    double x = ldexp(neg ? -sig : sig, e);
    return x != 0 && !isinf(x) && mmaref_format_from_double(f, x, bits) == MMAREF_OK;
}

static int exp_of_max(mmaref_format f)
{
    mmaref_format_info fi;
    mmaref_format_get_info(mmaref_format_part(f), &fi);
    return ilogb(mmaref_format_to_double(mmaref_format_part(f), fi.max_finite));
}

/* The exponents of the powers of two f holds: its smallest subnormal (or normal) to its largest. */
static void exp_range(mmaref_format f, int *lo, int *hi)
{
    mmaref_format_info fi;
    mmaref_format_get_info(mmaref_format_part(f), &fi);
    *hi = exp_of_max(f);
    *lo = 1 - fi.bias - (fi.specials == MMAREF_SPECIALS_E8M0 ? 1 : fi.man_bits); /* ue8m0: 2^-127 */
}

/* Put the product (-1)^neg sig 2^e at lane k: a carries sig and the sign, the exponent split between a
 * and b (as evenly as their formats allow).  With may_scale (block scales, and no term of another size
 * in lane k's block) the block's two scales may carry part of the exponent: 2^t, tried from t = 0
 * outward, so that terms of one size in one block choose the same scales.  Returns 1 on success. */
static int put_product(probe_queries *q, uint64_t *row, int k, double sig, int e, int neg, int may_scale)
{
    mmaref_format A = q->shape.a, B = q->shape.b;
    int lo_a, hi_a, lo_b, hi_b, lo_s = 0, hi_s = 0;
    exp_range(A, &lo_a, &hi_a);
    exp_range(B, &lo_b, &hi_b);
    may_scale = may_scale && S_of(q);
    if (may_scale)
        exp_range(q->shape.scale, &lo_s, &hi_s);
    int t_lo = 2 * lo_s, t_hi = 2 * hi_s, reach = t_hi > -t_lo ? t_hi : -t_lo;
    for (int d = 0; d <= 2 * reach; d++) {
        int t = d & 1 ? -(d + 1) / 2 : d / 2, et = e - t;
        if (t < t_lo || t > t_hi || et < lo_a + lo_b || et > hi_a + hi_b)
            continue;
        if (may_scale) {
            int blk = k / q->shape.block_size;
            if (!value_bits(q->shape.scale, 1, t / 2, 0, &sa_of(q, row)[blk]) ||
                !value_bits(q->shape.scale, 1, t - t / 2, 0, &sb_of(q, row)[blk]))
                continue;
        }
        /* ea from the middle of what both formats allow outward */
        int ea_lo = lo_a > et - hi_b ? lo_a : et - hi_b, ea_hi = hi_a < et - lo_b ? hi_a : et - lo_b;
        int mid = et / 2 < ea_lo ? ea_lo : et / 2 > ea_hi ? ea_hi : et / 2;
        for (int i = 0; i <= 2 * (ea_hi - ea_lo) + 1; i++) {
            int ea = mid + (i & 1 ? -(i + 1) / 2 : i / 2);
            if (ea < ea_lo || ea > ea_hi)
                continue;
            if (value_bits(A, sig, ea, neg, &a_of(q, row)[k]) && value_bits(B, 1, et - ea, 0, &b_of(q, row)[k]))
                return 1;
        }
    }
    return 0;
}

/* The alignment ladder (the paper's F experiment): a big term 2^E, its negation, and a small term
 * ±sig 2^(E - j) for j = 0, 1, ...: the two big ones cancel, so D shows whether (and how rounded) the
 * small term survived the alignment to e_max = E.  pos[] places the terms: a lane, or -1 for C; pos[3],
 * when not -2, a second small term equal to the first (in another group or pass, it is truncated on
 * its own; in the same, together with the first). */
static void ladder(probe_queries *q, const int pos[4], const char *label)
{
    const mmaref_instr *s = &q->shape;
    int cap = exp_of_max(s->d) - 2, E = 0, found = 0, nterms = pos[3] == -2 ? 3 : 4;
    if (exp_of_max(s->c) - 2 < cap)
        cap = exp_of_max(s->c) - 2;
    /* a term may move its exponent into its block's scales when every term sharing the block is of
     * its own size (big: terms 0 and 1; small: 2 and 3) */
    int may_scale[4] = {0, 0, 0, 0};
    for (int t = 0; t < nterms && S_of(q); t++) {
        may_scale[t] = pos[t] >= 0;
        for (int u = 0; u < nterms; u++)
            if (pos[t] >= 0 && pos[u] >= 0 && (u < 2) != (t < 2) &&
                pos[u] / s->block_size == pos[t] / s->block_size)
                may_scale[t] = 0;
    }
    for (E = cap; E > -160 && !found; E--) { /* the largest E both big terms can take */
        uint64_t *row = new_row(q, label);
        found = 1;
        for (int t = 0; t < 2 && found; t++)
            found = pos[t] < 0 ? value_bits(s->c, 1, E, t, c_of(row)) : put_product(q, row, pos[t], 1, E, t, may_scale[t]);
        drop_row(q);
        if (found)
            break;
    }
    if (!found)
        return;
    static const double sigs[2] = {1.0, 1.5};
    for (int j = 0; j <= 80; j++) {
        int any = 0;
        for (int si = 0; si < 2; si++)
            for (int neg = 0; neg < 2; neg++) {
                uint64_t *row = new_row(q, label);
                int ok = 1;
                for (int t = 0; t < nterms && ok; t++) {
                    int e = t < 2 ? E : E - j, sg = t < 2 ? t : neg;
                    double sig = t < 2 ? 1.0 : sigs[si];
                    ok = pos[t] < 0 ? value_bits(s->c, sig, e, sg, c_of(row))
                                    : put_product(q, row, pos[t], sig, e, sg, may_scale[t]);
                }
                if (ok)
                    any = 1;
                else
                    drop_row(q);
            }
        if (!any && j > 2)
            break;
    }
}

/* The rounding ladder: C = 2^E alone at the top, a product ±2^(E-h) at lane 0 that puts the exact sum
 * on a rounding boundary of D (h = D's precision + 1 or + 2: the midpoints above and below 2^E), and a
 * second product ±2^(E-h-m), m = 1, 2, ..., at `lane`: D shows on which side of the boundary each
 * rounding (of the aligned products, of C, of the normalization) leaves the sum (CDNA3's round-down of
 * the fused dot against RZ, RNE's ties against RZ). */
static void rounding_ladder(probe_queries *q, int lane)
{
    const mmaref_instr *s = &q->shape;
    /* with scales, a product alone in its block may take its own */
    int own = S_of(q) && lane / s->block_size != 0, done[64] = {0};
    for (int o = 0; o < MMAREF_OUT_COUNT; o++) { /* every precision D's format is written with */
        int P = mmaref_output_precision((mmaref_output)o);
        if (mmaref_output_format((mmaref_output)o) != s->d || P <= 0 || P >= 64 || done[P]++)
            continue;
        int E = exp_of_max(s->d) - 2 < exp_of_max(s->c) - 2 ? exp_of_max(s->d) - 2 : exp_of_max(s->c) - 2;
        for (; E > -100; E--) { /* the largest E for which 2^(E-P-2) is a product */
            uint64_t *row = new_row(q, "");
            int ok = value_bits(s->c, 1, E, 0, c_of(row)) && put_product(q, row, 0, 1, E - P - 2, 0, own);
            drop_row(q);
            if (ok)
                break;
        }
        for (int h = P + 1; h <= P + 2; h++)
            for (int neg = 0; neg < 2; neg++)
                for (int m = 1; m <= 40; m++)
                    for (int neg2 = 0; neg2 < 2; neg2++) {
                        uint64_t *row = new_row(q, "rounding ladder: C = 2^E, a0b0 = +-2^(E-p-1 or 2), a product +-2^(E-p-1-m)");
                        if (!value_bits(s->c, 1, E, 0, c_of(row)) || !put_product(q, row, 0, 1, E - h, neg, own) ||
                            !put_product(q, row, lane, 1, E - h - m, neg2, own))
                            drop_row(q);
                    }
    }
}

/* The special-value and rounding experiments: one row each, labelled with what it asks. */
static void specials(probe_queries *q)
{
    const mmaref_instr *s = &q->shape;
    int K = K_of(q);
    mmaref_format_info fa, fb, fc;
    mmaref_format_get_info(mmaref_format_part(s->a), &fa);
    mmaref_format_get_info(mmaref_format_part(s->b), &fb);
    mmaref_format_get_info(mmaref_format_part(s->c), &fc);
    uint64_t one_b = 0, *row;
    value_bits(s->b, 1, 0, 0, &one_b);
    if (fa.has_nan) {
        row = new_row(q, "NaN encoding: a[0] is NaN");
        a_of(q, row)[0] = fa.nan, b_of(q, row)[0] = one_b;
    }
    if (fc.has_nan) {
        row = new_row(q, "NaN encoding: C is NaN");
        row[0] = fc.nan;
    }
    if (fa.has_inf) {
        row = new_row(q, "infinity: a[0] = +inf");
        a_of(q, row)[0] = fa.inf, b_of(q, row)[0] = one_b;
        row = new_row(q, "invalid: a[0] = +inf times b[0] = 0");
        a_of(q, row)[0] = fa.inf;
        if (K >= 2) {
            row = new_row(q, "invalid: products +inf and -inf");
            a_of(q, row)[0] = fa.inf, b_of(q, row)[0] = one_b;
            a_of(q, row)[1] = fa.inf, value_bits(s->b, 1, 0, 1, &b_of(q, row)[1]);
        }
    }
    if (fc.has_inf) {
        row = new_row(q, "infinity: C = -inf");
        row[0] = fc.inf | (1ULL << (mmaref_format_width(mmaref_format_part(s->c)) - 1));
    }
    row = new_row(q, "overflow: every a, b and C at its largest finite value");
    row[0] = fc.max_finite;
    for (int k = 0; k < K; k++)
        a_of(q, row)[k] = fa.max_finite, b_of(q, row)[k] = fb.max_finite;
    if (fc.has_sign) {
        row = new_row(q, "sign of zero: C = -0, every product +0 x +0");
        row[0] = 1ULL << (mmaref_format_width(mmaref_format_part(s->c)) - 1);
        if (fa.has_sign) {
            row = new_row(q, "sign of zero: C = -0, every product -0 x +0");
            row[0] = 1ULL << (mmaref_format_width(mmaref_format_part(s->c)) - 1);
            for (int k = 0; k < K; k++)
                a_of(q, row)[k] = 1ULL << (mmaref_format_width(mmaref_format_part(s->a)) - 1);
        }
        row = new_row(q, "sign of zero: exact cancellation C = -1, a[0] b[0] = 1");
        if (!value_bits(s->c, 1, 0, 1, c_of(row)) || !put_product(q, row, 0, 1, 0, 0, 0))
            drop_row(q);
    }
    /* subnormal A in, its product kept in D's normal range when possible */
    if (fa.exp_bits > 0 && fa.man_bits > 0) {
        row = new_row(q, "subnormal input: a[0] is A's smallest subnormal, b[0] a large power of two");
        a_of(q, row)[0] = 1;
        int eb = exp_of_max(s->b);
        while (eb > 0 && !value_bits(s->b, 1, eb, 0, &b_of(q, row)[0]))
            eb--;
    }
    if (fc.exp_bits > 0 && fc.man_bits > 0) {
        row = new_row(q, "subnormal C: C is C's smallest positive subnormal, every product +0");
        row[0] = 1;
        row = new_row(q, "subnormal C: C is -(C's largest subnormal), every product +0");
        row[0] = ((1ULL << fc.man_bits) - 1) | 1ULL << (mmaref_format_width(mmaref_format_part(s->c)) - 1);
    }
    /* product exactness: (1 + u)^2 - 1 = 2u + u^2 needs the product's low bit */
    if (fa.man_bits > 0 && fb.man_bits > 0) {
        row = new_row(q, "exact products: C = -1, a[0] = b[0] = 1 + ulp");
        int ua = mmaref_format_precision(mmaref_format_part(s->a));
        int ub = mmaref_format_precision(mmaref_format_part(s->b));
        if (!value_bits(s->c, 1, 0, 1, c_of(row)) || !value_bits(s->a, 1 + ldexp(1, -ua), 0, 0, &a_of(q, row)[0]) ||
            !value_bits(s->b, 1 + ldexp(1, -ub), 0, 0, &b_of(q, row)[0]))
            drop_row(q);
    }
}

static void generated(probe_queries *q, mmaref_gen_kind kind, uint64_t n, const char *label)
{
    int S = S_of(q);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t *row = new_row(q, label);
        mmaref_gen_vector(&q->shape, kind, BATTERY_SEED, i, c_of(row), a_of(q, row), b_of(q, row),
                          S ? sa_of(q, row) : NULL, S ? sb_of(q, row) : NULL);
    }
}

int probe_build(probe_queries *q)
{
    int K = K_of(q), S = S_of(q);
    q->nvals = 1 + 2 * K + 2 * S;
    specials(q);
    /* The ladders, with the terms in one pass and spread over the passes and blocks; C as a big term,
     * as the small one, or not at all (FDRDA aligns C apart from the products). */
    int layouts[][4] = {{0, 1, 2, -2}, {-1, 0, 1, -2}, {0, 1, -1, -2}, {-1, 0, K - 1, -2}, {0, K / 2, K - 1, -2},
                        {K - 1, K - 2, 0, -2}, {0, K - 1, K / 2, -2},
                        /* two small terms either side of a boundary: groups and passes of K/2, K/4, K/8 */
                        {-1, K - 1, K / 2 - 1, K / 2}, {-1, K - 1, K / 4 - 1, K / 4}, {-1, K - 1, K / 8 - 1, K / 8}};
    static const char *const names[] = {
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
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
        const int *p = layouts[l];
        int n = p[3] == -2 ? 3 : 4, ok = 1;
        for (int t = 0; t < n; t++) {
            ok &= p[t] < K && p[t] >= -1;
            for (int u = 0; u < t; u++)
                ok &= p[t] != p[u];
        }
        if (ok)
            ladder(q, p, names[l]);
    }
    if (K >= 2) /* the second product in the last lane (another pass, another block), and next to the first */
        rounding_ladder(q, K - 1);
    if (K >= 3)
        rounding_ladder(q, 1);
    generated(q, MMAREF_GEN_DIRECTED, mmaref_gen_directed_count(&q->shape), "directed corner case");
    generated(q, MMAREF_GEN_CANCEL, BATTERY_CANCEL, "random (cancellation)");
    generated(q, MMAREF_GEN_CLUSTER, BATTERY_CLUSTER, "random (clustered exponents)");
    generated(q, MMAREF_GEN_RANDOM, BATTERY_RANDOM, "random (mixed kinds)");
    return 0;
}

void probe_free(probe_queries *q)
{
    free(q->rows);
    free(q->label);
    q->rows = NULL;
    q->label = NULL;
}
