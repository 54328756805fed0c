/* Fused dot round-down add (FDRDA) and its grouped form (GFDRDA), the MMA-Sim paper, sections IV-F to IV-I:
 * AMD CDNA3 XF32, FP16, BF16 (FDRDA) and FP8/BF8 (GFDRDA) MFMA.  CoFDRDA and CoGFDRDA are schedules of
 * two passes (schedule.c), the first result rounded to FP32 and used as the second's C.
 * The pass's align_products rounds the fused dot (and GFDRDA's even/odd sums) onto e_max, align_c
 * rounds C: RD on the hardware, RZ in the paper's hypothetical variant (section VI-C, Fig. 2).
 *
 * Fixed-point bookkeeping: a product is (sign, sig, exp) with value sig * 2^(exp - frac), frac the sum
 * of the operands' mantissa bits; an aligned sum is an integer S in units of 2^(e - F). */
#include "algo.h"

typedef struct {
    int sign;
    uint64_t sig;
    int exp;
} amd_term;

static inline int msb64(uint64_t x) { return 63 - __builtin_clzll(x); }

/* A signed fixed-point value S * 2^(exp - frac) in units of 2^(e_max - F), rounded down (RD) or toward
 * zero (RZ). */
static inline int64_t align_signed(int64_t S, int frac, int exp, int e_max, int F, fp_rounding r)
{
    int sign = S < 0;
    uint64_t mag = sign ? 0 - (uint64_t)S : (uint64_t)S;
    return r == MMAREF_RD ? fixed_align_rd(sign, mag, frac, exp, e_max, F)
                         : fixed_align_rz(sign, mag, frac, exp, e_max, F);
}

/* Steps 1-3.  Returns nonzero with *d set when D is a special value; otherwise fills the products.
 * Traced: the line of each product of finite operands, then the special value. */
static int amd_products(const mmaref_instr *in, const mmaref_pass *pass, const fmt_desc *fd, fp_unpacked uc,
                        const uint64_t *a, const uint64_t *b, int k, amd_term *p, uint64_t *d, trace_sink *t)
{
    const fmt_desc *fa = fmt_of(in->a), *fb = fmt_of(in->b);
    const int frac = fa->man_bits + fb->man_bits;
    int nan = uc.cls == CLS_NAN;
    int pos_inf = uc.cls == CLS_INF && !uc.sign, neg_inf = uc.cls == CLS_INF && uc.sign;
    int pos_overflow = 0, neg_overflow = 0;

    for (int i = 0; i < k; i++) {
        fp_unpacked x = fmt_decode(fa, a[i]), y = fmt_decode(fb, b[i]);
        /* Step 1 (as FDA Step 1): NaN anywhere or 0 * inf is NaN; infinities of both signs are NaN. */
        if (x.cls == CLS_NAN || y.cls == CLS_NAN)
            nan = 1;
        else if (x.cls == CLS_INF || y.cls == CLS_INF) {
            if (x.cls == CLS_ZERO || y.cls == CLS_ZERO)
                nan = 1;
            else if (x.sign ^ y.sign)
                neg_inf = 1;
            else
                pos_inf = 1;
        }
        /* Step 2: exact products s_k = s_a * s_b, e_k = e_a + e_b; |p_k| >= 2^128 overflows to +-inf. */
        p[i].sign = x.sign ^ y.sign;
        p[i].sig = x.sig * y.sig;
        p[i].exp = operand_exp(t, x) + operand_exp(t, y);
        if (x.cls >= CLS_INF || y.cls >= CLS_INF)
            continue;
        if (p[i].sig && msb64(p[i].sig) - frac + p[i].exp >= AMD_PRODUCT_OVERFLOW_EXP) {
            if (p[i].sign)
                neg_overflow = 1;
            else
                pos_overflow = 1;
        }
        if (t)
            trace_product(t, "p", mmaref_pass_k(pass, i), p[i].sign, p[i].sig, frac, p[i].exp, 0);
    }
    /* Step 1's result, else Step 3: infinities among the products. */
    if (!nan && !pos_inf && !neg_inf)
        pos_inf = pos_overflow, neg_inf = neg_overflow;
    if (!nan && !pos_inf && !neg_inf)
        return 0;
    *d = nan || (pos_inf && neg_inf) ? fmt_canonical_nan(fd) : fmt_inf(fd, neg_inf);
    if (t)
        trace_result(t, "Steps 1-3", "specials", -1,
                     "an infinity or NaN among C and the operands, or a product >= 2^128: D = ", fd, *d, 1);
    return 1;
}

/* Steps 4-5 over the products i = first, first + step, ...: align to their maximum exponent keeping F
 * fractional bits, truncated (RZ), and sum exactly.  Returns 0 when the set is empty.  name: the set's
 * name in the trace ("dot", "even", "odd"); k_first: the pass's first product. */
static int fused_dot(const amd_term *p, int k, int first, int step, int frac, int F, int64_t *S, int *e,
                     const char *name, int k_first, trace_sink *t)
{
    if (first >= k)
        return 0;
    int e_max = p[first].exp;
    for (int i = first; i < k; i += step)
        if (p[i].exp > e_max)
            e_max = p[i].exp;
    if (t) {
        trace_line(t, "Step 4", name, -1, "the largest product exponent e = %d", e_max);
        trace_value_int(t, e_max);
    }
    int64_t sum = 0;
    for (int i = first; i < k; i += step)
        sum += align_term_rz(t, "Step 4", "p", k_first + i, p[i].sign, p[i].sig, frac, p[i].exp, e_max, F);
    if (t)
        trace_sum(t, "Step 5", name, "exact sum", sum, F, e_max, 1);
    *S = sum;
    *e = e_max;
    return 1;
}

