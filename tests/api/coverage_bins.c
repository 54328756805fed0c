/* The coverage model against hand derivations (tests/t_model_coverage.sh): dot-adds whose bins follow
 * from the arithmetic written beside them, and bins whose unreachability follows from the formats.
 * The expected bins are written by name; the model's D is not used to decide them. */
#include <stdio.h>
#include <string.h>

#include "mmaref.h"

static int failures;

static void check(int ok, const char *what)
{
    printf("%s - coverage: %s\n", ok ? "ok" : "not ok", what);
    failures += !ok;
}

static mmaref_instr lookup(const char *arch, const char *name)
{
    mmaref_instr in;
    if (mmaref_lookup(arch, name, &in, NULL, 0) != MMAREF_OK) {
        printf("not ok - coverage: no instruction %s %s\n", arch, name);
        failures++;
    }
    return in;
}

static int bin_index(const mmaref_instr *in, const char *name, mmaref_cov_bin *bins, int *n)
{
    *n = mmaref_cov_bins(in, bins, MMAREF_COV_MAX_BINS);
    for (int i = 0; i < *n; i++)
        if (!strcmp(bins[i].name, name))
            return i;
    return -1;
}

/* The dot-add's bins include every name in want[] and none in not[]. */
static void expect_bins(const char *what, const mmaref_instr *in, uint64_t c, const uint64_t *a, const uint64_t *b,
                        const char *const *want, const char *const *not)
{
    static mmaref_cov_bin bins[MMAREF_COV_MAX_BINS];
    uint64_t hit[MMAREF_COV_MAX_BINS] = {0}, d;
    int n, ok = mmaref_dot(in, c, a, b, NULL, NULL, &d, NULL, 0) == MMAREF_OK &&
                mmaref_cov_classify(in, c, a, b, NULL, NULL, d, hit) > 0;
    char why[512] = "";
    for (; ok && *want; want++) {
        int i = bin_index(in, *want, bins, &n);
        if (i < 0 || !hit[i])
            ok = 0, snprintf(why, sizeof why, "%s: not in '%s'", what, *want);
    }
    for (; ok && not && *not; not++) {
        int i = bin_index(in, *not, bins, &n);
        if (i < 0 || hit[i])
            ok = 0, snprintf(why, sizeof why, "%s: in '%s', or no such bin", what, *not);
    }
    check(ok, ok ? what : why);
}

/* Bin `name` is unreachable for the instruction, its reason containing `reason`. */
static void expect_unreachable(const mmaref_instr *in, const char *name, const char *reason)
{
    static mmaref_cov_bin bins[MMAREF_COV_MAX_BINS];
    int n, i = bin_index(in, name, bins, &n);
    char what[400];
    snprintf(what, sizeof what, "%s %s: '%s' unreachable (%s)", in->arch, in->name, name,
             i >= 0 ? bins[i].unreachable : "no such bin");
    check(i >= 0 && strstr(bins[i].unreachable, reason) != NULL, what);
}

static void expect_reachable(const mmaref_instr *in, const char *name)
{
    static mmaref_cov_bin bins[MMAREF_COV_MAX_BINS];
    int n, i = bin_index(in, name, bins, &n);
    char what[300];
    snprintf(what, sizeof what, "%s %s: '%s' reachable", in->arch, in->name, name);
    check(i >= 0 && !bins[i].unreachable[0], what);
}

#define LIST(...) ((const char *const[]){__VA_ARGS__, NULL})

