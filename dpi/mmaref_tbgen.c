/* Stimulus for the RTL testbenches, addressed by (instruction, seed, index) so that any vector can be
 * regenerated for a report or a waveform re-run: directed vectors first (special values on every lane,
 * the papers' experiments, alignment shifts 0..F+2, carry chains, total cancellation, overflow, f16
 * ties), then seeded random vectors (raw bit streams, exponent-clustered values, cancellation, sprinkled
 * specials, extremes).  Format fields are derived from the public API (1.0 and 2.0 encoded), not from a
 * second table.  Also: mismatch reports and timing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "svdpi.h"
#include "mmaref_dpi.h"

/* ---- format fields, derived from the model's encoder ---- */
typedef struct {
    mmaref_format f;
    int width, man, bias, exp_bits, has_sign, has_inf, has_nan;
    uint64_t exp_all, man_all, inf_raw, nan_raw, sign_bit;
    long exp_top;       /* largest exponent field of a finite value */
    int fn_nan;         /* e4m3-style: all-ones exponent and mantissa is the NaN */
} finfo;

static uint64_t enc(mmaref_format f, double x, int *ok)
{
    uint64_t r = 0;
    *ok = mmaref_format_from_double(f, x, &r) == MMAREF_OK;
    return r;
}

static finfo info_of(mmaref_format f)
{
    finfo fi;
    int ok;
    memset(&fi, 0, sizeof fi);
    fi.f = f;
    fi.width = mmaref_format_width(f);
    uint64_t one = enc(f, 1.0, &ok), two = enc(f, 2.0, &ok);
    fi.man = __builtin_ctzll(two - one);
    fi.bias = (int)(one >> fi.man);
    enc(f, -1.0, &ok);
    fi.has_sign = ok;
    fi.exp_bits = fi.width - fi.has_sign - fi.man;
    fi.inf_raw = enc(f, INFINITY, &fi.has_inf);
    fi.nan_raw = enc(f, NAN, &fi.has_nan);
    fi.exp_all = (1ULL << fi.exp_bits) - 1;
    fi.man_all = (1ULL << fi.man) - 1;
    fi.sign_bit = fi.has_sign ? 1ULL << (fi.width - 1) : 0;
    fi.exp_top = (long)(fi.has_inf || f == MMAREF_UE8M0 ? fi.exp_all - 1 : fi.exp_all);
    fi.fn_nan = fi.has_nan && !fi.has_inf && f != MMAREF_UE8M0;
    return fi;
}

/* A finite pattern with the given sign, biased exponent field (clamped) and mantissa. */
static inline uint64_t fin_raw(const finfo *fi, int sign, long biased, uint64_t man)
{
    if (biased < 0) biased = 0;
    if (biased > fi->exp_top) biased = fi->exp_top;
    man &= fi->man_all;
    if (fi->fn_nan && (uint64_t)biased == fi->exp_all && man == fi->man_all)
        man--; /* e4m3: S.1111.111 is NaN */
    return ((uint64_t)biased << fi->man) | man | (sign ? fi->sign_bit : 0);
}
static uint64_t max_finite(const finfo *fi, int sign) { return fin_raw(fi, sign, 1L << 20, ~0ULL); }
static uint64_t mask_of(const finfo *fi) { return fi->width == 64 ? ~0ULL : (1ULL << fi->width) - 1; }

