/* The model's results do not depend on the host's floating-point environment (tests/t_model_fpenv.sh).
 *
 * 1. Every distinct instruction configuration the library lists (all architectures; instructions that
 *    differ only in shape or name share one), with its directed vectors and RANDOM_VECTORS seeded random
 *    ones from the library's own generator, is computed under the default environment and again under
 *    each environment below: every result must be bit-identical to the default one.
 * 2. Hand-derived results that a host-float implementation gets wrong in some environment, asserted in
 *    every environment (the derivations are beside them).
 *    The same through mmaref_dot_batch on the path the CPU takes by default (its SFMA kernels use the
 *    host's FMA inside an environment they set themselves), and the caller's environment must be as
 *    it was after each batch.
 * 3. SFMA against the host's own fma, in the default environment only, on operands crafted around the
 *    rounding boundaries: the host's fma is an IEEE reference that shares no code with the model.
 *
 * Prints "ok - ..." / "not ok - ..." lines; exits 1 on a failure. */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

#include "mmaref.h"
#include "config_key.h"

enum { RANDOM_VECTORS = 300, SEED = 1, CROSS_CHECK_VECTORS = 100000 };

/* x86 MXCSR: flush-to-zero (bit 15) and denormals-are-zero (bit 6), what -ffast-math programs and
 * torch.set_flush_denormal(True) set. */
#define MXCSR_FTZ 0x8000u
#define MXCSR_DAZ 0x0040u

typedef struct {
    const char *name;
    int rounding;   /* fesetround mode */
    unsigned mxcsr; /* MXCSR bits set: FTZ, DAZ or both (x86-64 only) */
} fp_env;

#define EACH_ROUNDING(prefix, bits) \
    {prefix "FE_TONEAREST", FE_TONEAREST, bits}, {prefix "FE_UPWARD", FE_UPWARD, bits}, \
    {prefix "FE_DOWNWARD", FE_DOWNWARD, bits}, {prefix "FE_TOWARDZERO", FE_TOWARDZERO, bits}
static const fp_env environments[] = {
    /* every rounding mode, alone and under each of FTZ, DAZ and FTZ|DAZ (the default itself left out) */
    {"FE_UPWARD", FE_UPWARD, 0}, {"FE_DOWNWARD", FE_DOWNWARD, 0}, {"FE_TOWARDZERO", FE_TOWARDZERO, 0},
    EACH_ROUNDING("MXCSR FTZ with ", MXCSR_FTZ),
    EACH_ROUNDING("MXCSR DAZ with ", MXCSR_DAZ),
    EACH_ROUNDING("MXCSR FTZ|DAZ with ", MXCSR_FTZ | MXCSR_DAZ),
};
#undef EACH_ROUNDING
enum { ENV_COUNT = sizeof environments / sizeof environments[0] };

static int failures;

static void report(int ok, const char *what)
{
    printf("%s - %s\n", ok ? "ok" : "not ok", what);
    failures += !ok;
}

#if defined(__x86_64__)
static unsigned saved_mxcsr;
static int env_available(const fp_env *e) { (void)e; return 1; }
static void env_enter(const fp_env *e)
{
    saved_mxcsr = _mm_getcsr();
    _mm_setcsr(saved_mxcsr | e->mxcsr);
    fesetround(e->rounding);
}
static void env_leave(void)
{
    fesetround(FE_TONEAREST);
    _mm_setcsr(saved_mxcsr);
}
#else
static int env_available(const fp_env *e) { return !e->mxcsr; }
static void env_enter(const fp_env *e) { fesetround(e->rounding); }
static void env_leave(void) { fesetround(FE_TONEAREST); }
#endif

/* ---- 1. every configuration, every environment ---- */


typedef struct {
    uint64_t c, a[MMAREF_MAX_K], b[MMAREF_MAX_K], sa[MMAREF_MAX_SCALES], sb[MMAREF_MAX_SCALES];
} vector;

static uint64_t dot(const mmaref_instr *in, const vector *v)
{
    uint64_t d = 0;
    char msg[256];
    if (mmaref_dot(in, v->c, v->a, v->b, v->sa, v->sb, &d, msg, sizeof msg) != MMAREF_OK) {
        printf("not ok - %s %s: mmaref_dot: %s\n", in->arch, in->name, msg);
        exit(1);
    }
    return d;
}

