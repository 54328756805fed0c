/* M3XU: FP32 and complex FP32 (FP32C) dot-adds on a unit of 12-bit multipliers (the M3XU paper,
 * sections III-IV and Fig. 3; the exact definition, step by step, in docs/m3xu.md).
 *
 * One lane pair per FP32 product.  The data-assignment stage splits each significand into a high and a
 * low 12-bit half, sign and exponent wired to both; two multiply steps leave the exact 48-bit product in
 * the pair's register; the products and C are then summed as FDA sums them (aligned to e_max keeping
 * F_w fractional bits, the rest truncated, summed exactly) and rounded to nearest even.  FP32C is two
 * such dots: the real part (steps 1-2), the imaginary part (steps 3-4).
 * This file is the step form; the closed form it equals (exact products aligned and truncated once) is
 * the test oracle's, tests/oracle/ref_m3xu.py. */
#include "algo.h"
#include "fixed.h"
#include "format.h"

/* The halves of an f32 significand (M3XU_HALF_BITS, algo.h). */
enum { HALF_BITS = M3XU_HALF_BITS, HALF_MASK = (1 << HALF_BITS) - 1 };

/* One operand in the data-assignment stage's buffers: sign and exponent wired to both halves. */
typedef struct {
    int sign, exp;
    uint32_t hi, lo; /* sig_H = sig >> 12 (it holds the hidden one), sig_L = sig & 0xFFF */
} halves;

/* Step 2 (decode) and the data assignment: value = (-1)^sign * sig * 2^(exp - 23), a zero at exponent
 * -126 (ZERO_OPERAND_EXP), sig split at bit 12. */
static halves data_assignment(fp_unpacked u)
{
    return (halves){u.sign, operand_exp(NULL, u), (uint32_t)(u.sig >> HALF_BITS), (uint32_t)(u.sig & HALF_MASK)};
}

/* Step 3, multiply step 1: lane 2i computes a_H * b_H, lane 2i+1 a_L * b_L (12 x 12 bits each); the pair's
 * 48-bit register holds the high product shifted by 24 with the low product below it (the two fields do
 * not overlap: a_L * b_L < 2^24). */
static uint64_t multiply_step1(halves a, halves b)
{
    uint64_t lane_even = (uint64_t)a.hi * b.hi, lane_odd = (uint64_t)a.lo * b.lo;
    return lane_even << (2 * HALF_BITS) | lane_odd;
}

/* Multiply step 2: B's halves swapped between the two lanes, lane 2i computes a_H * b_L and lane 2i+1
 * a_L * b_H; both are added to the register shifted by 12.  The register then holds sig_a * sig_b
 * exactly: 48 bits, 46 of them fractional. */
static uint64_t multiply_step2(uint64_t reg, halves a, halves b)
{
    uint64_t lane_even = (uint64_t)a.hi * b.lo, lane_odd = (uint64_t)a.lo * b.hi;
    return reg + ((lane_even + lane_odd) << HALF_BITS);
}

/* Steps 1-6 of one FP32-mode dot-add: c + sum of the n products a[i] * b[i], every operand f32 bits,
 * F fractional bits kept at the alignment, the sum rounded as `out` (f32-rne). */