/* ---- random numbers: splitmix64 ---- */
typedef struct { uint64_t s; } rng;
static uint64_t next(rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static int below(rng *r, int n) { return (int)(((next(r) >> 32) * (uint64_t)n) >> 32); }

/* ---- one vector ---- */
typedef struct {
    uint64_t c, a[DPI_MAX_K], b[DPI_MAX_K], sa[DPI_MAX_SCALE], sb[DPI_MAX_SCALE];
} vec;

typedef struct {
    const mmaref_instr *in;
    finfo fa, fb, fc, fs;
    int k, ns, F;
    uint64_t scale_one;
    vec *directed;
    int n_directed, cap;
} gen_ctx;

static gen_ctx ctxs[256];

static void base(const gen_ctx *g, vec *v)
{
    /* +0 is the all-zero pattern of every operand format; scales 1.0 */
    v->c = 0;
    memset(v->a, 0, (size_t)g->k * sizeof v->a[0]);
    memset(v->b, 0, (size_t)g->k * sizeof v->b[0]);
    for (int j = 0; j < DPI_MAX_SCALE; j++)
        v->sa[j] = v->sb[j] = g->scale_one;
}

static void push(gen_ctx *g, const vec *v)
{
    if (g->n_directed == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 256;
        g->directed = realloc(g->directed, (size_t)g->cap * sizeof *v);
    }
    g->directed[g->n_directed++] = *v;
}

/* a * b == x exactly with both factors representable (powers of two split as evenly as possible). */
static int product(const gen_ctx *g, double x, uint64_t *ra, uint64_t *rb)
{
    for (int t = 0; t < 120; t++) {
        int j = (t & 1) ? -(t + 1) / 2 : t / 2;
        double pa = ldexp(x, -j), pb = ldexp(1.0, j);
        int oka, okb;
        uint64_t a = enc(g->fa.f, pa, &oka), b = enc(g->fb.f, pb, &okb);
        if (oka && okb) { *ra = a; *rb = b; return 1; }
    }
    return 0;
}

/* Set lane i to the product x; returns 0 when x is not a product of two representable values. */
static int lane_product(const gen_ctx *g, vec *v, int i, double x)
{
    return product(g, x, &v->a[i], &v->b[i]);
}

static int set_c(const gen_ctx *g, vec *v, double x)
{
    int ok;
    v->c = enc(g->fc.f, x, &ok);
    return ok;
}

/* ---- directed vectors ---- */
static void directed_specials(gen_ctx *g)
{
    vec v;
    int ok;
    const finfo *fa = &g->fa, *fb = &g->fb;
    for (int i = 0; i < g->k; i++) {
        /* every special class on lane i, the other lanes ordinary products */
        for (int cls = 0; cls < 6; cls++) {
            base(g, &v);
            for (int j = 0; j < g->k; j++) lane_product(g, &v, j, ldexp(1.0 + (j & 3) / 4.0, -(j % 5)));
            switch (cls) {
            case 0: if (!fa->has_inf) continue; v.a[i] = fa->inf_raw; break;                        /* +inf */
            case 1: if (!fa->has_inf) continue; v.a[i] = fa->inf_raw | 1ULL << (fa->width - 1); break; /* -inf */
            case 2: if (!fa->has_nan) continue; v.a[i] = fa->nan_raw; break;                        /* NaN a */
            case 3: if (!fb->has_nan) continue; v.b[i] = fb->nan_raw; break;                        /* NaN b */
            case 4: if (!fb->has_inf) continue; v.a[i] = enc(fa->f, 0.0, &ok); v.b[i] = fb->inf_raw; break; /* 0*inf */
            case 5: if (!fa->has_inf || g->k < 2) continue;                                         /* +inf -inf */
                v.a[i] = fa->inf_raw; v.a[(i + 1) % g->k] = fa->inf_raw | 1ULL << (fa->width - 1); break;
            }
            push(g, &v);
        }
        /* a zero and a subnormal factor on lane i with a NaN-free neighbourhood */
        base(g, &v);
        v.a[i] = fin_raw(fa, 1, 0, 1);
        v.b[i] = max_finite(fb, 0);
        push(g, &v);
    }
    /* C special, alone and against infinite products */
    const finfo *fc = &g->fc;
    if (fc->has_inf) {
        for (int s = 0; s < 2; s++)
            for (int p = 0; p < 3; p++) {
                base(g, &v);
                v.c = fc->inf_raw | ((uint64_t)s << (fc->width - 1));
                if (p && fa->has_inf) {        /* against a product +inf (p = 1) or -inf (p = 2) */
                    v.a[0] = fa->inf_raw | ((uint64_t)(p - 1) << (fa->width - 1));
                    v.b[0] = enc(fb->f, 1.0, &ok);
                    lane_product(g, &v, 1, 1.0);
                }
                push(g, &v);
            }
        base(g, &v);
        v.c = fc->nan_raw;
        push(g, &v);
    }
    /* Step 0: a TF32 NaN whose payload lies only in the ignored low 13 bits is an infinity */
    if (fa->f == MMAREF_TF32)
        for (int s = 0; s < 2; s++) {
            base(g, &v);
            v.a[0] = 0x7F800001u | ((uint64_t)s << 31);
            v.b[0] = enc(fb->f, 1.0, &ok);
            v.a[1] = 0x7F801FFFu;                       /* +inf too: same sign twice, or +inf and -inf */
            v.b[1] = v.b[0];
            push(g, &v);
        }
    /* a subnormal C (Volta widens an f16 one to a normal f32, moving e_max) against small products */
    for (int t = 0; t < 3; t++)
        for (int s = 0; s <= g->F + 3; s += 3) {
            base(g, &v);
            v.c = fin_raw(fc, t == 2, 0, t == 0 ? 1 : fc->man_all >> 1);
            double cv = mmaref_format_to_double(fc->f, v.c);
            if (cv == 0 || !lane_product(g, &v, 0, fabs(cv) * ldexp(1.0, -s) * 1.5)) continue;
            push(g, &v);
        }
    /* every scale slot NaN (UE8M0 0xFF, UE4M3 0x7F and 0xFF) */
    for (int j = 0; j < g->ns; j++)
        for (int w = 0; w < 3; w++) {
            base(g, &v);
            lane_product(g, &v, 0, 1.0);
            if (w == 0) v.sa[j] = g->fs.nan_raw;
            if (w == 1) v.sb[j] = g->fs.nan_raw;
            if (w == 2) v.sa[j] = g->fs.nan_raw | 0x80;
            push(g, &v);
        }
}

static void directed_experiments(gen_ctx *g)
{
    vec v;
    int K = g->k, F = g->F;
    /* mma-sim.md: precision of 1.0 + eps and of -1.0 + 1.0 + eps, eps halved until it vanishes */
    for (int t = 0; t <= F + 4; t++)
        for (int pair = 0; pair < 3; pair++) {
            int i = pair == 0 ? 0 : pair == 1 ? K - 1 : K / 2, j = (i + 1 + pair) % K;
            base(g, &v);
            if (!lane_product(g, &v, i, 1.0) || !lane_product(g, &v, j, ldexp(1.0, -t))) continue;
            push(g, &v);
            base(g, &v);                      /* the same with C holding the 1.0 */
            if (set_c(g, &v, 1.0) && lane_product(g, &v, j, ldexp(1.0, -t))) push(g, &v);
            if (K >= 3) {
                base(g, &v);
                int k3 = (j + 1) % K;
                if (lane_product(g, &v, i, -1.0) && lane_product(g, &v, j, 1.0) &&
                    lane_product(g, &v, k3, ldexp(1.0, -t)))
                    push(g, &v);
            }
        }
    /* mma-sim.md summation-order probe: X at i, -X at j, K-1 copies of a small y elsewhere */
    for (int i = 0; i < K && i < 8; i++)
        for (int j = 0; j < K && j < 8; j++) {
            if (i == j) continue;
            for (int big = 0; big < 2; big++) {
                base(g, &v);
                double X = ldexp(1.0, big ? 20 : 8), y = ldexp(1.0, -6);
                int ok = lane_product(g, &v, i, X) && lane_product(g, &v, j, -X);
                for (int l = 0; l < K && ok; l++)
                    if (l != i && l != j) ok = lane_product(g, &v, l, y);
                if (ok) { set_c(g, &v, y); push(g, &v); }
            }
        }
    /* alignment shifts 0..F+2 (and F+3): C = 1 + ulp pattern, one product 1.75 * 2^-s of either sign */
    for (int s = 0; s <= F + 3; s++)
        for (int neg = 0; neg < 2; neg++)
            for (int lane_i = 0; lane_i < 2; lane_i++) {
                base(g, &v);
                int li = lane_i ? K - 1 : 0;
                if (!lane_product(g, &v, li, (neg ? -1.75 : 1.75) * ldexp(1.0, -s))) continue;
                if (!set_c(g, &v, 1.0 + ldexp(1.0, -(g->fc.man < 10 ? g->fc.man : 10)))) set_c(g, &v, 1.0);
                push(g, &v);
                /* the same term against another product instead of C */
                base(g, &v);
                if (lane_product(g, &v, li, (neg ? -1.75 : 1.75) * ldexp(1.0, -s)) &&
                    lane_product(g, &v, (li + 1) % K, 1.5))
                    push(g, &v);
            }
    /* carry chains: every product the largest significand at one exponent, C just below the next power */
    for (int neg = 0; neg < 2; neg++)
        for (int e = -2; e <= 2; e += 2) {
            base(g, &v);
            uint64_t ma = fin_raw(&g->fa, neg, g->fa.bias + e, ~0ULL), mb = fin_raw(&g->fb, 0, g->fb.bias, ~0ULL);
            for (int l = 0; l < K; l++) { v.a[l] = ma; v.b[l] = mb; }
            v.c = fin_raw(&g->fc, neg, g->fc.bias + e + 3, ~0ULL);
            push(g, &v);
        }
    /* total cancellation: x and -x pairs, C = 0 or C = -(sum) */
    for (int t = 0; t < 8; t++) {
        base(g, &v);
        for (int l = 0; l + 1 < K; l += 2) {
            double x = (1.0 + (l % 4) / 4.0) * ldexp(1.0, (t * 3 + l) % 7 - 3);
            if (lane_product(g, &v, l, x)) lane_product(g, &v, l + 1, -x);
        }
        if (t & 1) {
            lane_product(g, &v, K - 1, 1.0);
            set_c(g, &v, -1.0);
        }
        push(g, &v);
    }
    /* overflow to inf: every product the largest finite, both signs, with and without a large C */
    for (int neg = 0; neg < 2; neg++)
        for (int withc = 0; withc < 2; withc++) {
            base(g, &v);
            for (int l = 0; l < K; l++) { v.a[l] = max_finite(&g->fa, neg); v.b[l] = max_finite(&g->fb, 0); }
            if (withc) v.c = max_finite(&g->fc, neg);
            push(g, &v);
            base(g, &v);                       /* C at the top of its range plus one product */
            v.c = max_finite(&g->fc, neg);
            v.a[0] = max_finite(&g->fa, neg);
            v.b[0] = max_finite(&g->fb, 0);
            push(g, &v);
        }
    /* f16 round-to-nearest-even ties (f16 output), normal, subnormal and at the overflow boundary */
    if (g->in->pass[g->in->passes - 1].out == MMAREF_OUT_F16_RNE) {
        static const double cs[] = {1.0, 1.0 + 0x1p-10, 0.0, 0.0, 0.0, 65504.0, 65472.0, -1.0, 0x1p-14};
        static const double ps[] = {0x1p-11, 0x1p-11, 0x1p-25, 0x1.8p-24, 0x1p-24, 16.0, 16.0, -0x1p-11, 0x1p-25};
        for (size_t t = 0; t < sizeof cs / sizeof cs[0]; t++)
            for (int split = 0; split < 2; split++) {
                base(g, &v);
                if (!set_c(g, &v, cs[t])) continue;
                if (split && K >= 2) {        /* the tie made of two products */
                    if (!lane_product(g, &v, 0, ps[t] / 2) || !lane_product(g, &v, 1, ps[t] / 2)) continue;
                } else if (!lane_product(g, &v, 0, ps[t])) continue;
                push(g, &v);
            }
    }
}

static gen_ctx *ctx_of(int h)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    if (!in || h >= 256)
        return NULL;
    gen_ctx *g = &ctxs[h];
    if (g->in)
        return g;
    g->in = in;
    g->fa = info_of(in->a);
    g->fb = info_of(in->b);
    g->fc = info_of(in->c);
    g->k = in->k;
    g->ns = mmaref_scale_count(in);
    if (g->ns) {
        int ok;
        g->fs = info_of(in->scale);
        g->scale_one = enc(g->fs.f, 1.0, &ok);
    }
    g->F = in->pass[0].frac_bits;
    directed_specials(g);
    directed_experiments(g);
    return g;
}