/* Dot-adds 0 .. n-1 of vecs through mmaref_dot_batch (mmaref_dot's row layout, one vector a row). */
static void batch(const mmaref_instr *in, const vector *vecs, uint64_t n, uint64_t *d)
{
    const ptrdiff_t row = sizeof(vector) / sizeof(uint64_t);
    mmaref_dots x = {{&vecs[0].c, row, 0}, {vecs[0].a, row, 1}, {vecs[0].b, row, 1}, {vecs[0].sa, row, 1},
                     {vecs[0].sb, row, 1}};
    char msg[256];
    if (mmaref_dot_batch(in, (size_t)n, &x, d, msg, sizeof msg) != MMAREF_OK) {
        printf("not ok - %s %s: mmaref_dot_batch: %s\n", in->arch, in->name, msg);
        exit(1);
    }
}

/* The environment as the caller sees it: fegetround, and MXCSR's control bits on x86-64. */
static unsigned env_now(void)
{
#if defined(__x86_64__)
    return (unsigned)fegetround() << 16 ^ (_mm_getcsr() & ~0x3Fu);
#else
    return (unsigned)fegetround();
#endif
}

static void every_configuration(void)
{
    size_t count = mmaref_list(NULL, NULL, 0), configs = 0;
    mmaref_instr *all = calloc(count, sizeof *all);
    config_key *seen = calloc(count, sizeof *seen);
    vector *vecs = NULL;
    uint64_t *want = NULL, *got = NULL, total = 0;
    uint64_t differ[ENV_COUNT] = {0}, batch_differ[ENV_COUNT] = {0}, env_changed[ENV_COUNT] = {0};
    char first[ENV_COUNT][256] = {{0}}, batch_first[ENV_COUNT][256] = {{0}};
    if (!all || !seen) {
        report(0, "out of memory");
        exit(1);
    }
    mmaref_list(NULL, all, count);
    for (size_t i = 0; i < count; i++) {
        const mmaref_instr *in = &all[i];
        if (!config_first_seen(seen, &configs, in))
            continue;

        /* the vectors and their default-environment results (the generator itself uses double) */
        uint64_t directed = mmaref_gen_directed_count(in), n = directed + RANDOM_VECTORS;
        vecs = realloc(vecs, n * sizeof *vecs), want = realloc(want, n * sizeof *want);
        got = realloc(got, n * sizeof *got);
        if (!vecs || !want || !got) {
            report(0, "out of memory");
            exit(1);
        }
        for (uint64_t v = 0; v < n; v++) {
            vector *x = &vecs[v];
            memset(x, 0, sizeof *x);
            int kind = v < directed ? mmaref_gen_vector(in, MMAREF_GEN_DIRECTED, SEED, v, &x->c, x->a, x->b, x->sa, x->sb)
                                    : mmaref_gen_vector(in, MMAREF_GEN_RANDOM, SEED, v - directed, &x->c, x->a, x->b,
                                                        x->sa, x->sb);
            if (kind < 0) {
                printf("not ok - %s %s: mmaref_gen_vector failed\n", in->arch, in->name);
                exit(1);
            }
            want[v] = dot(in, x);
        }
        total += n;

        for (int e = 0; e < ENV_COUNT; e++) {
            if (!env_available(&environments[e]))
                continue;
            env_enter(&environments[e]);
            for (uint64_t v = 0; v < n; v++) {
                uint64_t one = dot(in, &vecs[v]);
                if (one != want[v] && differ[e]++ == 0)
                    snprintf(first[e], sizeof first[e], "%s %s vector %llu: 0x%llx, default 0x%llx", in->arch,
                             in->name, (unsigned long long)v, (unsigned long long)one, (unsigned long long)want[v]);
            }
            unsigned before = env_now();
            batch(in, vecs, n, got);
            env_changed[e] += env_now() != before;
            for (uint64_t v = 0; v < n; v++)
                if (got[v] != want[v] && batch_differ[e]++ == 0)
                    snprintf(batch_first[e], sizeof batch_first[e], "%s %s vector %llu: 0x%llx, default 0x%llx",
                             in->arch, in->name, (unsigned long long)v, (unsigned long long)got[v],
                             (unsigned long long)want[v]);
            env_leave();
        }
    }
    for (int e = 0; e < ENV_COUNT; e++) {
        char line[512];
        if (!env_available(&environments[e]))
            snprintf(line, sizeof line, "%s: skipped (not x86)", environments[e].name);
        else if (!differ[e])
            snprintf(line, sizeof line, "%s: %zu configurations, %llu vectors, every result bit-identical to the "
                     "default environment's", environments[e].name, configs, (unsigned long long)total);
        else
            snprintf(line, sizeof line, "%s: %llu of %llu results differ from the default environment's; first: %s",
                     environments[e].name, (unsigned long long)differ[e], (unsigned long long)total, first[e]);
        report(!differ[e], line);
        if (!env_available(&environments[e]))
            continue;
        if (!batch_differ[e] && !env_changed[e])
            snprintf(line, sizeof line, "%s: mmaref_dot_batch on the default path, the same %llu results, the "
                     "environment as the caller set it after every batch", environments[e].name,
                     (unsigned long long)total);
        else
            snprintf(line, sizeof line, "%s: mmaref_dot_batch: %llu results differ (first: %s), %llu batches "
                     "changed the caller's environment", environments[e].name, (unsigned long long)batch_differ[e],
                     batch_first[e], (unsigned long long)env_changed[e]);
        report(!batch_differ[e] && !env_changed[e], line);
    }
    free(all), free(seen), free(vecs), free(want), free(got);
}

