/* mmaref diff ARCH1 INSTR1 ARCH2 INSTR2: the same dot-adds through two instructions (any vendors),
 * how often and by how many ulps they differ, and the simplest differing input found.
 *
 * Inputs are drawn in the narrower of the two operand formats and kept only when exactly representable
 * in the other, so both instructions see the same numbers.  K is the smaller of the two; the larger
 * instruction's remaining operands are +0.  Block-scaled instructions get unit scales.  Any NaN equals any
 * NaN (the vendors' NaN payloads differ and MFMA's is unmodelled). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "expansion.h"

static const char usage[] =
    "usage: mmaref diff ARCH1 INSTR1 ARCH2 INSTR2 [--random N] [--seed S] [--dist mixed|bits|normal]\n"
    "  Feeds the same random dot-adds to both instructions and reports how often the results differ and\n"
    "  by how many ulps (of the coarser D format), then the simplest differing input found (products\n"
    "  removed and values simplified while the results still differ) with the 'mmaref dot' lines that\n"
    "  reproduce it.  Values are drawn in the narrower operand format and kept only if the other format\n"
    "  holds them exactly; K is the smaller K (the other instruction's extra operands are +0); block-scaled\n"
    "  instructions get scale factors 1.  Any NaN matches any NaN.\n"
    "  --random N   number of random dot-adds (default 10000)\n"
    "  --seed S     random seed (default 1)\n"
    "  --dist D     bits: raw bit patterns; normal: N(0,1); mixed (default): a third each of bits, normal,\n"
    "               and values spread over 2^-20..2^20\n"
    "  Exit status: 0 no difference, 1 some differ, 2 usage or input error.\n";

enum { DIFF_MAX_K = 256, MINIMIZE_FIRST = 24 };

typedef enum { DIST_MIXED, DIST_BITS, DIST_NORMAL } diff_dist;

typedef struct {
    mmaref_instr in[2];
    int K;
    uint64_t sa[2][64], sb[2][64];      /* unit scale factors */
    uint64_t seed;
} diff_ctx;

/* One dot-add's operands as values (NaN and infinities included); the bits follow from them. */
typedef struct {
    double a[DIFF_MAX_K], b[DIFF_MAX_K], c;
} vec;

/* ---- random numbers (the library's splitmix64) ---- */

static double rnd_uniform(uint64_t *s) { return ((mmaref_rand(s) >> 11) + 0.5) * 0x1p-53; }

static double rnd_normal(uint64_t *s)
{
    double u = rnd_uniform(s), v = rnd_uniform(s);
    return sqrt(-2.0 * log(u)) * cos(2 * M_PI * v);
}

/* ---- formats ---- */

static int is_exact_in(mmaref_format f, double x, uint64_t *bits)
{
    return mmaref_format_from_double(f, x, bits) == MMAREF_OK;
}

/* The narrower of two formats: fewer mantissa bits, then fewer exponent bits. */
static mmaref_format narrower(mmaref_format x, mmaref_format y)
{
    int mx = mmaref_format_precision(x), my = mmaref_format_precision(y);
    if (mx != my)
        return mx < my ? x : y;
    mmaref_format_info fx, fy;
    mmaref_format_get_info(x, &fx), mmaref_format_get_info(y, &fy);
    return fx.exp_bits <= fy.exp_bits ? x : y;
}

static double round_to(mmaref_format f, double x)
{
    uint64_t bits;
    if (x == 0 || !isfinite(x) || mmaref_format_round_double(f, x, &bits) != MMAREF_OK)
        return x;
    return mmaref_format_to_double(f, bits);
}

/* A random value exactly representable in both formats (0 after too many tries). */
static double draw(uint64_t *s, mmaref_format f1, mmaref_format f2, diff_dist dist)
{
    mmaref_format g = narrower(f1, f2);
    uint64_t t;
    for (int tries = 0; tries < 200; tries++) {
        double x;
        int kind = dist == DIST_MIXED ? (int)(mmaref_rand(s) % 3) : dist == DIST_BITS ? 0 : 1;
        if (kind == 0) {
            int w = mmaref_format_width(g);
            x = mmaref_format_to_double(g, w == 64 ? mmaref_rand(s) : mmaref_rand(s) & ((1ULL << w) - 1));
        } else if (kind == 1) {
            x = round_to(g, rnd_normal(s));
        } else {
            x = round_to(g, ldexp(1 + rnd_uniform(s), (int)(mmaref_rand(s) % 41) - 20) * (mmaref_rand(s) & 1 ? -1 : 1));
        }
        if (is_exact_in(f1, x, &t) && is_exact_in(f2, x, &t))
            return x;
    }
    return 0;
}