/* ---- random vectors ---- */
static uint64_t rand_raw(rng *r, const finfo *fi) { return next(r) & mask_of(fi); }

/* A value of random sign and mantissa whose exponent field is within +-spread of center (one draw). */
static inline uint64_t clustered(rng *r, const finfo *fi, long center, int spread)
{
    uint64_t x = next(r);
    long e = center + (long)(((x >> 1 & 0xFFFF) * (uint64_t)(2 * spread + 1)) >> 16) - spread;
    return fin_raw(fi, (int)(x & 1), e, x >> 17);
}

static uint64_t special(rng *r, const finfo *fi)
{
    switch (below(r, 6)) {
    case 0: if (fi->has_inf) return fi->inf_raw | ((uint64_t)below(r, 2) << (fi->width - 1)); /* fall through */
    case 1: if (fi->has_nan) return fi->nan_raw | (next(r) & fi->man_all) | 1; /* fall through */
    case 2: return fin_raw(fi, below(r, 2), 0, 0);               /* +-0 */
    case 3: return fin_raw(fi, below(r, 2), 0, next(r));         /* subnormal */
    case 4: return max_finite(fi, below(r, 2));
    default: return fin_raw(fi, below(r, 2), 0, 1);              /* smallest subnormal */
    }
}

static int random_vec(const gen_ctx *g, uint64_t seed, uint64_t idx, vec *v)
{
    rng r = {seed * 0xD1B54A32D192ED03ULL ^ (idx + 1) * 0x9E3779B97F4A7C15ULL};
    next(&r);
    int K = g->k, cls = below(&r, 100);
    const finfo *fa = &g->fa, *fb = &g->fb, *fc = &g->fc;
    base(g, v);
    if (cls < 25) {                                   /* raw bit streams */
        for (int i = 0; i < K; i++) { v->a[i] = rand_raw(&r, fa); v->b[i] = rand_raw(&r, fb); }
        v->c = rand_raw(&r, fc);
        for (int j = 0; j < DPI_MAX_SCALE && g->ns; j++) { v->sa[j] = rand_raw(&r, &g->fs); v->sb[j] = rand_raw(&r, &g->fs); }
        return 0;
    }
    /* exponent-clustered: products near one exponent, C near the products, so terms cancel and align */
    long ca = 1 + below(&r, (int)fa->exp_all), cb = 1 + below(&r, (int)fb->exp_all);
    int spread = below(&r, 4) == 0 ? g->F / 2 + 2 : below(&r, 4);
    for (int i = 0; i < K; i++) { v->a[i] = clustered(&r, fa, ca, spread); v->b[i] = clustered(&r, fb, cb, spread); }
    long pe = (ca - fa->bias) + (cb - fb->bias);       /* product exponent */
    int cmode = below(&r, 4);
    v->c = cmode == 0 ? fin_raw(fc, below(&r, 2), 0, 0)
                      : clustered(&r, fc, pe + fc->bias + (cmode == 3 ? below(&r, 2 * g->F + 8) - g->F - 4 : 0), 3);
    for (int j = 0; j < DPI_MAX_SCALE && g->ns; j++) {
        int near = below(&r, 8) != 0;
        v->sa[j] = near ? clustered(&r, &g->fs, g->fs.bias, 6) : rand_raw(&r, &g->fs);
        v->sb[j] = near ? clustered(&r, &g->fs, g->fs.bias, 6) : rand_raw(&r, &g->fs);
    }
    if (cls < 65)
        return 1;
    if (cls < 80) {                                   /* cancellation: mirrored lanes, small residue */
        for (int i = 0; i + 1 < K; i += 2) {
            v->a[i + 1] = v->a[i] ^ (fa->has_sign ? 1ULL << (fa->width - 1) : 0);
            v->b[i + 1] = v->b[i];
        }
        if (below(&r, 2)) v->c = fin_raw(fc, 0, 0, 0);
        if (below(&r, 2)) { int i = below(&r, K); v->a[i] = clustered(&r, fa, ca - below(&r, 8), 2); }
        return 2;
    }
    if (cls < 95) {                                   /* sprinkled specials */
        int n = 1 + below(&r, 3);
        for (int t = 0; t < n; t++) {
            int i = below(&r, K);
            if (below(&r, 2)) v->a[i] = special(&r, fa); else v->b[i] = special(&r, fb);
        }
        if (below(&r, 4) == 0) v->c = special(&r, fc);
        if (g->ns && below(&r, 8) == 0) v->sa[below(&r, g->ns)] = g->fs.nan_raw;
        return 3;
    }
    for (int i = 0; i < K; i++) {                     /* extremes: near the top of every range */
        v->a[i] = fin_raw(fa, below(&r, 2), (long)fa->exp_all - below(&r, 3), next(&r));
        v->b[i] = fin_raw(fb, below(&r, 2), (long)fb->exp_all - below(&r, 3), next(&r));
    }
    v->c = fin_raw(fc, below(&r, 2), (long)fc->exp_all - below(&r, 3), next(&r));
    return 4;
}