/* ---- 2. hand-derived results, in every environment ---- */

typedef struct {
    const char *what, *arch, *name;
    int k;          /* the instruction's K, from its name */
    uint64_t c, a[4], b[4];
    uint64_t want;
} known_result;

/* f32: 1.0 = 0x3f800000, 0.5 = 0x3f000000, 2^-24 = 0x33800000 (biased exponent 103), 2^-126 = 0x00800000
 * (the smallest normal), -1.0 = 0xbf800000; bf16: 2^-126 = 0x0080, 0.5 = 0x3f00; f64: 1.0 =
 * 0x3ff0000000000000, -1.0 = 0xbff0000000000000, -2^1023 = 0xffe0000000000000, -0 = 0x8000000000000000,
 * +inf = 0x7ff0000000000000.  Unused products are 0 * 0 = +0, which leaves a
 * nonzero d unchanged. */
static const known_result known[] = {
    /* d = fma(1, 1, +0) = 1, then fma(2^-24, 1, 1) = 1 + 2^-24: halfway between 1 and the next f32,
     * 1 + 2^-23; ties to even keep 1 (mantissa 0).  Rounding upward would give 0x3f800001. */
    {"cdna3 f32 SFMA: 1 + 2^-24 rounds to 1 (ties to even)", "cdna3", "v_mfma_f32_16x16x4_f32", 4, 0,
     {0x3f800000, 0x33800000, 0, 0}, {0x3f800000, 0x3f800000, 0, 0}, 0x3f800000},
    /* fma(2^-126, 0.5, +0) = 2^-127, exact as an f32 subnormal: 2^-127 / 2^-149 = 2^22 = mantissa 0x400000.
     * Flush-to-zero would give 0. */
    {"cdna3 f32 SFMA: 2^-126 * 0.5 = 2^-127, subnormal 0x00400000", "cdna3", "v_mfma_f32_16x16x4_f32", 4, 0,
     {0x00800000, 0, 0, 0}, {0x3f000000, 0, 0, 0}, 0x00400000},
    /* CDNA1 GPS keeps subnormals: p0 = 2^-126 * 0.5 = 2^-127 (FP32 subnormal), p1 = +0, group p0 + p1 =
     * 2^-127, d = +0 + 2^-127. */
    {"cdna1 bf16 GPS: 2^-126 * 0.5 = 2^-127 kept (no flushing on CDNA1)", "cdna1", "v_mfma_f32_32x32x2bf16", 2, 0,
     {0x0080, 0, 0, 0}, {0x3f00, 0, 0, 0}, 0x00400000},
    /* CDNA2 GPS flushes: the product 2^-127 < 2^-126 becomes +0 (paper Step 2), d = +0 + +0 = +0. */
    {"cdna2 bf16 GPS: the product 2^-127 is flushed to +0 (the model's rule, not the host's)", "cdna2",
     "v_mfma_f32_32x32x2bf16", 2, 0, {0x0080, 0, 0, 0}, {0x3f00, 0, 0, 0}, 0},
    /* fma(1, -1, 1) = 1 - 1, an exact zero of nonzero terms: +0 under round to nearest (-0 rounding
     * downward). */
    {"cdna3 f32 SFMA: 1 * -1 + 1 = +0", "cdna3", "v_mfma_f32_32x32x1_2b_f32", 1, 0x3f800000,
     {0x3f800000, 0, 0, 0}, {0xbf800000, 0, 0, 0}, 0},
    /* a = b = (2 - 2^-52) 2^511 (biased exponent 1534 = 0x5fe, mantissa all ones): a b = (2^53 - 1)^2 2^918 =
     * 2^1024 - 2^972 + 2^918, exact; c = 1.75 * 2^971 = 2^972 - 2^969 (biased exponent 1994 = 0x7ca).
     * a b + c = 2^1024 - 2^969 + 2^918 lies past the halfway point 2^1024 - 2^970 between the largest
     * f64, 2^1024 - 2^971, and 2^1024: it rounds up and overflows to +inf.  Then fma(-2^1023, 1, inf) =
     * inf and fma(0, 0, inf) = inf.  (Rounding toward zero would give the largest f64.) */
    {"hopper DMMA: a b + c rounding up past the largest f64 is +inf, and inf - 2^1023 stays inf", "hopper",
     "mma.m16n8k4.f64.f64.f64.f64", 4, 0x7cac000000000000, {0x5fefffffffffffff, 0xffe0000000000000, 0, 0},
     {0x5fefffffffffffff, 0x3ff0000000000000, 0, 0}, 0x7ff0000000000000},
    /* (+0)(-1) = -0, and -0 + -0 = -0, four times. */
    {"hopper DMMA: (+0)(-1) + (-0) = -0", "hopper", "mma.m16n8k4.f64.f64.f64.f64", 4, 0x8000000000000000,
     {0, 0, 0, 0}, {0xbff0000000000000, 0xbff0000000000000, 0xbff0000000000000, 0xbff0000000000000},
     0x8000000000000000},
};
enum { KNOWN_COUNT = sizeof known / sizeof known[0] };