/* A signed sum S * 2^(e - F) aligned to e_max keeping F2 fractional bits, rounded r; traced as `what`. */
static int64_t align_sum(int64_t S, int F, int e, int e_max, int F2, fp_rounding r, const char *step,
                         const char *what, trace_sink *t)
{
    int64_t v = align_signed(S, F, e, e_max, F2, r);
    if (t)
        trace_align(t, step, what, -1, v, S < 0 ? 0 - (uint64_t)S : (uint64_t)S, F, e, e_max, F2, r);
    return v;
}

static inline __attribute__((always_inline)) uint64_t
fdrda_pass(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
           const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t)
{
    (void)sa, (void)sb;
    const int grouped = p->algo == MMAREF_ALGO_GFDRDA, k = p->k_count;
    const fp_rounding align = p->align_products;
    const int frac = fmt_of(in->a)->man_bits + fmt_of(in->b)->man_bits;
    const int F = p->frac_bits; /* Step 4: fractional bits of the aligned products (24) */
    const fmt_desc *fc = fmt_of(c_fmt), *fd = pass_out_format(p);
    fp_unpacked uc = fmt_decode(fc, c);
    amd_term prod[MMAREF_MAX_K];
    uint64_t d;
    if (amd_products(in, p, fd, uc, a, b, k, prod, &d, t))
        return d;

    /* s_dot * 2^(e_dot - F): the fused dot product without c. */
    int64_t s_dot = 0;
    int e_dot = 0;
    if (!grouped) {
        /* FDRDA Steps 4-5: all products aligned to e_dot = max e_k, truncated at F = 24. */
        fused_dot(prod, k, 0, 1, frac, F, &s_dot, &e_dot, "dot", p->k_first, t);
    } else {
        /* GFDRDA Steps 4-5: even and odd products summed separately (RZ at F = 24) ... */
        int64_t s_even = 0, s_odd = 0;
        int e_even = 0, e_odd = 0;
        int has_even = fused_dot(prod, k, 0, 2, frac, F, &s_even, &e_even, "even", p->k_first, t);
        int has_odd = fused_dot(prod, k, 1, 2, frac, F, &s_odd, &e_odd, "odd", p->k_first, t);
        e_dot = !has_odd || (has_even && e_even > e_odd) ? e_even : e_odd;
        if (t) {
            trace_line(t, "Step 6", "e_dot", -1, "max(e_even, e_odd) = %d", e_dot);
            trace_value_int(t, e_dot);
        }
        /* ... Steps 6-7: both aligned to e_dot = max(e_even, e_odd), rounded down at F = 24, summed. */
        if (has_even)
            s_dot += align_sum(s_even, F, e_even, e_dot, F, align, "Step 6", "even", t);
        if (has_odd)
            s_dot += align_sum(s_odd, F, e_odd, e_dot, F, align, "Step 6", "odd", t);
    }

    /* FDRDA Step 6 (GFDRDA Step 8): align s_dot and c to e_max = max(e_dot, e_c); s_dot rounded down at
     * 31 fractional bits, c rounded down at 24.  GFDRDA's patch: c rounds toward zero (to 0, since it
     * is shifted out entirely) when e_c < e_max - 25. */
    const char *step = grouped ? "Step 8" : "Step 6";
    const int e_c = operand_exp(t, uc);
    const int e_max = e_dot > e_c ? e_dot : e_c;
    if (t) {
        trace_line(t, step, "e_max", -1, "max(e_dot, e_c) = max(%d, %d) = %d", e_dot, e_c, e_max);
        trace_value_int(t, e_max);
    }
    int64_t s_dot_aligned = align_sum(s_dot, F, e_dot, e_max, FDRDA_DOT_F, align, step, "dot", t);
    /* (a sink breaking the rule c-window, rules.c: the switch one binade early) */
    const int c_window = GFDRDA_C_WINDOW - (t && trace_breaks(t, RULE_C_WINDOW));
    fp_rounding c_round = grouped && e_c < e_max - c_window ? MMAREF_RZ : p->align_c;
    int64_t s_c = c_round == MMAREF_RD ? fixed_align_rd(uc.sign, uc.sig, fc->man_bits, e_c, e_max, FDRDA_C_F)
                                      : fixed_align_rz(uc.sign, uc.sig, fc->man_bits, e_c, e_max, FDRDA_C_F);
    if (t) {
        if (c_round != p->align_c)
            trace_line(t, "Step 8", "c", -1, "e_c < e_max - %d: C rounds toward zero (GFDRDA)", c_window);
        trace_align(t, step, "c", -1, s_c, uc.sig, fc->man_bits, e_c, e_max, FDRDA_C_F, c_round);
    }

    /* Step 7: exact sum in units of 2^(e_max - 31).  Step 8: round to nearest even to FP32. */
    int64_t sum = s_dot_aligned + s_c * ((int64_t)1 << (FDRDA_DOT_F - FDRDA_C_F));
    d = pass_output(t, sum, e_max - FDRDA_DOT_F, p->out);
    if (t) {
        trace_sum(t, grouped ? "Step 9" : "Step 7", "sum", "exact sum", sum, FDRDA_DOT_F, e_max, 1);
        trace_normalize(t, grouped ? "Step 10" : "Step 8", sum, e_max - FDRDA_DOT_F, p->out, d);
    }
    return d;
}

uint64_t algo_fdrda(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                    const uint64_t *b, const uint64_t *sa, const uint64_t *sb)
{
    return fdrda_pass(in, p, c_fmt, c, a, b, sa, sb, NULL);
}

uint64_t algo_fdrda_trace(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,
                          const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t)
{
    return fdrda_pass(in, p, c_fmt, c, a, b, sa, sb, t);
}
