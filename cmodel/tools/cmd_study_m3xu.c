/* mmaref study m3xu: does M3XU's FP32 mode give "the same results as FP32" (M3XU paper, section 3)?
 *
 * Random FP32 dot products d = c + sum_k a_k b_k (K = 4, m3xu.f32) and FP32C ones (K = 2 complex, m3xu.f32c),
 * drawn in stimulus classes, each computed five ways:
 *   exact      c + sum a_k b_k rounded once to nearest even f32, from exact binary64 expansions
 *              (expansion.h) and exact midpoint comparisons; it shares no code with the model;
 *   M3XU       mmaref_dot on the M3XU instruction (the golden model, docs/m3xu.md);
 *   fmaf       the sequential chain d = fmaf(a_k, b_k, d) from d = c, as CUDA cores compute it (the host's
 *              fmaf in the default environment: round to nearest even);
 *   3xTF32     CUTLASS's fast-accurate split (below) on Ampere's bit-exact mma.m16n8k4.f32.tf32.tf32.f32;
 *   3xBF16     the same split into bf16 halves on Ampere's mma.m16n8k8.f32.bf16.bf16.f32 (K = 8, the four
 *              products zero-padded: one FDA pass, one HMMA.1688).
 * An error is |D - exact| in ulps of the exact f32 (study_ulp); a method is correctly rounded on a sample when
 * its bits equal the exact result's.  FP32C: each part is such a dot over four real products (the real part
 * with the ai bi products negated), an error is the larger of the two parts'. */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "expansion.h"
#include "outfile.h"
#include "study.h"

const char study_m3xu_usage[] =
    "usage: mmaref study m3xu [--samples N] [--seed S] [--out DIR] [--no-plot]\n"
    "  Accuracy of M3XU's FP32 (m3xu.f32, K = 4) and FP32C (m3xu.f32c, K = 2 complex) modes on N random dot\n"
    "  products each, spread over stimulus classes (exponent spreads, cancellation, raw normals, one product,\n"
    "  subnormal results), against the correctly rounded result, the fmaf chain of CUDA cores, and 3xTF32 /\n"
    "  3xBF16 splitting on the bit-exact Ampere model.  Prints max / mean ulp error and the share correctly\n"
    "  rounded per method and class; writes DIR/m3xu.csv (ulp-error histograms), DIR/m3xu-samples.csv (the\n"
    "  first 100 samples of every class, raw bits), DIR/m3xu.gp and DIR/m3xu.png.\n"
    "  --samples N  dot products per mode, default 1000000 (about 10 s for both modes), at most 10000000\n";

/* The files written below --out DIR. */
#define CSV_NAME "m3xu.csv"
#define SMP_NAME "m3xu-samples.csv"
#define GP_NAME "m3xu.gp"
#define PNG_NAME "m3xu.png"

enum { DEFAULT_SAMPLES = 1000000, SAMPLE_ROWS = 100, K_MAX = 4 };

/* ---- the methods ---- */

enum { M_M3XU, M_FMAF, M_3XTF32, M_3XBF16, METHOD_COUNT };
static const char *const method_name[METHOD_COUNT] = {"M3XU", "fmaf-chain", "3xTF32", "3xBF16"};

/* ---- stimulus classes ---- */

typedef enum { C_SPREAD, C_CANCEL, C_RAW, C_SINGLE, C_TINY } class_kind;

typedef struct {
    const char *name;
    class_kind kind;
    int param; /* C_SPREAD: operand exponents within 2^param; C_CANCEL: |d| about 2^-param of the products */
} stim_class;

static const stim_class fp32_classes[] = {
    {"spread-2^0", C_SPREAD, 0},   {"spread-2^8", C_SPREAD, 8},    {"spread-2^24", C_SPREAD, 24},
    {"spread-2^60", C_SPREAD, 60}, {"cancel-2^-10", C_CANCEL, 10}, {"cancel-2^-20", C_CANCEL, 20},
    {"cancel-2^-40", C_CANCEL, 40}, {"raw-normal", C_RAW, 0},      {"one-product", C_SINGLE, 0},
    {"subnormal", C_TINY, 0},
};
static const stim_class fp32c_classes[] = {
    {"spread-2^0", C_SPREAD, 0},   {"spread-2^8", C_SPREAD, 8},    {"spread-2^24", C_SPREAD, 24},
    {"spread-2^60", C_SPREAD, 60}, {"cancel-2^-10", C_CANCEL, 10}, {"cancel-2^-20", C_CANCEL, 20},
    {"cancel-2^-40", C_CANCEL, 40}, {"raw-normal", C_RAW, 0},
};
#define CLASS_MAX 10

/* ---- error statistics ---- */

/* Histogram buckets of ulp errors: 0 exact; 1 (0, 1/2]; j >= 2 (2^(j-3), 2^(j-2)]; the last one an infinite
 * error (inf or NaN where the exact result is finite). */