static uint64_t fp32_dot(int n, const uint64_t *a, const uint64_t *b, uint64_t c, int F, mmaref_output out,
                         trace_sink *t)
{
    const fmt_desc *f32 = fmt_of(MMAREF_F32);
    fp_unpacked uc = fmt_decode(f32, c);
    halves x[2 * MMAREF_MAX_K], y[2 * MMAREF_MAX_K];
    int special = uc.cls >= CLS_INF;
    for (int i = 0; i < n; i++) {
        fp_unpacked u = fmt_decode(f32, a[i]), v = fmt_decode(f32, b[i]);
        special |= (u.cls >= CLS_INF) | (v.cls >= CLS_INF);
        x[i] = data_assignment(u);
        y[i] = data_assignment(v);
    }
    /* Step 1: special values, FDA's rule with the canonical NaN 0x7FFFFFFF. */
    if (special) {
        uint64_t d = fda_special_result(f32, f32, f32, uc, a, b, n, 0, t);
        if (t)
            trace_result(t, "Step 1", "specials", -1, "an infinity or NaN among C and the operands: ", f32, d, 0);
        return d;
    }

    /* Step 3: the two multiply steps on every lane pair; product i has sign s_a ^ s_b, exponent
     * e_a + e_b and 46 fractional bits. */
    uint64_t reg[2 * MMAREF_MAX_K];
    for (int i = 0; i < n; i++)
        reg[i] = multiply_step1(x[i], y[i]);
    for (int i = 0; i < n; i++) {
        uint64_t step1 = reg[i];
        reg[i] = multiply_step2(reg[i], x[i], y[i]);
        if (t)
            trace_halves(t, i, x[i].hi, x[i].lo, y[i].hi, y[i].lo, step1, x[i].sign ^ y[i].sign, reg[i],
                         M3XU_PRODUCT_FRAC_BITS, x[i].exp + y[i].exp);
    }

    /* Step 4: align the products and C to e_max keeping F fractional bits, truncating toward zero. */
    int e_max = operand_exp(t, uc);
    for (int i = 0; i < n; i++)
        e_max = x[i].exp + y[i].exp > e_max ? x[i].exp + y[i].exp : e_max;
    if (t)
        trace_line(t, "Step 4", "e_max", -1, "%d", e_max);
    /* Step 5: the exact sum. */
    int64_t sum = align_term_rz(t, "Step 4", "c", -1, uc.sign, uc.sig, f32->man_bits, operand_exp(t, uc), e_max, F);
    for (int i = 0; i < n; i++)
        sum += align_term_rz(t, "Step 4", "p", i, x[i].sign ^ y[i].sign, reg[i], M3XU_PRODUCT_FRAC_BITS,
                             x[i].exp + y[i].exp, e_max, F);
    if (t)
        trace_sum(t, "Step 5", "sum", "exact sum", sum, F, e_max, 0);
    /* Step 6: normalize and round to nearest even (subnormals kept, overflow to inf, an exact zero +0). */
    uint64_t d = pass_output(t, sum, e_max - F, out);
    if (t)
        trace_normalize(t, "Step 6", sum, e_max - F, out, d);
    return d;
}

static inline __attribute__((always_inline)) uint64_t
m3xu_pass(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
          const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t)
{
    (void)c_fmt, (void)sa, (void)sb; /* every operand is in->a's format (schedule.c); no scales */
    const int F = p->frac_bits, k = p->k_count;
    const fmt_desc *fa = fmt_of(in->a);
    if (fmt_parts(fa) == 1) /* FP32 mode: one dot in 2 steps */
        return fp32_dot(k, a, b, c, F, p->out, t);

    /* FP32C mode, 4 steps.  The data assignment interleaves the parts of each complex operand: the real
     * part (steps 1-2) is the FP32 dot of ar*br and (-ai)*bi (ai's sign bit flipped) with C's real part,
     * the imaginary part (steps 3-4) that of ar*bi and ai*br with C's imaginary part.  Each part has its
     * own special values, e_max, truncation and rounding. */
    const uint64_t sign_bit = 1ULL << (fmt_part_width(fa) - 1);
    uint64_t re_a[2 * MMAREF_MAX_K], re_b[2 * MMAREF_MAX_K], im_a[2 * MMAREF_MAX_K], im_b[2 * MMAREF_MAX_K];
    for (int i = 0; i < k; i++) {
        uint64_t ar = fmt_part_bits(fa, a[i], 0), ai = fmt_part_bits(fa, a[i], 1);
        uint64_t br = fmt_part_bits(fa, b[i], 0), bi = fmt_part_bits(fa, b[i], 1);
        re_a[2 * i] = ar, re_b[2 * i] = br;
        re_a[2 * i + 1] = ai ^ sign_bit, re_b[2 * i + 1] = bi;
        im_a[2 * i] = ar, im_b[2 * i] = bi;
        im_a[2 * i + 1] = ai, im_b[2 * i + 1] = br;
    }
    mmaref_output part_out = out_part(p->out);
    if (t) {
        trace_line(t, "Step 2", "parts", -1,
                   "real part: ar*br + (-ai)*bi (steps 1-2), imaginary part: ar*bi + ai*br (steps 3-4)");
        trace_set_part(t, "re ");
    }
    uint64_t re = fp32_dot(2 * k, re_a, re_b, fmt_part_bits(fa, c, 0), F, part_out, t);
    if (t)
        trace_set_part(t, "im ");
    uint64_t im = fp32_dot(2 * k, im_a, im_b, fmt_part_bits(fa, c, 1), F, part_out, t);
    if (t)
        trace_set_part(t, "");
    return fmt_join_part(fa, re, 0) | fmt_join_part(fa, im, 1);
}

uint64_t algo_m3xu(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                   const uint64_t *b, const uint64_t *sa, const uint64_t *sb)
{
    return m3xu_pass(in, p, c_fmt, c, a, b, sa, sb, NULL);
}

uint64_t algo_m3xu_trace(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,
                         const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t)
{
    return m3xu_pass(in, p, c_fmt, c, a, b, sa, sb, t);
}