/* ---- running both instructions ---- */

/* Bits of v for instruction i; nonzero if some value does not fit its format. */
static int to_bits(const diff_ctx *x, int i, const vec *v, uint64_t *a, uint64_t *b, uint64_t *c)
{
    const mmaref_instr *in = &x->in[i];
    for (int k = 0; k < in->k; k++) {
        double va = k < x->K ? v->a[k] : 0, vb = k < x->K ? v->b[k] : 0;
        if (!is_exact_in(in->a, va, &a[k]) || !is_exact_in(in->b, vb, &b[k]))
            return 1;
    }
    return !is_exact_in(in->c, v->c, c);
}

/* Runs both; returns -1 if v is not representable, else 0 with d[0], d[1]. */
static int run_both(const diff_ctx *x, const vec *v, uint64_t d[2])
{
    for (int i = 0; i < 2; i++) {
        uint64_t a[DIFF_MAX_K], b[DIFF_MAX_K], c;
        const mmaref_instr *in = &x->in[i];
        if (to_bits(x, i, v, a, b, &c))
            return -1;
        int ns = mmaref_scale_count(in);
        if (mmaref_dot(in, c, a, b, ns ? x->sa[i] : NULL, ns ? x->sb[i] : NULL, &d[i], NULL, 0))
            return -1;
    }
    return 0;
}

/* How two results compare. */
typedef enum { SAME, DIFF_FINITE, DIFF_ZERO_SIGN, DIFF_SPECIAL } diff_kind;

/* Any NaN equals any NaN; +0 and -0 differ (DIFF_ZERO_SIGN); a NaN or infinity against anything else is
 * DIFF_SPECIAL; otherwise *ulps is the distance in ulps of the coarser D format at the larger magnitude. */
static diff_kind compare(const diff_ctx *x, const uint64_t d[2], double *ulps)
{
    mmaref_format f0 = x->in[0].d, f1 = x->in[1].d;
    double v0 = mmaref_format_to_double(f0, d[0]), v1 = mmaref_format_to_double(f1, d[1]);
    *ulps = 0;
    if (isnan(v0) || isnan(v1))
        return isnan(v0) && isnan(v1) ? SAME : DIFF_SPECIAL;
    if (v0 == v1)
        return signbit(v0) == signbit(v1) ? SAME : DIFF_ZERO_SIGN;
    if (isinf(v0) || isinf(v1))
        return DIFF_SPECIAL;
    mmaref_format g = narrower(f0, f1);
    mmaref_format_info fg;
    mmaref_format_get_info(g, &fg);
    int e = ilogb(fmax(fabs(v0), fabs(v1))), e_min = 1 - fg.bias;
    if (e < e_min)
        e = e_min;
    *ulps = fabs(v0 - v1) / ldexp(1.0, e - mmaref_format_precision(g));
    return DIFF_FINITE;
}

/* Does v give a difference of the given kind? */
static int differs(const diff_ctx *x, const vec *v, diff_kind kind)
{
    uint64_t d[2];
    double u;
    return run_both(x, v, d) == 0 && compare(x, d, &u) == kind;
}

/* ---- simplifying a differing input ---- */

/* Nonzero products, nonzero c, then significant bits: smaller is simpler. */
static double complexity(const diff_ctx *x, const vec *v)
{
    double score = 0;
    for (int k = 0; k < x->K; k++)
        if (v->a[k] != 0 && v->b[k] != 0)
            score += 1000;
    score += v->c != 0 ? 500 : 0;
    double all[2 * DIFF_MAX_K + 1];
    int n = 0;
    for (int k = 0; k < x->K; k++)
        all[n++] = v->a[k], all[n++] = v->b[k];
    all[n++] = v->c;
    for (int i = 0; i < n; i++) {
        double t = all[i];
        if (t == 0 || !isfinite(t))
            continue;
        int e;
        double fr = frexp(fabs(t), &e);
        int bits = 0;
        while (fr != 0 && bits < 60) {
            fr = ldexp(fr, 1);
            fr -= floor(fr);
            bits++;
        }
        score += bits * 10 + abs(e - 1) * 0.1;
    }
    return score;
}