static int vector_at(const gen_ctx *g, uint64_t seed, uint64_t idx, vec *v)
{
    if (idx < (uint64_t)g->n_directed) {
        *v = g->directed[idx];
        return 5;
    }
    return random_vec(g, seed, idx, v);
}

/* ---- DPI entry points ---- */
int mmaref_tb_directed_count(int h)
{
    gen_ctx *g = ctx_of(h);
    return g ? g->n_directed : 0;
}

static void put_lanes(svBitVecVal *dst, const uint64_t *src, int n)
{
    for (int i = 0; i < n; i++)
        dst[i] = (svBitVecVal)src[i];
}

int mmaref_tb_gen(int h, unsigned long long seed, unsigned long long idx, unsigned int *c, svBitVecVal *a,
                  svBitVecVal *b, svBitVecVal *sa, svBitVecVal *sb)
{
    gen_ctx *g = ctx_of(h);
    if (!g)
        return -1;
    vec v;
    int cls = vector_at(g, seed, idx, &v);
    *c = (unsigned int)v.c;
    put_lanes(a, v.a, g->k);   /* lanes beyond K are left as they were: the benches never read them */
    put_lanes(b, v.b, g->k);
    /* unused scale slots carry junk (NaN included): the unit must not read them */
    for (int j = g->ns; j < DPI_MAX_SCALE; j++) v.sa[j] = v.sb[j] = g->ns ? 0xFF : 0;
    put_lanes(sa, v.sa, DPI_MAX_SCALE);
    put_lanes(sb, v.sb, DPI_MAX_SCALE);
    return cls;
}