enum { HIST_FINITE = 300, HIST_INF = HIST_FINITE, HIST_BUCKETS };

typedef struct {
    long n, correct, infinite, le_fmaf, lt_fmaf;
    double max, sum; /* over the finite errors */
    long hist[HIST_BUCKETS];
} err_stats;

typedef struct {
    const char *name, *instr;
    const stim_class *classes;
    int nclass;
    long skipped[CLASS_MAX]; /* samples whose exact result overflows */
    err_stats st[CLASS_MAX + 1][METHOD_COUNT]; /* [nclass] is all classes */
} suite;

static int bucket(double err)
{
    if (err == 0)
        return 0;
    if (!isfinite(err))
        return HIST_INF;
    if (err <= 0.5)
        return 1;
    int e;
    double m = frexp(err, &e); /* err = m 2^e, m in [1/2, 1): ceil(log2 err) is e - 1 when m = 1/2, else e */
    int j = (m == 0.5 ? e - 1 : e) + 2;
    return j < HIST_FINITE ? j : HIST_FINITE - 1;
}

static void bucket_bounds(int j, double *lo, double *hi)
{
    *lo = j == HIST_INF ? INFINITY : j <= 1 ? 0 : ldexp(1, j - 3);
    *hi = j == HIST_INF ? INFINITY : j == 0 ? 0 : ldexp(1, j - 2);
}

static void record(err_stats *s, const double *err, const int *correct, int m)
{
    s->n++;
    s->correct += correct[m];
    s->le_fmaf += err[m] <= err[M_FMAF];
    s->lt_fmaf += err[m] < err[M_FMAF];
    s->hist[bucket(err[m])]++;
    if (!isfinite(err[m])) {
        s->infinite++;
        return;
    }
    s->sum += err[m];
    if (err[m] > s->max)
        s->max = err[m];
}

/* ---- f32 bits ---- */

