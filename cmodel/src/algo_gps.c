/* Group pairwise sum (GPS), the MMA-Sim paper, section IV-B, Algorithms 2 and 3: AMD CDNA1 and CDNA2 FP16/BF16
 * MFMA.  Standard FP32 arithmetic (round to nearest even): products, then pairwise sums inside each
 * group of G consecutive products, then the group sums added to c one after another.
 *
 * CDNA2 flushes subnormals (paper Step 1-4): subnormal (and zero) inputs become +0; a product or sum
 * below 2^-126 in magnitude becomes a zero of its own sign.  CDNA1 has no hardware data in the paper;
 * mmaref gives it the same algorithm without any flushing (see docs/algorithms.md, "AMD"). */
#include <math.h>
#include <string.h>

#include "algo.h"
#include "format.h"

/* One FP32 operation each, rounded to nearest even.  The volatile store keeps the compiler from
 * contracting a product and a sum into one fused multiply-add. */
static float f32_mul(float x, float y)
{
    volatile float r = x * y;
    return r;
}

static float f32_add(float x, float y)
{
    volatile float r = x + y;
    return r;
}

/* "x <- x * 0.0 if |x| < 2^-126": flush to zero with the sign preserved. */
static float flush_keep_sign(float x) { return fabsf(x) < 0x1p-126f ? x * 0.0f : x; }

/* Exact value of an operand as FP32 (every f16/bf16/f32 value is one); Step 1 flushes subnormal and
 * zero inputs to +0 when the architecture flushes. */
static float operand_f32(const fmt_desc *f, uint64_t raw, int flush)
{
    fp_unpacked u = fmt_decode(f, raw);
    if (flush && (u.cls == CLS_SUBNORMAL || u.cls == CLS_ZERO))
        return 0.0f;
    switch (u.cls) {
    case CLS_NAN: return NAN;
    case CLS_INF: return u.sign ? -INFINITY : INFINITY;
    default: {
        float v = ldexpf((float)u.sig, u.exp - f->man_bits); /* sig < 2^24: exact */
        return u.sign ? -v : v;
    }
    }
}

/* Algorithm 2: PAIRWISESUM(p_0 .. p_{n-1}). */
static float pairwise_sum(const float *p, int n, int flush)
{
    if (n == 1)
        return p[0];
    float g = f32_add(pairwise_sum(p, n / 2, flush), pairwise_sum(p + n / 2, n - n / 2, flush));
    return flush ? flush_keep_sign(g) : g;
}

ALGO_PASS(algo_gps)
{
    (void)sa, (void)sb;
    const int flush = p->flush, k = p->k_count;
    const fmt_desc *fa = fmt_of(in->a), *fb = fmt_of(in->b);
    const int G = p->group; /* >= 1 (mmaref_check_schedule) */
    float prod[MMAREF_MAX_K];

    /* Steps 1-2: flush the inputs, FP32 products, flush the products keeping their sign. */
    for (int i = 0; i < k; i++) {
        prod[i] = f32_mul(operand_f32(fa, a[i], flush), operand_f32(fb, b[i], flush));
        if (flush)
            prod[i] = flush_keep_sign(prod[i]);
    }
    /* Steps 3-4: d = c (flushed to +0), then d += PAIRWISESUM(group) group after group. */
    float d = operand_f32(fmt_of(c_fmt), c, flush);
    for (int g = 0; g < k; g += G) {
        d = f32_add(d, pairwise_sum(prod + g, k - g < G ? k - g : G, flush));
        if (flush)
            d = flush_keep_sign(d);
    }
    /* NaN payload of MFMA is unknown (paper section V): the canonical NaN with every mantissa bit set. */
    if (isnan(d))
        return fmt_canonical_nan(pass_out_format(p));
    uint32_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}