/* (sign, exponent, significand) of a raw value, through the model's exact decoding to double */
static void describe(FILE *out, const char *what, mmaref_format f, uint64_t raw)
{
    double x = mmaref_format_to_double(f, raw);
    int e = 0;
    double s = isfinite(x) && x != 0 ? frexp(fabs(x), &e) * 2 : fabs(x);
    fprintf(out, "  %-6s %-6s 0x%0*llx  sign %d  exp %4d  sig %.10g  = %.17g\n", what, mmaref_format_name(f),
            (mmaref_format_width(f) + 3) / 4, (unsigned long long)raw, signbit(x) ? 1 : 0,
            isfinite(x) && x != 0 ? e - 1 : 0, s, x);
}

static int reports;

void mmaref_tb_report(int h, const char *unit, unsigned long long seed, unsigned long long idx, unsigned int got)
{
    gen_ctx *g = ctx_of(h);
    if (!g || ++reports > 5)
        return;
    vec v;
    vector_at(g, seed, idx, &v);
    uint64_t want = 0;
    char msg[256];
    int ns = g->ns;
    mmaref_dot(g->in, v.c, v.a, v.b, ns ? v.sa : NULL, ns ? v.sb : NULL, &want, msg, sizeof msg);
    mmaref_format fd = g->in->d;
    fprintf(stdout, "MISMATCH %s:%s unit %s seed %llu index %llu%s\n", g->in->arch, g->in->name, unit, seed, idx,
            idx < (uint64_t)g->n_directed ? " (directed)" : "");
    fprintf(stdout, "  algo %s K %d F %d passes %d out %s block %d\n", mmaref_algo_name(g->in->pass[0].algo), g->k,
            g->F, g->in->passes, mmaref_output_name(g->in->pass[g->in->passes - 1].out), g->in->block_size);
    describe(stdout, "c", g->in->c, v.c);
    for (int i = 0; i < g->k; i++) {
        char na[16], nb[16];
        snprintf(na, sizeof na, "a[%d]", i);
        snprintf(nb, sizeof nb, "b[%d]", i);
        describe(stdout, na, g->in->a, v.a[i]);
        describe(stdout, nb, g->in->b, v.b[i]);
    }
    for (int j = 0; j < ns; j++) {
        char na[16], nb[16];
        snprintf(na, sizeof na, "sa[%d]", j);
        snprintf(nb, sizeof nb, "sb[%d]", j);
        describe(stdout, na, g->in->scale, v.sa[j]);
        describe(stdout, nb, g->in->scale, v.sb[j]);
    }
    describe(stdout, "model", fd, want);
    describe(stdout, "rtl", fd, got);
    fflush(stdout);
}

static long long first_fail = -1;
void mmaref_tb_fail(unsigned long long idx)
{
    if (first_fail < 0)
        first_fail = (long long)idx;
}
long long mmaref_tb_first_fail(void) { return first_fail; }

double mmaref_tb_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int selected = -1;
void mmaref_tb_select(int h) { selected = h; }
int mmaref_tb_selected(void) { return selected; }