static uint32_t f32_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static float f32_of(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* The ulp of an f32 r: 2^(exponent(r) - 23) for a normal r, 2^-149 (the spacing of subnormals) for a
 * subnormal r or zero.  Errors are measured in ulps of the exact result, which is always finite here. */
static double study_ulp(float r)
{
    if (fabsf(r) < FLT_MIN)
        return 0x1p-149;
    int e;
    frexpf(r, &e); /* r = m 2^e, m in [1/2, 1) */
    return ldexp(1, e - 1 - 23);
}

static double ulp_error(float d, float exact)
{
    return isfinite(d) ? fabs((double)d - (double)exact) / study_ulp(exact) : INFINITY;
}

/* ---- the exact reference ---- */

/* Sign of (value of e) - m, exactly: the largest component of an expansion carries its sign. */
static int sign_minus(const expansion *e, double m)
{
    expansion t;
    t.n = e->n;
    memcpy(t.c, e->c, (size_t)e->n * sizeof *t.c);
    expansion_add(&t, -m);
    double top = t.c[t.n - 1];
    return (top > 0) - (top < 0);
}

/* Halfway between FLT_MAX and 2^128: an exact sum at least this large rounds (to nearest even) to inf. */
#define F32_OVERFLOW_MIDPOINT 0x1.ffffffp127

/* The exact sum held in e rounded to nearest even f32, decided by exact comparisons with the midpoints
 * between neighbouring floats (never by rounding e's double approximation: that would round twice).  An
 * exact zero gives +0 (-0 when every term is -0, as IEEE addition does); a nonzero sum that rounds to zero
 * keeps its sign.  Returns 1 (and no result) when the exact sum overflows f32. */
static int exact_f32_rne(const expansion *e, int all_negative_zero, float *out)
{
    double top = e->c[e->n - 1];
    if (top == 0) {
        *out = all_negative_zero ? -0.0f : 0.0f;
        return 0;
    }
    int s = sign_minus(e, copysign(F32_OVERFLOW_MIDPOINT, top));
    if (top > 0 ? s >= 0 : s <= 0)
        return 1;
    float f = (float)expansion_value(e); /* a first guess, corrected below */
    if (isinf(f))
        f = copysignf(FLT_MAX, f);
    for (;;) {
        float up = nextafterf(f, INFINITY), down = nextafterf(f, -INFINITY);
        double mid_up = isinf(up) ? F32_OVERFLOW_MIDPOINT : ((double)f + up) / 2; /* exact in binary64 */
        double mid_down = isinf(down) ? -F32_OVERFLOW_MIDPOINT : ((double)f + down) / 2;
        int above = sign_minus(e, mid_up), below = sign_minus(e, mid_down);
        if (above > 0) {
            f = up;
        } else if (below < 0) {
            f = down;
        } else {
            /* a tie goes to the neighbour with the even significand */
            if (above == 0 && (f32_bits(up) & 1) == 0)
                f = up;
            if (below == 0 && (f32_bits(down) & 1) == 0)
                f = down;
            break;
        }
    }
    *out = f == 0 ? copysignf(0.0f, (float)top) : f;
    return 0;
}

/* c + sum a_k b_k correctly rounded: an f32 product has at most 48 significant bits and an exponent
 * >= -298, so it is exact in binary64; the expansion sums the five terms exactly. */
static int exact_dot(const float *a, const float *b, float c, int k, float *out)
{
    expansion e = {{0}, 0};
    int all_negative_zero = c == 0 && signbit(c);
    for (int i = 0; i < k; i++) {
        double p = (double)a[i] * (double)b[i];
        expansion_add(&e, p);
        all_negative_zero &= p == 0 && signbit(p);
    }
    expansion_add(&e, c);
    return exact_f32_rne(&e, all_negative_zero, out);
}

/* ---- the other methods ---- */

static float fmaf_chain(const float *a, const float *b, float c, int k)
{
    float d = c;
    for (int i = 0; i < k; i++)
        d = fmaf(a[i], b[i], d);
    return d;
}

/* An f32 split into big + small of a narrower format (tf32, bf16) kept as f32 bit patterns, as CUTLASS's
 * NumericConverterFastF32 does it with the rounding styles MmaTensorOpFastF32 selects: big = x rounded toward
 * zero (the `drop` low mantissa bits cleared), small = x - big (exact in f32) rounded by
 * round_half_ulp_truncate (half an ulp of the narrow format added to the bits: to nearest, ties away). */
static void split(float x, int drop, uint32_t *big, uint32_t *small)
{
    uint32_t mask = ~0u << drop;
    *big = f32_bits(x) & mask;
    *small = (f32_bits(x - f32_of(*big)) + (1u << (drop - 1))) & mask;
}

typedef struct {
    mmaref_instr in;
    int drop;  /* f32 mantissa bits the narrow format lacks */
    int shift; /* the narrow format's raw bits are the f32 pattern >> shift (bf16: 16; tf32: 0, 32-bit) */
} split_mma;

static int run_dot(const mmaref_instr *in, uint64_t c, const uint64_t *a, const uint64_t *b, uint64_t *d)
{
    char msg[256];
    if (mmaref_dot(in, c, a, b, NULL, NULL, d, msg, sizeof msg))
        return cli_error("study: %s", msg);
    return 0;
}

/* 3xTF32 / 3xBF16 in CUTLASS's order (MmaTensorOpFastF32::operator()):
 *   D = C;  D = mma(A_small, B_big, D);  D = mma(A_big, B_small, D);  D = mma(A_big, B_big, D)
 * each mma the bit-exact Ampere model with D as its f32 C, the unused products zero. */
static int three_mma(const split_mma *sm, const float *a, const float *b, float c, int k, float *out)
{
    uint64_t ab[MMAREF_MAX_K] = {0}, as[MMAREF_MAX_K] = {0}, bb[MMAREF_MAX_K] = {0}, bs[MMAREF_MAX_K] = {0};
    for (int i = 0; i < k; i++) {
        uint32_t big, small;
        split(a[i], sm->drop, &big, &small);
        ab[i] = big >> sm->shift, as[i] = small >> sm->shift;
        split(b[i], sm->drop, &big, &small);
        bb[i] = big >> sm->shift, bs[i] = small >> sm->shift;
    }
    uint64_t d = f32_bits(c);
    if (run_dot(&sm->in, d, as, bb, &d) || run_dot(&sm->in, d, ab, bs, &d) || run_dot(&sm->in, d, ab, bb, &d))
        return 2;
    *out = f32_of((uint32_t)d);
    return 0;
}

/* ---- stimulus ---- */

static int rand_int(uint64_t *s, int lo, int hi) { return lo + (int)(mmaref_rand(s) % (uint64_t)(hi - lo + 1)); }

static double rand_unit(uint64_t *s) { return (mmaref_rand(s) >> 11) * 0x1p-53; } /* [0, 1) */

/* A random sign and 23 random mantissa bits at exponent e: |x| in [2^e, 2^(e+1)) (below 2^-126 it is rounded
 * to a subnormal). */
static float rand_f32(uint64_t *s, int e)
{
    uint64_t r = mmaref_rand(s);
    float m = 1.0f + (float)(r & 0x7fffff) * 0x1p-23f;
    return ldexpf(r >> 63 ? -m : m, e);
}

/* The exponent range of one sample of a class: operands in [2^lo, 2^(hi+1)), c in [2^clo, 2^(chi+1)). */
typedef struct {
    int lo, hi, clo, chi;
} exp_range;

static exp_range class_range(const stim_class *cl, uint64_t *s)
{
    if (cl->kind == C_RAW) /* products < 2^126, c < 2^128: the sum rarely overflows (skipped then) */
        return (exp_range){-62, 62, -126, 127};
    if (cl->kind == C_TINY) /* products 2^-160 .. 2^-118 and c near the subnormal range */
        return (exp_range){-80, -60, -150, -120};
    /* a spread (cancellation: 2^8) around a random centre; c within the products' range */
    int spread = cl->kind == C_SPREAD ? cl->param : 8, base = rand_int(s, -10, 10) - spread / 2;
    return (exp_range){base, base + spread, 2 * base, 2 * (base + spread)};
}

/* FP32: a[0..3], b[0..3], c of one sample. */
static void fp32_stimulus(const stim_class *cl, uint64_t *s, float *a, float *b, float *c)
{
    exp_range r = class_range(cl, s);
    for (int i = 0; i < K_MAX; i++) {
        a[i] = rand_f32(s, rand_int(s, r.lo, r.hi));
        b[i] = rand_f32(s, rand_int(s, r.lo, r.hi));
    }
    *c = rand_f32(s, rand_int(s, r.clo, r.chi));
    if (cl->kind == C_SINGLE) {
        /* one product with e_a + e_b >= -126, every other term zero: e_p = e_max (a zero c decodes with
         * exponent -126), so the product enters M3XU's sum exactly and is rounded once */
        int ea = rand_int(s, -63, 63), eb = rand_int(s, -126 - ea > -63 ? -126 - ea : -63, 63);
        a[0] = rand_f32(s, ea), b[0] = rand_f32(s, eb);
        for (int i = 1; i < K_MAX; i++)
            a[i] = b[i] = 0;
        *c = 0;
    } else if (cl->kind == C_CANCEL) {
        /* T = about 2^-L of the first three products' sum P; c = f32(T - P) cancels P; the last product
         * a3 b3 = f32((T - R) / b3) b3 takes back the rounding error of c (R = P + c), so that the whole
         * sum is T to within about 2^-48 |P| */
        expansion p = {{0}, 0};
        for (int i = 0; i < K_MAX - 1; i++)
            expansion_add(&p, (double)a[i] * b[i]);
        double pv = expansion_value(&p);
        double t = ldexp(0.5 + 0.5 * rand_unit(s), -cl->param) * fabs(pv) * (mmaref_rand(s) >> 63 ? -1 : 1);
        *c = (float)(t - pv);
        expansion_add(&p, *c);
        a[K_MAX - 1] = (float)((t - expansion_value(&p)) / b[K_MAX - 1]);
    }
}

/* FP32C: a[0..1], b[0..1], c as (re, im) pairs of floats: a[2i] re, a[2i+1] im. */
static void fp32c_stimulus(const stim_class *cl, uint64_t *s, float *a, float *b, float *c)
{
    exp_range r = class_range(cl, s);
    for (int i = 0; i < 4; i++) {
        a[i] = rand_f32(s, rand_int(s, r.lo, r.hi));
        b[i] = rand_f32(s, rand_int(s, r.lo, r.hi));
    }
    c[0] = rand_f32(s, rand_int(s, r.clo, r.chi));
    c[1] = rand_f32(s, rand_int(s, r.clo, r.chi));
    if (cl->kind != C_CANCEL)
        return;
    /* as in FP32, per part: P = a0 b0 (complex), c = f32(T - P), and a1 = (T - R) / b1 (complex division in
     * binary64, rounded per part) takes back c's rounding */
    expansion pre = {{0}, 0}, pim = {{0}, 0};
    expansion_add(&pre, (double)a[0] * b[0]);
    expansion_add(&pre, -(double)a[1] * b[1]);
    expansion_add(&pim, (double)a[0] * b[1]);
    expansion_add(&pim, (double)a[1] * b[0]);
    double pr = expansion_value(&pre), pi = expansion_value(&pim);
    double tr = ldexp(0.5 + 0.5 * rand_unit(s), -cl->param) * fabs(pr) * (mmaref_rand(s) >> 63 ? -1 : 1);
    double ti = ldexp(0.5 + 0.5 * rand_unit(s), -cl->param) * fabs(pi) * (mmaref_rand(s) >> 63 ? -1 : 1);
    c[0] = (float)(tr - pr), c[1] = (float)(ti - pi);
    expansion_add(&pre, c[0]);
    expansion_add(&pim, c[1]);
    double xr = tr - expansion_value(&pre), xi = ti - expansion_value(&pim);
    double br = b[2], bi = b[3], den = br * br + bi * bi;
    a[2] = (float)((xr * br + xi * bi) / den);
    a[3] = (float)((xi * br - xr * bi) / den);
}

/* The two real dots of a complex one: re = cr + ar0 br0 - ai0 bi0 + ar1 br1 - ai1 bi1 (the ai negated, as
 * M3XU's data assignment flips their sign), im = ci + ar0 bi0 + ai0 br0 + ar1 bi1 + ai1 br1. */
static void complex_parts(const float *a, const float *b, float *a_re, float *b_re, float *a_im, float *b_im)
{
    for (int i = 0; i < 2; i++) {
        a_re[2 * i] = a[2 * i], b_re[2 * i] = b[2 * i];
        a_re[2 * i + 1] = -a[2 * i + 1], b_re[2 * i + 1] = b[2 * i + 1];
        a_im[2 * i] = a[2 * i], b_im[2 * i] = b[2 * i + 1];
        a_im[2 * i + 1] = a[2 * i + 1], b_im[2 * i + 1] = b[2 * i];
    }
}

/* ---- the study ---- */

typedef struct {
    mmaref_instr f32, f32c;
    split_mma tf32, bf16;
    FILE *samples;
} study_ctx;

/* The non-M3XU methods on one real dot (K = 4): results into d[M_FMAF..]. */
static int other_methods(const study_ctx *x, const float *a, const float *b, float c, float *d)
{
    d[M_FMAF] = fmaf_chain(a, b, c, K_MAX);
    if (three_mma(&x->tf32, a, b, c, K_MAX, &d[M_3XTF32]) || three_mma(&x->bf16, a, b, c, K_MAX, &d[M_3XBF16]))
        return 2;
    return 0;
}

static void write_list(FILE *f, const uint64_t *v, int n, int digits)
{
    for (int i = 0; i < n; i++)
        fprintf(f, "%s0x%0*llx", i ? " " : "", digits, (unsigned long long)v[i]);
}

/* One sample row of DIR/m3xu-samples.csv: raw bits of the operands and of every method's D. */
static void sample_row(FILE *f, const char *suite_name, const char *cls, int k, uint64_t c, const uint64_t *a,
                       const uint64_t *b, const uint64_t *d, uint64_t exact, int digits)
{
    fprintf(f, "%s,%s,%d,0x%0*llx,", suite_name, cls, k, digits, (unsigned long long)c);
    write_list(f, a, k, digits);
    fputc(',', f);
    write_list(f, b, k, digits);
    fprintf(f, ",0x%0*llx", digits, (unsigned long long)exact);
    for (int m = 0; m < METHOD_COUNT; m++)
        fprintf(f, ",0x%0*llx", digits, (unsigned long long)d[m]);
    fputc('\n', f);
}

static void count(suite *su, int cls, const double *err, const int *correct)
{
    for (int m = 0; m < METHOD_COUNT; m++) {
        record(&su->st[cls][m], err, correct, m);
        record(&su->st[su->nclass][m], err, correct, m);
    }
}

/* One FP32 sample of class cls; row: whether to write it to the samples CSV. */
static int fp32_sample(const study_ctx *x, suite *su, int cls, uint64_t *s, int row)
{
    float a[K_MAX], b[K_MAX], c, exact, d[METHOD_COUNT];
    fp32_stimulus(&su->classes[cls], s, a, b, &c);
    if (exact_dot(a, b, c, K_MAX, &exact)) {
        su->skipped[cls]++;
        return 0;
    }
    uint64_t ra[K_MAX], rb[K_MAX], rd;
    for (int i = 0; i < K_MAX; i++)
        ra[i] = f32_bits(a[i]), rb[i] = f32_bits(b[i]);
    if (run_dot(&x->f32, f32_bits(c), ra, rb, &rd) || other_methods(x, a, b, c, d))
        return 2;
    d[M_M3XU] = f32_of((uint32_t)rd);
    double err[METHOD_COUNT];
    int correct[METHOD_COUNT];
    uint64_t bits[METHOD_COUNT];
    for (int m = 0; m < METHOD_COUNT; m++) {
        err[m] = ulp_error(d[m], exact);
        bits[m] = f32_bits(d[m]);
        correct[m] = bits[m] == f32_bits(exact);
    }
    count(su, cls, err, correct);
    if (row)
        sample_row(x->samples, su->name, su->classes[cls].name, K_MAX, f32_bits(c), ra, rb, bits, f32_bits(exact), 8);
    return 0;
}

static uint64_t pack(float re, float im) { return (uint64_t)f32_bits(im) << 32 | f32_bits(re); }

static int fp32c_sample(const study_ctx *x, suite *su, int cls, uint64_t *s, int row)
{
    float a[4], b[4], c[2], a_re[4], b_re[4], a_im[4], b_im[4], ex[2], d[2][METHOD_COUNT];
    fp32c_stimulus(&su->classes[cls], s, a, b, c);
    complex_parts(a, b, a_re, b_re, a_im, b_im);
    if (exact_dot(a_re, b_re, c[0], K_MAX, &ex[0]) || exact_dot(a_im, b_im, c[1], K_MAX, &ex[1])) {
        su->skipped[cls]++;
        return 0;
    }
    uint64_t ra[2] = {pack(a[0], a[1]), pack(a[2], a[3])}, rb[2] = {pack(b[0], b[1]), pack(b[2], b[3])}, rd;
    if (run_dot(&x->f32c, pack(c[0], c[1]), ra, rb, &rd) || other_methods(x, a_re, b_re, c[0], d[0]) ||
        other_methods(x, a_im, b_im, c[1], d[1]))
        return 2;
    d[0][M_M3XU] = f32_of((uint32_t)rd), d[1][M_M3XU] = f32_of((uint32_t)(rd >> 32));
    double err[METHOD_COUNT];
    int correct[METHOD_COUNT];
    uint64_t bits[METHOD_COUNT];
    for (int m = 0; m < METHOD_COUNT; m++) {
        err[m] = fmax(ulp_error(d[0][m], ex[0]), ulp_error(d[1][m], ex[1]));
        bits[m] = pack(d[0][m], d[1][m]);
        correct[m] = bits[m] == pack(ex[0], ex[1]);
    }
    count(su, cls, err, correct);
    if (row)
        sample_row(x->samples, su->name, su->classes[cls].name, 2, pack(c[0], c[1]), ra, rb, bits,
                   pack(ex[0], ex[1]), 16);
    return 0;
}

/* ---- reports ---- */

static void print_row(const char *cls, const char *method, const err_stats *s)
{
    char max[32];
    if (s->infinite)
        snprintf(max, sizeof max, "inf");
    else
        snprintf(max, sizeof max, "%.6g", s->max);
    double n = s->n ? (double)s->n : 1;
    printf("  %-13s %-11s %8ld %12s %12.4g %10.4f%% %9.4f%% %9.4f%% %7ld\n", cls, method, s->n, max,
           s->n > s->infinite ? s->sum / (s->n - s->infinite) : 0.0, 100 * s->correct / n, 100 * s->le_fmaf / n,
           100 * s->lt_fmaf / n, s->infinite);
}

static void print_suite(const suite *su, long samples)
{
    long skipped = 0;
    for (int c = 0; c < su->nclass; c++)
        skipped += su->skipped[c];
    printf("\n%s: %s, %ld dot products, %ld skipped (exact result overflows f32)\n", su->name, su->instr, samples,
           skipped);
    printf("  %-13s %-11s %8s %12s %12s %11s %10s %10s %7s\n", "class", "method", "n", "max ulp", "mean ulp",
           "correct", "<= fmaf", "< fmaf", "inf");
    for (int c = 0; c <= su->nclass; c++)
        for (int m = 0; m < METHOD_COUNT; m++)
            print_row(c < su->nclass ? su->classes[c].name : "all", method_name[m], &su->st[c][m]);
}

/* The answer to the paper's claim, from the run's numbers. */
static void print_claim(const suite *su, const char *mode)
{
    const err_stats *m = &su->st[su->nclass][M_M3XU], *f = &su->st[su->nclass][M_FMAF];
    double n = m->n ? (double)m->n : 1, max_plain = 0, worst = 0;
    long n_plain = 0, cr_plain = 0;
    const char *worst_class = "-";
    for (int c = 0; c < su->nclass; c++) {
        const err_stats *s = &su->st[c][M_M3XU];
        if (su->classes[c].kind != C_CANCEL) {
            n_plain += s->n, cr_plain += s->correct;
            max_plain = fmax(max_plain, s->max);
        }
        if (s->max > worst)
            worst = s->max, worst_class = su->classes[c].name;
    }
    if (m->correct == m->n)
        printf("  %s: bit-identical to correctly rounded FP32 on all %ld samples.\n", mode, m->n);
    else
        printf("  %s: not bit-identical to correctly rounded FP32: correctly rounded on %.4f%% of the %ld "
               "samples,\n    within %.6g ulp of it%s (mean %.4g ulp; largest in class %s).\n",
               mode, 100 * m->correct / n, m->n, m->infinite ? INFINITY : m->max,
               m->infinite ? "" : " on every sample", m->n > m->infinite ? m->sum / (m->n - m->infinite) : 0.0,
               worst_class);
    printf("    Without the cancellation classes: correctly rounded on %.4f%%, within %.6g ulp.\n"
           "    At least as close as the fmaf chain (FP32 on CUDA cores: correctly rounded on %.4f%%, max %.6g "
           "ulp)\n    on %.4f%% of the samples, strictly closer on %.4f%%.\n",
           n_plain ? 100.0 * cr_plain / n_plain : 0.0, max_plain, 100 * f->correct / n,
           f->infinite ? INFINITY : f->max, 100 * m->le_fmaf / n, 100 * m->lt_fmaf / n);
}

static int write_hist(FILE *f, const suite *su)
{
    int top = 0; /* the highest nonempty finite bucket of the suite */
    for (int c = 0; c <= su->nclass; c++)
        for (int m = 0; m < METHOD_COUNT; m++)
            for (int j = 0; j < HIST_INF; j++)
                if (su->st[c][m].hist[j] && j > top)
                    top = j;
    for (int c = 0; c <= su->nclass; c++)
        for (int m = 0; m < METHOD_COUNT; m++)
            for (int j = 0; j <= HIST_INF; j++) {
                if (j > top && j < HIST_INF)
                    continue;
                double lo, hi;
                bucket_bounds(j, &lo, &hi);
                fprintf(f, "%s,%s,%s,%d,%g,%g,%ld\n", su->name, c < su->nclass ? su->classes[c].name : "all",
                        method_name[m], j, lo, hi, su->st[c][m].hist[j]);
            }
    return top;
}

int study_m3xu_gp(FILE *f, const char *csv_name, const char *png_name, long samples, int top)
{
    char csv[2 * PATH_MAX + 3], png[2 * PATH_MAX + 3];
    if (study_gnuplot_string(csv, sizeof csv, csv_name) || study_gnuplot_string(png, sizeof png, png_name))
        return -1;
    static const char *const colour[METHOD_COUNT] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd"};
    fprintf(f,
            "# mmaref study m3xu: ulp-error distributions per method (columns of the CSV);\n"
            "# run in the directory of the CSV (mmaref study does)\n"
            "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size 1100,900 } "
            "else { set terminal png size 1100,900 }\n"
            "if (!exists(\"png\")) png = %s\nset output png\nset datafile separator ','\nset termoption noenhanced\n"
            "set logscale y\nset grid\nset key top right\nset style data linespoints\n"
            "set xlabel 'ulp error of D against the correctly rounded f32 (bucket upper bound)'\n"
            "set ylabel 'dot products'\nset xtics rotate by -45\n"
            "set xtics ('0' 0, '1' 2",
            png);
    int step = top > 40 ? 4 : top > 20 ? 2 : 1;
    for (int j = 2 + step; j <= top; j += step)
        fprintf(f, ", '2^%d' %d", j - 2, j);
    fprintf(f, ", 'inf' %d)\nset xrange [-0.5:%d.5]\nset multiplot layout 2,1\n", top + 1, top + 1);
    /* the infinite bucket is drawn at top + 1 */
    for (int s = 0; s < 2; s++) {
        const char *name = s ? "FP32C" : "FP32";
        fprintf(f, "set title '%s: %ld dot products (all classes)'\nplot ", name, samples);
        for (int m = 0; m < METHOD_COUNT; m++)
            fprintf(f,
                    "%s%s every ::1 using (strcol(1) eq '%s' && strcol(2) eq 'all' && strcol(3) eq '%s' ? "
                    "($4 > %d ? %d : $4) : NaN):($7 > 0 ? $7 : NaN) lc rgb '%s' title '%s'",
                    m ? ", \\\n     " : "", m ? "''" : csv, name, method_name[m], top, top + 1, colour[m],
                    method_name[m]);
        fputs("\n", f);
    }
    fputs("unset multiplot\n", f);
    return ferror(f) ? -1 : 0;
}

/* A line on stderr every 10% of a long run (10^5 dot products or more). */
static void progress(long done, long total, long *next)
{
    if (total >= 100000 && done >= *next) {
        fprintf(stderr, "study m3xu: %ld%% (%ld of %ld dot products)\n", 100 * done / total, done, total);
        *next += total / 10 > 0 ? total / 10 : 1;
    }
}

static int run_suite(study_ctx *x, suite *su, long samples, uint64_t seed, int complex_mode, long done, long total,
                     long *next)
{
    uint64_t s = seed * 2 + (uint64_t)complex_mode;
    for (int c = 0; c < su->nclass; c++) {
        long n = samples / su->nclass + (c < samples % su->nclass);
        for (long i = 0; i < n; i++) {
            int row = i < SAMPLE_ROWS;
            if (complex_mode ? fp32c_sample(x, su, c, &s, row) : fp32_sample(x, su, c, &s, row))
                return 2;
            progress(++done, total, next);
        }
    }
    return 0;
}

int study_m3xu(const study_options *o)
{
    long samples = o->samples ? o->samples : DEFAULT_SAMPLES;
    static study_ctx x;
    if (cli_lookup("m3xu", "m3xu.m8n4k4.f32.f32.f32.f32", &x.f32) ||
        cli_lookup("m3xu", "m3xu.m8n4k2.f32c.f32c.f32c.f32c", &x.f32c) ||
        cli_lookup("ampere", "mma.m16n8k4.f32.tf32.tf32.f32", &x.tf32.in) ||
        cli_lookup("ampere", "mma.m16n8k8.f32.bf16.bf16.f32", &x.bf16.in))
        return 2;
    int f32_man = mmaref_format_precision(MMAREF_F32);
    x.tf32 = (split_mma){x.tf32.in, f32_man - mmaref_format_precision(MMAREF_TF32), 0};
    x.bf16 = (split_mma){x.bf16.in, f32_man - mmaref_format_precision(MMAREF_BF16),
                         32 - mmaref_format_width(MMAREF_BF16)};

    /* the longest file name written below DIR, with its temporary's suffix (outfile.c) */
    if (strlen(o->dir) + sizeof "/" SMP_NAME ".tmpXXXXXX" > PATH_MAX)
        return cli_error("study: --out '%.40s...' is longer than a path can be (%d bytes with the file name)",
                         o->dir, PATH_MAX);
    if (study_mkdir_p(o->dir))
        return cli_error("study: cannot create directory '%s': %s", o->dir, strerror(errno));
    char csv[PATH_MAX], gp[PATH_MAX], png[PATH_MAX], smp[PATH_MAX], err[300];
    snprintf(csv, sizeof csv, "%s/" CSV_NAME, o->dir);
    snprintf(gp, sizeof gp, "%s/" GP_NAME, o->dir);
    snprintf(png, sizeof png, "%s/" PNG_NAME, o->dir);
    snprintf(smp, sizeof smp, "%s/" SMP_NAME, o->dir);
    /* the three files replace what was there only when all are complete (outfile.h) */
    static out_file smp_out, csv_out, gp_out;
    if (out_file_open(&smp_out, smp, err, sizeof err))
        return cli_error("study: cannot write '%s': %s", smp, err);
    x.samples = smp_out.f;
    fprintf(x.samples, "suite,class,k,c,a,b,exact,%s,%s,%s,%s\n", method_name[0], method_name[1], method_name[2],
            method_name[3]);

    static suite fp32, fp32c; /* about 100 KB each: off the stack */
    fp32 = (suite){.name = "FP32", .instr = x.f32.name, .classes = fp32_classes,
                   .nclass = (int)(sizeof fp32_classes / sizeof *fp32_classes)};
    fp32c = (suite){.name = "FP32C", .instr = x.f32c.name, .classes = fp32c_classes,
                    .nclass = (int)(sizeof fp32c_classes / sizeof *fp32c_classes)};
    long next = 2 * samples / 10 > 0 ? 2 * samples / 10 : 1; /* progress lines every 10% */
    if (run_suite(&x, &fp32, samples, o->seed, 0, 0, 2 * samples, &next) ||
        run_suite(&x, &fp32c, samples, o->seed, 1, samples, 2 * samples, &next)) {
        out_file_abandon(&smp_out);
        return 2;
    }
    if (out_file_open(&csv_out, csv, err, sizeof err)) {
        out_file_abandon(&smp_out);
        return cli_error("study: cannot write '%s': %s", csv, err);
    }
    fprintf(csv_out.f, "suite,class,method,bucket,ulp_lo,ulp_hi,count\n");
    int top = write_hist(csv_out.f, &fp32), top_c = write_hist(csv_out.f, &fp32c);
    if (out_file_open(&gp_out, gp, err, sizeof err)) {
        out_file_abandon(&smp_out), out_file_abandon(&csv_out);
        return cli_error("study: cannot write '%s': %s", gp, err);
    }
    if (study_m3xu_gp(gp_out.f, CSV_NAME, PNG_NAME, samples, top > top_c ? top : top_c)) {
        out_file_abandon(&smp_out), out_file_abandon(&csv_out), out_file_abandon(&gp_out);
        return cli_error("study: cannot write '%s'", gp);
    }
    out_file *outs[3] = {&smp_out, &csv_out, &gp_out};
    const char *paths[3] = {smp, csv, gp};
    for (int i = 0; i < 3; i++)
        if (out_file_commit(outs[i], err, sizeof err)) {
            for (int j = i + 1; j < 3; j++)
                out_file_abandon(outs[j]);
            return cli_error("study: cannot write '%s': %s", paths[i], err);
        }

    printf("m3xu accuracy study: seed %llu; ulp errors of D against the correctly rounded (RNE) f32, in ulps of\n"
           "that result (2^-149 for a subnormal or zero); 'correct': bit-identical to it; '<= fmaf' / '< fmaf': "
           "the\nerror is at most / below the fmaf chain's; 'inf': inf or NaN where the exact result is finite\n",
           (unsigned long long)o->seed);
    printf("  3xTF32 / 3xBF16: CUTLASS's split (big toward zero, small = x - big to nearest) and order "
           "(A_s B_b, A_b B_s, A_b B_b)\n  on ampere %s / %s\n", x.tf32.in.name, x.bf16.in.name);
    print_suite(&fp32, samples);
    print_suite(&fp32c, samples);

    printf("\nThe paper's claim \"the same results as FP32\":\n");
    print_claim(&fp32, "M3XU-FP32");
    print_claim(&fp32c, "M3XU-FP32C (both parts)");
    printf("  csv: %s (histograms), %s (first %d samples per class)\n", csv, smp, SAMPLE_ROWS);
    if (!o->plot) {
        printf("  gnuplot script: %s (not run: --no-plot)\n", gp);
        return 0;
    }
    return study_run_gnuplot(o->dir, GP_NAME, png, csv);
}