static void known_results(void)
{
    for (int i = 0; i < KNOWN_COUNT; i++) {
        const known_result *r = &known[i];
        mmaref_instr in;
        char msg[256];
        if (mmaref_lookup(r->arch, r->name, &in, msg, sizeof msg) != MMAREF_OK || in.k != r->k) {
            printf("not ok - %s: %s %s not found with K = %d\n", r->what, r->arch, r->name, r->k);
            failures++;
            continue;
        }
        vector v;
        memset(&v, 0, sizeof v);
        v.c = r->c;
        memcpy(v.a, r->a, (size_t)r->k * sizeof r->a[0]), memcpy(v.b, r->b, (size_t)r->k * sizeof r->b[0]);
        char bad[512] = "";
        for (int e = -1; e < ENV_COUNT; e++) { /* -1: the default environment */
            if (e >= 0 && !env_available(&environments[e]))
                continue;
            if (e >= 0)
                env_enter(&environments[e]);
            uint64_t got = dot(&in, &v);
            if (e >= 0)
                env_leave();
            if (got != r->want && !bad[0])
                snprintf(bad, sizeof bad, ": 0x%llx under %s, expected 0x%llx", (unsigned long long)got,
                         e < 0 ? "the default environment" : environments[e].name, (unsigned long long)r->want);
        }
        char line[768];
        snprintf(line, sizeof line, "%s, in every environment%s", r->what, bad);
        report(!bad[0], line);
    }
}

/* ---- 3. SFMA against the host's fma (default environment) ---- */

static uint64_t rng = 0x243F6A8885A308D3ULL;
static uint64_t rnd(void) { return mmaref_rand(&rng); }

/* A mantissa of `bits` bits that often sits on a rounding boundary: all ones, zero, one bit, ... */
static uint64_t boundary_mantissa(int bits)
{
    uint64_t all = (1ULL << bits) - 1;
    switch (rnd() % 6) {
    case 0: return all;
    case 1: return 0;
    case 2: return 1ULL << (rnd() % bits);
    case 3: return all ^ (1ULL << (rnd() % bits));
    case 4: return rnd() & all & ~((1ULL << (rnd() % bits)) - 1);
    default: return rnd() & all;
    }
}

/* Raw bits of a format (width, exponent bits, mantissa bits) with biased exponent near e (clamped), now
 * and then zero or all ones (subnormals, zeros, inf, NaN). */
static uint64_t crafted(int width, int exp_bits, int man_bits, long e)
{
    long top = (1L << exp_bits) - 1;
    e = e < 0 ? 0 : e > top ? top : e;
    if (rnd() % 50 == 0)
        e = 0;
    if (rnd() % 200 == 0)
        e = top;
    return (rnd() & 1) << (width - 1) | (uint64_t)e << man_bits | boundary_mantissa(man_bits);
}

static int same_or_both_nan(uint64_t model, uint64_t host, uint64_t canonical_nan, int host_is_nan)
{
    return host_is_nan ? model == canonical_nan : model == host;
}

