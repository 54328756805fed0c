/* Group pairwise sum (GPS), the MMA-Sim paper, section IV-B, Algorithms 2 and 3: AMD CDNA1 and CDNA2 FP16/BF16
 * MFMA.  FP32 arithmetic, each operation rounded once to nearest even: products, then pairwise sums
 * inside each group of G consecutive products, then the group sums added to c one after another.  The
 * operations are the project's integer IEEE ones (ieee_arith.c), so D does not depend on the host's
 * floating-point environment (rounding mode, flush-to-zero / denormals-are-zero).
 *
 * CDNA2 flushes subnormals (paper Step 1-4): subnormal (and zero) inputs become +0; a product or sum
 * below 2^-126 in magnitude becomes a zero of its own sign.  CDNA1 has no hardware data in the paper;
 * mmaref gives it the same algorithm without any flushing (see docs/algorithms.md, "AMD"). */
#include <stdio.h>

#include "algo.h"
#include "ieee_arith.h"

/* "x <- x * 0.0 if |x| < 2^-126": a rounded FP32 result below the smallest normal number (a subnormal)
 * becomes a zero of its sign. */
static uint64_t flush_keep_sign(const fmt_desc *f, uint64_t x)
{
    return fmt_decode(f, x).cls == CLS_SUBNORMAL ? x & (1ULL << (f->width - 1)) : x;
}

/* Step 1: an operand's exact value (every f16/bf16/f32 value is an FP32 one); subnormal and zero inputs
 * become +0 when the architecture flushes. */
static ieee_value operand(const fmt_desc *f, uint64_t raw, int flush)
{
    ieee_value v = ieee_decode(f, raw);
    return flush && (v.cls == CLS_SUBNORMAL || v.cls == CLS_ZERO) ? ieee_plus_zero : v;
}

/* Algorithm 2: PAIRWISESUM(p_first .. p_{first+n-1}) of FP32 values (bits), each addition rounded and
 * flushed; traced, each addition's line after those of its two halves. */
static uint64_t pairwise_sum(const fmt_desc *f, const uint64_t *p, int first, int n, int flush, trace_sink *t)
{
    if (n == 1)
        return p[first];
    uint64_t left = pairwise_sum(f, p, first, n / 2, flush, t);
    uint64_t right = pairwise_sum(f, p, first + n / 2, n - n / 2, flush, t);
    uint64_t g = ieee_add(f, ieee_decode(f, left), ieee_decode(f, right));
    if (flush)
        g = flush_keep_sign(f, g);
    if (t) {
        char what[32];
        snprintf(what, sizeof what, "p[%d..%d]", first, first + n - 1);
        trace_result(t, "Step 3", what, -1, flush ? "RNE(left + right), flushed = " : "RNE(left + right) = ", f, g, 0);
    }
    return g;
}

static inline __attribute__((always_inline)) uint64_t
gps_pass(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
         const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t)
{
    (void)sa, (void)sb;
    const int flush = p->flush, k = p->k_count;
    const fmt_desc *fa = fmt_of(in->a), *fb = fmt_of(in->b), *f32 = pass_out_format(p); /* f32-rne */
    const int G = p->group; /* >= 1 (mmaref_check_schedule) */
    uint64_t prod[MMAREF_MAX_K];

    /* Steps 1-2: flush the inputs, FP32 products, flush the products keeping their sign. */
    for (int i = 0; i < k; i++) {
        prod[i] = ieee_mul(f32, operand(fa, a[i], flush), operand(fb, b[i], flush));
        if (flush)
            prod[i] = flush_keep_sign(f32, prod[i]);
        if (t)
            trace_result(t, "Step 2", "p", i, flush ? "RNE(a*b), inputs and result flushed = " : "RNE(a*b) = ", f32,
                         prod[i], 0);
    }
    /* Steps 3-4: d = c (flushed to +0), then d += PAIRWISESUM(group) group after group.  K >= 1
     * (mmaref_check_schedule), so d is written at least once.  A NaN is the canonical one (the MFMA
     * NaN payload is unknown, paper section V). */
    ieee_value dv = operand(fmt_of(c_fmt), c, flush);
    uint64_t d = 0;
    for (int g = 0; g < k; g += G) {
        d = ieee_add(f32, dv, ieee_decode(f32, pairwise_sum(f32, prod, g, k - g < G ? k - g : G, flush, t)));
        if (flush)
            d = flush_keep_sign(f32, d);
        if (t) {
            char what[32];
            snprintf(what, sizeof what, "d after group %d", g / G);
            trace_result(t, "Step 4", what, -1, "RNE(d + group sum) = ", f32, d, 0);
        }
        dv = ieee_decode(f32, d);
    }
    return d;
}

uint64_t algo_gps(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                  const uint64_t *b, const uint64_t *sa, const uint64_t *sb)
{
    return gps_pass(in, p, c_fmt, c, a, b, sa, sb, NULL);
}

uint64_t algo_gps_trace(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,
                        const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t)
{
    return gps_pass(in, p, c_fmt, c, a, b, sa, sb, t);
}