int main(void)
{
    /* Hopper HMMA.16816.F32: f16 A and B, K = 16, f32 C and D, FDA F = 25, output f32 RZ. */
    mmaref_instr h = lookup("hopper", "mma.m16n8k16.f32.f16.f16.f32");
    uint64_t a[16] = {0}, b[16] = {0};
    for (int k = 0; k < 16; k++)
        a[k] = 0x8000, b[k] = 0x3c00; /* -0 x 1 = -0 on every lane */
    expect_bins("C = -0, every product -0 x 1: the route '-0 terms only'; every lane -0; D is +0 (no -0 bin hit)", &h,
                0x80000000, a, b, LIST("+-0, C = -0 and every product -0", "lane 0: -0", "lane 15: -0"),
                LIST("-0", "+-0, every term +0", "+-0 by exact cancellation"));
    memset(a, 0, sizeof a), memset(b, 0, sizeof b);
    expect_bins("C = 2^-149, products +0: D = f32's smallest subnormal, exactly", &h, 0x00000001, a, b,
                LIST("subnormal", "sum exactly on D's last place"), LIST("a tie (exactly half an ulp)"));
    a[0] = 0x3c00, b[0] = 0x0001; /* 1 x 2^-24: inside F = 25 below e_max = 0 */
    expect_bins("C = 1, a0 b0 = 2^-24: 1 + 2^-24 is half of f32's ulp at 1, a tie", &h, 0x3f800000, a, b,
                LIST("a tie (exactly half an ulp)"),
                LIST("sum exactly on D's last place", "above half an ulp (round and sticky bits)"));
    b[0] = 0x0002;
    expect_bins("C = 1, a0 b0 = 2^-23: 1 + 2^-23 is on f32's grid", &h, 0x3f800000, a, b,
                LIST("sum exactly on D's last place"), LIST("a tie (exactly half an ulp)"));
    b[0] = 0x3c00;
    expect_bins("C = f32 max, a0 b0 = 1: the sum passes the largest finite, RZ gives it back", &h, 0x7f7fffff, a, b,
                LIST("+-largest finite", "sum past the largest finite, rounded back to it"), NULL);
    b[0] = 0xbc00;
    expect_bins("C = 1, a0 b0 = -1: exact cancellation", &h, 0x3f800000, a, b, LIST("+-0 by exact cancellation"),
                LIST("+-0 from a nonzero exact sum (underflow, bits lost)"));
    b[0] = 0x0400; /* 1 x 2^-14 against C = 2^20: e_max = 20 keeps bits down to 2^-5 */
    expect_bins("C = 2^20, a0 b0 = 2^-14: the product lies wholly below the 25 bits kept", &h, 0x49800000, a, b,
                LIST("a term wholly below the F bits (dropped)"), NULL);
    a[0] = 0x7c00, b[0] = 0x3c00, a[1] = 0xfc00, b[1] = 0x3c00;
    expect_bins("a0 = +inf, a1 = -inf: NaN from +inf and -inf, lanes 0 and 1 inf", &h, 0, a, b,
                LIST("NaN from +inf and -inf", "lane 0: inf", "lane 1: inf"), LIST("NaN from a NaN in A"));
    a[0] = 0x3c00, b[0] = 0x3c00, a[1] = 0x3c00, b[1] = 0x3c00, a[2] = 0x3c00, b[2] = 0x3c00;
    expect_bins("1 + 1 + 1 + C = 1 = 4: two binades above the largest term", &h, 0x3f800000, a, b,
                LIST("sum carries 2 binades above its largest term"), NULL);

    /* Unreachable bins, from the formats and the schedule. */
    expect_unreachable(&h, "-0", "gives +0 for every zero result");
    /* (2 - 2^-23) 2^127 + 16 x 65504^2 < 2^128: RZ never reaches infinity */
    expect_unreachable(&h, "+-inf from finite terms (overflow)", "RZ saturates");
    expect_unreachable(&h, "NaN from a NaN scale", "no block scales");
    /* Volta: f16 C widened into an f32 D; its smallest product 2^-48 and smallest C 2^-24 lie far above
     * f32's smallest normal 2^-126 */
    mmaref_instr v = lookup("volta", "mma.m8n8k4.f32.f16.f16.f16");
    expect_unreachable(&v, "subnormal", "the smallest is 2^-48");
    expect_reachable(&v, "+-0 by exact cancellation");
    /* Blackwell mma.sync FP8, f32 D: C added last by one IEEE addition (RNE, -0 + -0 = -0) to the passes'
     * result, which is +0 when it is zero (HMMA's rounding): P + C is never -0 */
    mmaref_instr bw = lookup("blackwell", "mma.m16n8k32.f32.e4m3.e4m3.f32");
    expect_unreachable(&bw, "-0", "the passes' result, which is never -0");
    /* ... and that addition of two terms carries at most one binade; it has no alignment window */
    expect_unreachable(&bw, "sum carries 2 binades above its largest term", "the last step adds two terms");
    expect_unreachable(&bw, "a tie broken only by the last bit F keeps", "no alignment window F");
    expect_reachable(&bw, "a sticky bit under a carry");
    expect_reachable(&bw, "pass 1: result rounded (inexact)");
    expect_unreachable(&bw, "NaN from 0 x inf", "no infinity");
    /* AMD CDNA3 FP8 (fnuz: no inf, no -0; a zero times a negative value is still a -0 product) */
    mmaref_instr c3 = lookup("cdna3", "v_mfma_f32_32x32x16_fp8_fp8");
    expect_unreachable(&c3, "+-inf from an infinite product", "no infinity");
    expect_reachable(&c3, "lane 0: -0");
    /* DMMA: an IEEE FMA chain keeps -0 + -0 * 1 = -0 */
    mmaref_instr dm = lookup("ampere", "mma.m8n8k4.f64.f64.f64.f64");
    expect_reachable(&dm, "-0");
    expect_unreachable(&dm, "a term wholly below the F bits (dropped)", "no alignment window");

    printf("%s - coverage: %s\n", failures ? "not ok" : "ok",
           failures ? "hand-derived bins differ" : "every hand-derived bin as derived");
    return failures != 0;
}