static void host_fma_cross_check(void)
{
    mmaref_instr f32k1, f64k4;
    char msg[256];
    if (mmaref_lookup("cdna3", "v_mfma_f32_32x32x1_2b_f32", &f32k1, msg, sizeof msg) != MMAREF_OK || f32k1.k != 1 ||
        mmaref_lookup("hopper", "mma.m16n8k4.f64.f64.f64.f64", &f64k4, msg, sizeof msg) != MMAREF_OK || f64k4.k != 4) {
        report(0, "host fma cross-check: instructions not found");
        return;
    }
    long bad32 = 0, bad64 = 0;
    char first[256] = "";
    for (int i = 0; i < CROSS_CHECK_VECTORS; i++) {
        /* f32, K = 1: d = fma(a, b, c), c near the product (exponent -100 .. +100 binades from it) and
         * now and then minus the rounded product itself, off by a few units (cancellation) */
        vector v;
        memset(&v, 0, sizeof v);
        long ea = 1 + (long)(rnd() % 254), eb = rnd() % 2 ? 1 + (long)(rnd() % 254) : 254 - ea + (long)(rnd() % 41) - 20;
        v.a[0] = crafted(32, 8, 23, ea), v.b[0] = crafted(32, 8, 23, eb);
        v.c = crafted(32, 8, 23, ea + eb - 127 + (long)(rnd() % 201) - 100);
        float fa, fb, fc;
        uint32_t w;
        w = (uint32_t)v.a[0], memcpy(&fa, &w, 4);
        w = (uint32_t)v.b[0], memcpy(&fb, &w, 4);
        if (rnd() % 8 == 0) {
            volatile float p = fa * fb;
            fc = -p;
            memcpy(&w, &fc, 4);
            w += (uint32_t)(rnd() % 5) - 2;
            v.c = w;
        }
        w = (uint32_t)v.c, memcpy(&fc, &w, 4);
        float fr = fmaf(fa, fb, fc);
        memcpy(&w, &fr, 4);
        uint64_t d = dot(&f32k1, &v);
        if (!same_or_both_nan(d, w, 0x7fffffff, isnan(fr)) && bad32++ == 0)
            snprintf(first, sizeof first, "f32 a 0x%08llx b 0x%08llx c 0x%08llx: model 0x%08llx, host 0x%08x",
                     (unsigned long long)v.a[0], (unsigned long long)v.b[0], (unsigned long long)v.c,
                     (unsigned long long)d, w);

        /* f64, K = 4: the DMMA chain d = fma(a_k, b_k, d), products near one exponent, c within 170
         * binades of them or minus the first rounded product, off by a few units */
        memset(&v, 0, sizeof v);
        long e1 = 1 + (long)(rnd() % 2046), e2 = rnd() % 2 ? 1 + (long)(rnd() % 2046) : 2046 - e1 + (long)(rnd() % 21) - 10;
        for (int k = 0; k < 4; k++) {
            v.a[k] = crafted(64, 11, 52, e1 + (long)(rnd() % 7) - 3);
            v.b[k] = crafted(64, 11, 52, e2 + (long)(rnd() % 7) - 3);
        }
        v.c = crafted(64, 11, 52, e1 + e2 - 1023 + (long)(rnd() % 341) - 170);
        double x, y, acc;
        if (rnd() % 6 == 0) {
            memcpy(&x, &v.a[0], 8), memcpy(&y, &v.b[0], 8);
            volatile double p = x * y;
            acc = -p;
            memcpy(&v.c, &acc, 8);
            v.c += rnd() % 5 - 2;
        }
        memcpy(&acc, &v.c, 8);
        for (int k = 0; k < 4; k++) {
            memcpy(&x, &v.a[k], 8), memcpy(&y, &v.b[k], 8);
            acc = fma(x, y, acc);
        }
        uint64_t h;
        memcpy(&h, &acc, 8);
        d = dot(&f64k4, &v);
        if (!same_or_both_nan(d, h, 0x7fffffffffffffffULL, isnan(acc)) && bad64++ == 0 && !first[0])
            snprintf(first, sizeof first, "f64 c 0x%016llx: model 0x%016llx, host 0x%016llx", (unsigned long long)v.c,
                     (unsigned long long)d, (unsigned long long)h);
    }
    char line[512];
    snprintf(line, sizeof line, "SFMA against the host's fma (default environment): %d f32 FMAs and %d f64 4-FMA "
             "chains around rounding boundaries, %ld + %ld mismatches%s%s", CROSS_CHECK_VECTORS, CROSS_CHECK_VECTORS,
             bad32, bad64, first[0] ? "; first: " : "", first);
    report(!bad32 && !bad64, line);
}

/* ---- 4. the entry points that take or give host doubles, in every environment ---- */