/* Candidate simpler values for t: 0, +-1, the power of two at or below |t|, t with one significant bit
 * fewer (rounded toward zero). */
static int simpler_values(double t, double *out)
{
    int n = 0;
    if (t == 0)
        return 0;
    out[n++] = 0;
    if (!isfinite(t))
        return n;
    double s = t < 0 ? -1 : 1;
    out[n++] = s;
    int e;
    double fr = frexp(fabs(t), &e);
    out[n++] = s * ldexp(1.0, e - 1);
    /* drop the last significant bit */
    int bits = 0;
    double f = fr;
    while (f != 0 && bits < 60) {
        f = ldexp(f, 1);
        f -= floor(f);
        bits++;
    }
    if (bits > 1)
        out[n++] = s * ldexp(floor(ldexp(fr, bits - 1)), e - (bits - 1));
    return n;
}

static void minimize(const diff_ctx *x, vec *v, diff_kind kind)
{
    for (int pass = 0, changed = 1; changed && pass < 40; pass++) {
        changed = 0;
        /* remove whole products first */
        for (int k = 0; k < x->K; k++) {
            if (v->a[k] == 0 && v->b[k] == 0)
                continue;
            vec t = *v;
            t.a[k] = t.b[k] = 0;
            if (differs(x, &t, kind))
                *v = t, changed = 1;
        }
        /* move the remaining products to the front (a shorter list to read) */
        for (int k = 1; k < x->K; k++) {
            int j = 0;
            while (j < k && (v->a[j] != 0 || v->b[j] != 0))
                j++;
            if (j == k || (v->a[k] == 0 && v->b[k] == 0))
                continue;
            vec t = *v;
            t.a[j] = v->a[k], t.b[j] = v->b[k], t.a[k] = t.b[k] = 0;
            if (differs(x, &t, kind))
                *v = t, changed = 1;
        }
        double *slot[2 * DIFF_MAX_K + 1];
        int n = 0;
        slot[n++] = &v->c;
        for (int k = 0; k < x->K; k++)
            slot[n++] = &v->a[k], slot[n++] = &v->b[k];
        for (int i = 0; i < n; i++) {
            double cand[4];
            int nc = simpler_values(*slot[i], cand);
            for (int j = 0; j < nc; j++) {
                double old = *slot[i];
                *slot[i] = cand[j];
                if (differs(x, v, kind)) {
                    changed = 1;
                    break;
                }
                *slot[i] = old;
            }
        }
    }
}

/* ---- printing ---- */

/* A value as the CLI reads it back exactly: short decimal when exact, else a C99 hex float. */
static void value_text(char *buf, size_t cap, double t)
{
    if (isnan(t)) {
        snprintf(buf, cap, "nan");
        return;
    }
    if (isinf(t)) {
        snprintf(buf, cap, t < 0 ? "-inf" : "inf");
        return;
    }
    snprintf(buf, cap, "%.9g", t);
    if (strtod(buf, NULL) != t)
        snprintf(buf, cap, "%a", t);
}

static void list_text(char *buf, size_t cap, const double *vals, int n)
{
    size_t o = 0;
    int last = n - 1;
    while (last > 0 && vals[last] == 0 && !signbit(vals[last]))
        last--;   /* trailing +0 are implied */
    for (int i = 0; i <= last && o + 40 < cap; i++) {
        char t[48];
        value_text(t, sizeof t, vals[i]);
        o += (size_t)snprintf(buf + o, cap - o, "%s%s", i ? "," : "", t);
    }
}