/* A binary64 value from its fields. */
static double f64_of(int sign, uint64_t biased, uint64_t mantissa)
{
    uint64_t bits = (uint64_t)(sign != 0) << 63 | biased << 52 | (mantissa & ((1ULL << 52) - 1));
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

static uint64_t bits_of(double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits;
}

enum { RANDOM_DOUBLES = 20000, RAW_PER_FORMAT = 20000 };

/* The doubles the conversions are held on, of both signs: every class of binary64 subnormal (the
 * smallest, the largest, each power of two 2^-1023 .. 2^-1074, the largest mantissa below each power,
 * random mantissas), the smallest normals, every power of two, each format's values and their
 * neighbours (ties and halfway points included), zeros, infinities, NaNs, and random bit patterns. */
static size_t conversion_inputs(double **out)
{
    size_t cap = 1 << 20, n = 0;
    double *x = malloc(cap * sizeof *x);
    if (!x)
        return 0;
#define PUT(v) (n < cap ? (void)(x[n++] = (v)) : (void)0)
    for (int sign = 0; sign < 2; sign++) {
        PUT(f64_of(sign, 0, 1));                           /* 2^-1074, the smallest subnormal */
        PUT(f64_of(sign, 0, (1ULL << 52) - 1));            /* the largest subnormal */
        for (int b = 0; b < 52; b++) {                     /* 2^(b - 1074) and every mantissa below it */
            PUT(f64_of(sign, 0, 1ULL << b));
            PUT(f64_of(sign, 0, (1ULL << b) - 1 + (b == 0)));
            PUT(f64_of(sign, 0, (1ULL << b) | 1));
        }
        for (int i = 0; i < 4000; i++)                     /* random subnormal mantissas, of every length */
            PUT(f64_of(sign, 0, mmaref_rand(&rng) >> (12 + mmaref_rand(&rng) % 52)));
        PUT(f64_of(sign, 1, 0));                           /* 2^-1022, the smallest normal */
        PUT(f64_of(sign, 1, 1));
        for (uint64_t e = 0; e < 2047; e++)                /* every power of two, and a neighbour */
            PUT(f64_of(sign, e, 0)), PUT(f64_of(sign, e, (1ULL << 52) - 1)), PUT(f64_of(sign, e, 1ULL << 51 | 1));
        PUT(f64_of(sign, 0, 0));                           /* +-0 */
        PUT(f64_of(sign, 2047, 0));                        /* +-inf */
        PUT(f64_of(sign, 2047, 1ULL << 51));               /* NaNs */
        PUT(f64_of(sign, 2047, 1));
    }
    /* each format's values, and the points halfway between neighbours (each a tie) and just beside them */
    for (int f = 0; f < MMAREF_FORMAT_COUNT; f++) {
        int w = mmaref_format_width((mmaref_format)f);
        if (w > 16)
            continue;
        for (uint64_t raw = 0; raw < 1ULL << w; raw += w > 8 && raw >> (w - 6) & 31 ? 13 : 1) { /* 16 bits:
                                                          * every value with a small exponent, 1 in 13 others */
            double v = mmaref_format_to_double((mmaref_format)f, raw);
            uint64_t b = bits_of(v);
            PUT(v);
            PUT(f64_of((int)(b >> 63), b >> 52 & 2047, (b & ((1ULL << 52) - 1)) + (1ULL << (51 - 10))));
            for (int d = -1; d <= 1; d += 2)
                if ((b & 0x7fffffffffffffffULL) != 0)
                    PUT(f64_of((int)(b >> 63), (b + (uint64_t)(int64_t)d) >> 52 & 2047, b + (uint64_t)(int64_t)d));
        }
    }
    for (int i = 0; i < RANDOM_DOUBLES; i++) {             /* random bits, and random values near 1 */
        uint64_t r = mmaref_rand(&rng);
        double v;
        memcpy(&v, &r, sizeof v);
        PUT(v);
        PUT(f64_of((int)(r & 1), 1023 - 130 + mmaref_rand(&rng) % 260, mmaref_rand(&rng)));
    }
#undef PUT
    *out = x;
    return n;
}

/* One conversion's answer: its status and raw bits. */
typedef struct {
    uint64_t bits;
    int status;
} answer;

static answer convert(int round, mmaref_format f, double x)
{
    answer a = {0, 0};
    a.status = round ? mmaref_format_round_double(f, x, &a.bits) : mmaref_format_from_double(f, x, &a.bits);
    return a;
}

static void conversions(void)
{
    double *x = NULL;
    size_t n = conversion_inputs(&x);
    uint64_t *raws = malloc((size_t)RAW_PER_FORMAT * MMAREF_FORMAT_COUNT * sizeof *raws);
    answer *want = malloc(n * MMAREF_FORMAT_COUNT * 2 * sizeof *want);
    uint64_t *want_d = malloc((size_t)RAW_PER_FORMAT * MMAREF_FORMAT_COUNT * sizeof *want_d);
    if (!n || !raws || !want || !want_d) {
        report(0, "conversions: out of memory");
        exit(1);
    }
    /* raw values for mmaref_format_to_double: every pattern of a format up to 16 bits, else random ones
     * (a third with a zero exponent field: subnormals and zeros), then their results in the default */
    size_t nraw[MMAREF_FORMAT_COUNT];
    for (int f = 0; f < MMAREF_FORMAT_COUNT; f++) {
        mmaref_format_info info;
        mmaref_format_get_info((mmaref_format)f, &info);
        uint64_t all = info.width == 64 ? ~0ULL : (1ULL << info.width) - 1;
        nraw[f] = info.width <= 14 ? (size_t)1 << info.width : RAW_PER_FORMAT;
        for (size_t i = 0; i < nraw[f]; i++) {
            uint64_t r = info.width <= 14 ? i : mmaref_rand(&rng) & all;
            if (info.width > 14 && i % 3 == 0)
                for (int p = 0; p < info.parts; p++) /* zero every part's exponent field */
                    r &= ~(((1ULL << info.exp_bits) - 1) << info.man_bits << p * (info.width / info.parts));
            raws[f * RAW_PER_FORMAT + i] = r;
            want_d[f * RAW_PER_FORMAT + i] = bits_of(mmaref_format_to_double((mmaref_format)f, r));
        }
    }
    size_t total_raw = 0;
    for (int f = 0; f < MMAREF_FORMAT_COUNT; f++)
        total_raw += nraw[f];
    for (size_t i = 0; i < n; i++)
        for (int f = 0; f < MMAREF_FORMAT_COUNT; f++)
            for (int r = 0; r < 2; r++)
                want[(i * MMAREF_FORMAT_COUNT + f) * 2 + r] = convert(r, (mmaref_format)f, x[i]);

    for (int e = 0; e < ENV_COUNT; e++) {
        if (!env_available(&environments[e]))
            continue;
        uint64_t differ = 0;
        char first[256] = "";
        env_enter(&environments[e]);
        for (size_t i = 0; i < n; i++)
            for (int f = 0; f < MMAREF_FORMAT_COUNT; f++)
                for (int r = 0; r < 2; r++) {
                    answer got = convert(r, (mmaref_format)f, x[i]), w = want[(i * MMAREF_FORMAT_COUNT + f) * 2 + r];
                    if ((got.status != w.status || (w.status == MMAREF_OK && got.bits != w.bits)) && differ++ == 0)
                        snprintf(first, sizeof first, "%s(%s, 0x%016llx): status %d bits 0x%llx, default %d 0x%llx",
                                 r ? "round_double" : "from_double", mmaref_format_name((mmaref_format)f),
                                 (unsigned long long)bits_of(x[i]), got.status, (unsigned long long)got.bits,
                                 w.status, (unsigned long long)w.bits);
                }
        for (int f = 0; f < MMAREF_FORMAT_COUNT; f++)
            for (size_t i = 0; i < nraw[f]; i++) {
                uint64_t r = raws[f * RAW_PER_FORMAT + i], got = bits_of(mmaref_format_to_double((mmaref_format)f, r));
                if (got != want_d[f * RAW_PER_FORMAT + i] && differ++ == 0)
                    snprintf(first, sizeof first, "to_double(%s, 0x%llx): 0x%016llx, default 0x%016llx",
                             mmaref_format_name((mmaref_format)f), (unsigned long long)r, (unsigned long long)got,
                             (unsigned long long)want_d[f * RAW_PER_FORMAT + i]);
            }
        env_leave();
        char line[512];
        snprintf(line, sizeof line, "%s: conversions: %zu doubles x %d formats through from_double and round_double, "
                 "%zu raw values through to_double: %llu differ from the default environment's%s%s",
                 environments[e].name, n, MMAREF_FORMAT_COUNT, total_raw, (unsigned long long)differ,
                 differ ? "; first: " : "", first);
        report(!differ, line);
    }
    free(x), free(raws), free(want), free(want_d);
}

/* The generator and the coverage model (both compute with double or long double): the first vectors of
 * every configuration and their bins, in every environment; and mmaref_explain's text (values printed
 * as decimals) for the first EXPLAIN_VECTORS of them. */
enum { GEN_VECTORS = 64, EXPLAIN_VECTORS = 4, EXPLAIN_LINES = 256 };

/* The trace of one dot-add as one string of its lines' text (0 where it does not run). */
static size_t explained(const mmaref_instr *in, const vector *x, char *out, size_t cap)
{
    static mmaref_trace_line lines[EXPLAIN_LINES];
    int count = 0;
    uint64_t d;
    char msg[256];
    if (mmaref_explain(in, x->c, x->a, x->b, x->sa, x->sb, lines, EXPLAIN_LINES, &count, &d, msg, sizeof msg))
        return 0;
    size_t n = 0;
    for (int i = 0; i < count && i < EXPLAIN_LINES && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s|%s|%s\n", lines[i].step, lines[i].what, lines[i].text);
    return n < cap ? n : cap;
}

static void generator_and_coverage(void)
{
    size_t count = mmaref_list(NULL, NULL, 0), configs = 0;
    mmaref_instr *all = calloc(count, sizeof *all);
    config_key *seen = calloc(count, sizeof *seen);
    uint64_t *hit = calloc(MMAREF_COV_MAX_BINS, sizeof *hit), *want_hit = calloc(MMAREF_COV_MAX_BINS, sizeof *hit);
    uint64_t differ[ENV_COUNT] = {0}, vectors = 0;
    char first[ENV_COUNT][256] = {{0}};
    if (!all || !seen || !hit || !want_hit) {
        report(0, "out of memory");
        exit(1);
    }
    mmaref_list(NULL, all, count);
    for (size_t i = 0; i < count; i++) {
        const mmaref_instr *in = &all[i];
        if (!config_first_seen(seen, &configs, in))
            continue;
        uint64_t directed = mmaref_gen_directed_count(in);
        int bins = mmaref_cov_bins(in, NULL, 0);
        for (int e = -1; e < ENV_COUNT; e++) { /* -1: the default environment, the reference */
            if (e >= 0 && !env_available(&environments[e]))
                continue;
            if (e >= 0)
                env_enter(&environments[e]);
            const char *what = NULL;
            uint64_t *h = e < 0 ? want_hit : hit;
            memset(h, 0, MMAREF_COV_MAX_BINS * sizeof *h);
            if (e >= 0 && (mmaref_gen_directed_count(in) != directed || mmaref_cov_bins(in, NULL, 0) != bins))
                what = "the directed count or the bin count";
            static vector want[GEN_VECTORS];
            static char want_text[EXPLAIN_VECTORS][1 << 16], text[1 << 16];
            for (uint64_t v = 0; v < GEN_VECTORS && !what; v++) {
                vector x;
                memset(&x, 0, sizeof x);
                int kind = mmaref_gen_vector(in, MMAREF_GEN_MIXED, SEED, v * 97, &x.c, x.a, x.b, x.sa, x.sb);
                if (e < 0)
                    want[v] = x;
                else if (memcmp(&x, &want[v], sizeof x) || kind < 0)
                    what = "a generated vector";
                uint64_t d = dot(in, &x);
                if (mmaref_cov_classify(in, x.c, x.a, x.b, x.sa, x.sb, d, h) < 0)
                    what = "a coverage classification";
                if (v < EXPLAIN_VECTORS) {
                    size_t n = explained(in, &x, e < 0 ? want_text[v] : text, sizeof text);
                    if (n == 0 || (e >= 0 && strcmp(text, want_text[v])))
                        what = "mmaref_explain's text";
                }
            }
            if (e >= 0)
                env_leave();
            if (e < 0) {
                vectors += GEN_VECTORS;
                continue;
            }
            if (!what && memcmp(hit, want_hit, MMAREF_COV_MAX_BINS * sizeof *hit))
                what = "the coverage bins hit";
            if (what && differ[e]++ == 0)
                snprintf(first[e], sizeof first[e], "%s %s: %s", in->arch, in->name, what);
        }
    }
    for (int e = 0; e < ENV_COUNT; e++) {
        if (!env_available(&environments[e]))
            continue;
        char line[512];
        snprintf(line, sizeof line, "%s: generator, coverage and explain: %zu configurations, %llu vectors and their "
                 "bins (%d explained each), %llu configurations differ from the default environment's%s%s",
                 environments[e].name, configs, (unsigned long long)vectors, EXPLAIN_VECTORS,
                 (unsigned long long)differ[e], differ[e] ? "; first: " : "", first[e]);
        report(!differ[e], line);
    }
    free(all), free(seen), free(hit), free(want_hit);
}

int main(void)
{
    every_configuration();
    known_results();
    host_fma_cross_check();
    conversions();
    generator_and_coverage();
    return failures != 0;
}