static void print_example(const diff_ctx *x, const vec *v)
{
    uint64_t d[2];
    run_both(x, v, d);
    char la[8192], lb[8192], lc[64];
    list_text(la, sizeof la, v->a, x->K);
    list_text(lb, sizeof lb, v->b, x->K);
    value_text(lc, sizeof lc, v->c);
    printf("  simplest differing input found:\n    a = %s\n    b = %s\n    c = %s\n", la, lb, lc);
    for (int i = 0; i < 2; i++) {
        char dec[64];
        cli_format_decimal(dec, sizeof dec, x->in[i].d, d[i]);
        printf("    %-7s %-40s d = 0x%0*llx %s\n", x->in[i].arch, x->in[i].name, cli_hex_digits(x->in[i].d),
               (unsigned long long)d[i], dec);
    }
    expansion e = {{0}, 0};
    int finite = isfinite(v->c);
    expansion_add(&e, v->c);
    for (int k = 0; k < x->K; k++) {
        finite &= isfinite(v->a[k]) && isfinite(v->b[k]);
        expansion_add_product(&e, v->a[k], v->b[k]);
    }
    if (finite && e.n) {
        /* the exact value as its largest binary64 component plus the (rounded) rest */
        double hi = e.c[e.n - 1], lo = 0;
        for (int i = 0; i < e.n - 1; i++)
            lo += e.c[i];
        if (lo != 0)
            printf("    %-48s   = %.17g %c %.17g (exact c + sum a*b)\n", "exact", hi, lo < 0 ? '-' : '+', fabs(lo));
        else
            printf("    %-48s   = %.17g (exact c + sum a*b)\n", "exact", hi);
    }
    for (int i = 0; i < 2; i++)
        printf("    reproduce: mmaref dot %s %s -a %s -b %s -c %s\n", x->in[i].arch, x->in[i].name, la, lb, lc);
}

static int unit_scales(diff_ctx *x, int i)
{
    int ns = mmaref_scale_count(&x->in[i]);
    uint64_t one;
    if (!ns)
        return 0;
    if (mmaref_format_from_double(x->in[i].scale, 1.0, &one))
        return 1;
    for (int j = 0; j < ns; j++)
        x->sa[i][j] = x->sb[i][j] = one;
    return 0;
}

int cmd_diff(int argc, char **argv)
{
    const char *pos[4] = {0};
    int npos = 0;
    long count = 10000;
    unsigned long long seed = 1;
    diff_dist dist = DIST_MIXED;
    const char *dist_name = "mixed";
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(o, "--random") || !strcmp(o, "--seed") || !strcmp(o, "--dist")) {
            if (i + 1 >= argc)
                return cli_error("diff: %s needs a value", o);
            const char *v = argv[++i];
            uint64_t u;
            if (!strcmp(o, "--random")) {
                if (cli_parse_count(v, 100000000, &count) || count < 1)
                    return cli_error("diff: --random '%s' is not a decimal count from 1 to 100000000", v);
            } else if (!strcmp(o, "--seed")) {
                if (cli_parse_u64(v, &u))
                    return cli_error("diff: --seed '%s' is not a non-negative integer (decimal or 0x hex)", v);
                seed = u;
            } else {
                if (!strcmp(v, "mixed")) dist = DIST_MIXED;
                else if (!strcmp(v, "bits")) dist = DIST_BITS;
                else if (!strcmp(v, "normal")) dist = DIST_NORMAL;
                else return cli_error("diff: --dist is mixed, bits or normal, not '%s'", v);
                dist_name = v;
            }
        } else if (o[0] == '-' && o[1]) {
            return cli_error("diff: unknown option '%s' (see 'mmaref diff --help')", o);
        } else if (npos < 4) {
            pos[npos++] = o;
        } else {
            return cli_error("diff: unexpected argument '%s'", o);
        }
    }
    if (npos < 4)
        return cli_error("diff: needs ARCH1 INSTR1 ARCH2 INSTR2 (see 'mmaref diff --help')");
    diff_ctx x;
    memset(&x, 0, sizeof x);
    if (cli_lookup(pos[0], pos[1], &x.in[0]) || cli_lookup(pos[2], pos[3], &x.in[1]))
        return 2;
    for (int i = 0; i < 2; i++) {
        if (x.in[i].k > DIFF_MAX_K)
            return cli_error("diff: %s has K = %d, more than %d", x.in[i].name, x.in[i].k, DIFF_MAX_K);
        if (unit_scales(&x, i))
            return cli_error("diff: %s: no unit scale factor in %s", x.in[i].name,
                             mmaref_format_name(x.in[i].scale));
    }
    x.K = x.in[0].k < x.in[1].k ? x.in[0].k : x.in[1].k;
    const mmaref_instr *I0 = &x.in[0], *I1 = &x.in[1];

    printf("diff: %s %s vs %s %s\n", I0->arch, I0->name, I1->arch, I1->name);
    printf("  a %s | %s, b %s | %s, c %s | %s, d %s | %s; K = %d", mmaref_format_name(I0->a),
           mmaref_format_name(I1->a), mmaref_format_name(I0->b), mmaref_format_name(I1->b),
           mmaref_format_name(I0->c), mmaref_format_name(I1->c), mmaref_format_name(I0->d),
           mmaref_format_name(I1->d), x.K);
    for (int i = 0; i < 2; i++)
        if (x.in[i].k > x.K)
            printf(" (%s: a[%d..%d] = b[%d..%d] = +0)", x.in[i].arch, x.K, x.in[i].k - 1, x.K, x.in[i].k - 1);
    for (int i = 0; i < 2; i++)
        if (mmaref_scale_count(&x.in[i]))
            printf(" (%s: scale factors 1)", x.in[i].arch);
    printf("\n");

    /* ulp buckets: <=1, 2, 3-4, 5-16, 17-256, >256; +0 vs -0; NaN/inf vs anything else */
    static const char *const bucket_name[] = {"<=1", "2", "3-4", "5-16", "17-256", ">256", "+0/-0",
                                              "nan/inf vs other"};
    long bucket[8] = {0}, ndiff = 0, skipped = 0;
    double max_ulps = 0, sum_ulps = 0;
    vec best, v;
    double best_score = INFINITY;
    int have_best = 0, minimized = 0;
    uint64_t s = seed;
    for (long n = 0; n < count; n++) {
        for (int k = 0; k < x.K; k++) {
            v.a[k] = draw(&s, I0->a, I1->a, dist);
            v.b[k] = draw(&s, I0->b, I1->b, dist);
        }
        v.c = draw(&s, I0->c, I1->c, dist);
        uint64_t d[2];
        if (run_both(&x, &v, d)) {
            skipped++;
            continue;
        }
        double u;
        diff_kind kind = compare(&x, d, &u);
        if (kind == SAME)
            continue;
        ndiff++;
        if (kind == DIFF_FINITE) {
            bucket[u <= 1 ? 0 : u <= 2 ? 1 : u <= 4 ? 2 : u <= 16 ? 3 : u <= 256 ? 4 : 5]++;
            max_ulps = fmax(max_ulps, u);
            sum_ulps += u;
        } else {
            bucket[kind == DIFF_ZERO_SIGN ? 6 : 7]++;
        }
        /* simplify the first differing inputs (finite differences preferred), keep the simplest */
        if (minimized < MINIMIZE_FIRST && (kind == DIFF_FINITE || !have_best)) {
            minimized++;
            vec t = v;
            minimize(&x, &t, kind);
            double sc = complexity(&x, &t) + (kind == DIFF_FINITE ? 0 : 1e6);
            if (sc < best_score)
                best = t, best_score = sc, have_best = 1;
        }
    }
    long tested = count - skipped;
    printf("  %ld random dot-adds (seed %llu, %s): %ld differ (%.2f%%)\n", tested, seed, dist_name, ndiff,
           tested ? 100.0 * ndiff / tested : 0.0);
    if (skipped)
        printf("  (%ld draws not representable in both instructions' formats were skipped)\n", skipped);
    if (!ndiff) {
        printf("  identical on every input tried\n");
        return 0;
    }
    printf("  ulps of difference:");
    for (int b = 0; b < 8; b++)
        printf("  %s: %ld", bucket_name[b], bucket[b]);
    long finite = ndiff - bucket[6] - bucket[7];
    printf("\n  largest finite difference %.6g ulps, mean %.6g ulps over the %ld finite differences\n", max_ulps,
           finite ? sum_ulps / finite : 0.0, finite);
    if (have_best)
        print_example(&x, &best);
    return 1;
}
