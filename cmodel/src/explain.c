/* A traced evaluation of one dot-add (mmaref_explain; `mmaref explain`; docs/explain.md): the steps of
 * the MMA-Sim paper with their intermediate values, as lines a person or a program reads.  It never
 * runs in the fast path, which is not changed by it: the FDA pass (every NVIDIA kind but DMMA and
 * GDFS) and the FDRDA / GFDRDA pass (AMD CDNA3) are done again here step by step from the same
 * primitives (fmt_decode, fixed_align_*, fixed_to_output), as are GDFS (its group sums and scaling),
 * SFMA (every FMA of the chain) and GPS (every rounded product, pairwise sum and group add, through
 * ieee_arith.h) and M3XU (its 12-bit halves, both multiply steps, the fused sum), and mmaref_explain
 * holds the traced D to mmaref_dot's. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "algo.h"
#include "fixed.h"
#include "format.h"
#include "ieee_arith.h"
#include "schedule.h"

typedef struct {
    mmaref_trace_line *line;
    int cap, n, pass;
} trace;

static void __attribute__((format(printf, 4, 5))) add(trace *t, const char *step, const char *what,
                                                      const char *fmt, ...)
{
    if (t->line && t->n < t->cap) {
        mmaref_trace_line *l = &t->line[t->n];
        l->pass = t->pass;
        snprintf(l->step, sizeof l->step, "%s", step);
        snprintf(l->what, sizeof l->what, "%s", what);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(l->text, sizeof l->text, fmt, ap);
        va_end(ap);
        l->value[0] = 0;
    }
    t->n++;
}

/* The value of the line just added: sign * mag * 2^exp2 as "+0x3p-14" (mag without its trailing zero
 * bits, so that it reads the same whatever F or format holds it), a zero "+0" or "-0". */
static void set_exact(trace *t, int sign, uint64_t mag, int exp2)
{
    if (!t->line || t->n > t->cap || t->n == 0)
        return;
    mmaref_trace_line *l = &t->line[t->n - 1];
    if (!mag) {
        snprintf(l->value, sizeof l->value, "%c0", sign ? '-' : '+');
        return;
    }
    int tz = __builtin_ctzll(mag);
    snprintf(l->value, sizeof l->value, "%c0x%llxp%d", sign ? '-' : '+', (unsigned long long)(mag >> tz), exp2 + tz);
}

static void set_int(trace *t, int v)
{
    if (t->line && t->n <= t->cap && t->n > 0)
        snprintf(t->line[t->n - 1].value, sizeof t->line[t->n - 1].value, "%d", v);
}

/* The value of the line just added: a format's bits decoded (a complex value keeps the text). */
static void set_decoded(trace *t, const fmt_desc *f, uint64_t raw)
{
    if (!t->line || t->n > t->cap || t->n == 0 || fmt_parts(f) > 1)
        return;
    mmaref_trace_line *l = &t->line[t->n - 1];
    fp_unpacked u = fmt_decode(f, raw);
    if (u.cls == CLS_NAN)
        snprintf(l->value, sizeof l->value, "NaN");
    else if (u.cls == CLS_INF)
        snprintf(l->value, sizeof l->value, "%cinf", u.sign ? '-' : '+');
    else
        set_exact(t, u.sign, u.cls == CLS_ZERO ? 0 : u.sig, u.exp - f->man_bits);
}

/* mag * 2^-frac in binary, "101.0011" (the binary point before bit frac - 1; a value below 1 starts
 * "0."); a string too long for buf ends in "...". */
static const char *bin_fixed(char *buf, size_t cap, uint64_t mag, int frac)
{
    int top = mag ? 63 - __builtin_clzll(mag) : 0;
    if (top < frac)
        top = frac; /* the units digit, 0 */
    size_t n = 0;
    for (int i = top; i >= 0; i--) {
        if (n + 6 >= cap) {
            memcpy(buf + n, "...", 3);
            n += 3;
            break;
        }
        if (i == frac - 1)
            buf[n++] = '.';
        buf[n++] = i < 64 && (mag >> i & 1) ? '1' : '0';
    }
    buf[n] = 0;
    return buf;
}

/* The same with the trailing zeros of the fraction dropped ("1.0", "0.0000001"), so that a value reads
 * the same whatever F it is held with. */
static const char *bin_value(char *buf, size_t cap, uint64_t mag, int frac)
{
    bin_fixed(buf, cap, mag, frac);
    char *dot = strchr(buf, '.');
    if (dot && !strstr(buf, "...")) {
        size_t n = strlen(buf);
        while (n > (size_t)(dot - buf) + 2 && buf[n - 1] == '0')
            buf[--n] = 0;
    }
    return buf;
}

/* "0x3c00 = +1.0000000000 x 2^0 (normal)": an operand's bits as Step 2 reads them. */
static void describe(char *buf, size_t cap, const fmt_desc *f, uint64_t raw)
{
    if (fmt_parts(f) > 1) { /* a complex value: each part in its own format, the real part first */
        size_t n = (size_t)snprintf(buf, cap, "re ");
        describe(buf + n, cap - n, fmt_of(f->part), fmt_part_bits(f, raw, 0));
        n = strlen(buf);
        n += (size_t)snprintf(buf + n, cap - n, "; im ");
        if (n < cap)
            describe(buf + n, cap - n, fmt_of(f->part), fmt_part_bits(f, raw, 1));
        return;
    }
    fp_unpacked u = fmt_decode(f, raw);
    int digits = (f->width + 3) / 4;
    char b[160];
    static const char *const cls[] = {"zero", "subnormal", "normal", "inf", "NaN"};
    if (u.cls == CLS_NAN)
        snprintf(buf, cap, "0x%0*llx = NaN", digits, (unsigned long long)raw);
    else if (u.cls == CLS_INF)
        snprintf(buf, cap, "0x%0*llx = %cinf", digits, (unsigned long long)raw, u.sign ? '-' : '+');
    else if (u.cls == CLS_ZERO)
        snprintf(buf, cap, "0x%0*llx = %c0", digits, (unsigned long long)raw, u.sign ? '-' : '+');
    else
        snprintf(buf, cap, "0x%0*llx = %c%s x 2^%d (%s)", digits, (unsigned long long)raw, u.sign ? '-' : '+',
                 bin_fixed(b, sizeof b, u.sig, f->man_bits), u.exp, cls[u.cls]);
}

/* Counting only (no lines to fill): one line, not formatted.  The functions below that write one line
 * each return early through it, so that a count costs little. */
static int counting(trace *t)
{
    if (t->line && t->n < t->cap)
        return 0;
    t->n++;
    return 1;
}

static void operand(trace *t, const char *what, mmaref_format fmt, uint64_t raw)
{
    if (counting(t))
        return;
    const fmt_desc *f = fmt_of(fmt);
    char d[256];
    describe(d, sizeof d, f, raw);
    if (raw & f->ignored) /* Step 0: the hardware reads these bits as zero */
        add(t, "Step 0", what, "%s (%s: bits 0x%llx ignored)", d, f->name, (unsigned long long)(raw & f->ignored));
    else
        add(t, "Step 0", what, "%s", d);
    set_decoded(t, f, raw);
}

/* Step 3 of one term: sig * 2^(exp - sig_frac) aligned to e_max keeping F fractional bits. */
static int64_t align_term(trace *t, const char *step, const char *what, int sign, uint64_t sig, int sig_frac, int exp, int e_max,
                          int F, fp_rounding r)
{
    int64_t v = r == MMAREF_RD ? fixed_align_rd(sign, sig, sig_frac, exp, e_max, F)
                               : fixed_align_rz(sign, sig, sig_frac, exp, e_max, F);
    if (counting(t))
        return v;
    int shift = sig_frac - F + (e_max - exp); /* bits dropped off the right end */
    uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    char b[160], dropped[160] = "none";
    if (shift >= 64)
        snprintf(dropped, sizeof dropped, "all %d significant bits", sig ? 64 - __builtin_clzll(sig) : 0);
    else if (shift > 0)
        bin_fixed(dropped, sizeof dropped, sig & ((1ULL << shift) - 1), 0);
    int lost = shift > 0 && (shift >= 64 ? sig != 0 : (sig & ((1ULL << shift) - 1)) != 0);
    if (!sig)
        snprintf(dropped, sizeof dropped, "nothing (a zero)");
    else if (shift > 0 && !lost)
        snprintf(dropped, sizeof dropped, "only zeros");
    add(t, step, what, "shifted right %d: kept %c%s, dropped: %s%s", e_max - exp, v < 0 ? '-' : '+',
        bin_value(b, sizeof b, mag, F), dropped, lost ? (r == MMAREF_RD ? " (rounded down)" : " (truncated)") : "");
    set_exact(t, v < 0, mag, e_max - F);
    return v;
}

/* Step 2 of one product: exact, its exponent the sum of the operands' (a zero's too, unless the pass gives
 * zero terms an exponent of their own: zero_term_exp). */
static void product_line(trace *t, const char *what, int sign, uint64_t sig, int frac, int exp, int zero_term_exp)
{
    if (counting(t))
        return;
    char b[160];
    if (!sig && zero_term_exp)
        add(t, "Step 2", what, "a*b = %c0, exponent %d (a zero term's own exponent on this architecture)",
            sign ? '-' : '+', exp);
    else if (!sig)
        add(t, "Step 2", what, "a*b = %c0, exponent %d (a zero product's exponent still counts for e_max)",
            sign ? '-' : '+', exp);
    else
        add(t, "Step 2", what, "a*b exact: %c%s x 2^%d", sign ? '-' : '+', bin_value(b, sizeof b, sig, frac), exp);
    set_exact(t, sign, sig, exp - frac);
}

/* Step 5 (FDRDA Step 8): the exact sum normalized and rounded to the pass's output. */
static uint64_t normalize(trace *t, const char *step, int64_t sum, int lsb_exp, mmaref_output out)
{
    const out_desc *o = &out_table[out_part(out)];
    const fmt_desc *f = fmt_of(o->format);
    uint64_t d = fixed_to_output(sum, lsb_exp, out);
    if (counting(t))
        return d;
    uint64_t mag = sum < 0 ? 0 - (uint64_t)sum : (uint64_t)sum;
    char b[160], v[256];
    describe(v, sizeof v, f, d);
    if (!mag) {
        add(t, step, "normalize", "the sum is exactly 0: D = %s", v);
        set_decoded(t, f, d);
        return d;
    }
    int msb = 63 - __builtin_clzll(mag), e = msb + lsb_exp, drop = msb - o->man_bits;
    if (e < fmt_min_exp(f)) /* a subnormal result keeps fewer bits */
        drop += fmt_min_exp(f) - e;
    const char *decision = "exact";
    char gs[48] = "";
    if (drop > 0 && drop < 64) {
        uint64_t rest = mag & ((1ULL << drop) - 1), half = 1ULL << (drop - 1);
        snprintf(gs, sizeof gs, " (guard %d, sticky %d)", (int)(rest >> (drop - 1) & 1), (rest & (half - 1)) != 0);
        if (!rest)
            decision = "exact";
        else if (o->rounding == MMAREF_RZ)
            decision = "round toward zero: the dropped bits are cut off";
        else if (rest > half || (rest == half && (mag >> drop & 1)))
            decision = rest == half ? "round to nearest even: a tie, rounded up to even" : "round to nearest: up";
        else
            decision = rest == half ? "round to nearest even: a tie, kept (even)" : "round to nearest: down";
    } else if (drop >= 64) {
        decision = o->rounding == MMAREF_RZ ? "below the smallest subnormal: toward zero" : "below half the smallest subnormal";
    }
    add(t, step, "normalize", "%c%s x 2^%d: %s keeps %d fractional bits, %d dropped%s: %s -> D = %s",
        sum < 0 ? '-' : '+', bin_fixed(b, sizeof b, mag, msb), e, o->name, o->man_bits, drop > 0 ? drop : 0, gs,
        decision, v);
    set_decoded(t, f, d);
    return d;
}

/* ---- FDA (the MMA-Sim paper, IV-C) ---- */

static uint64_t trace_fda(trace *t, const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt,
                          uint64_t c, const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb)
{
    const fmt_desc *fa = fmt_of(in->a), *fb = fmt_of(in->b), *fd = pass_out_format(p);
    const int k = p->k_count, F = p->frac_bits;
    const int blocks = p->scales == MMAREF_SCALES_PER_PRODUCT ? (k + in->block_size - 1) / in->block_size : 0;
    char w[32], bin[160];
    fp_unpacked uc = fmt_decode(fmt_of(c_fmt), c);
    if (fmt_of(c_fmt) != fd) {
        uc = fmt_widen(fmt_of(c_fmt), fd, uc);
        add(t, "Step 0", "c", "C (%s) widened exactly to the output format %s", fmt_of(c_fmt)->name, fd->name);
    }
    int scale_exp[MMAREF_MAX_SCALES] = {0}, scale_frac = 0, scale_nan = 0;
    uint64_t scale_sig[MMAREF_MAX_SCALES] = {0};
    for (int j = 0; j < blocks; j++) {
        const fmt_desc *fs = fmt_of(in->scale);
        fp_unpacked x = fmt_decode(fs, sa[j]), y = fmt_decode(fs, sb[j]);
        scale_nan |= x.cls == CLS_NAN || y.cls == CLS_NAN;
        scale_sig[j] = x.sig * y.sig;
        scale_exp[j] = operand_exp(x) + operand_exp(y);
        scale_frac = 2 * fs->man_bits;
        snprintf(w, sizeof w, "scale[%d]", j);
        add(t, "Step 2", w, "sa * sb = %s x 2^%d%s", bin_fixed(bin, sizeof bin, scale_sig[j], scale_frac), scale_exp[j],
            scale_nan ? " (a NaN scale)" : "");
    }
    const int prod_frac = fa->man_bits + fb->man_bits + scale_frac;
    uint64_t sig[MMAREF_MAX_K];
    int exp[MMAREF_MAX_K], sign[MMAREF_MAX_K], special = uc.cls >= CLS_INF || scale_nan;
    int e_max = c_term_exp(p, uc), from = -1;
    for (int i = 0; i < k; i++) {
        fp_unpacked x = fmt_decode(fa, a[i]), y = fmt_decode(fb, b[i]);
        special |= (x.cls >= CLS_INF) | (y.cls >= CLS_INF);
        sign[i] = x.sign ^ y.sign;
        sig[i] = x.sig * y.sig;
        exp[i] = product_term_exp(p, x, y);
        if (blocks) {
            sig[i] *= scale_sig[i / in->block_size];
            exp[i] += scale_exp[i / in->block_size];
        }
        if (exp[i] > e_max)
            e_max = exp[i], from = i;
        snprintf(w, sizeof w, "p[%d]", mmaref_pass_k(p, i));
        if (x.cls < CLS_INF && y.cls < CLS_INF)
            product_line(t, w, sign[i], sig[i], prod_frac, exp[i], p->zero_term_exp);
    }
    if (special) {
        uint64_t d = fda_special_result(fd, fa, fb, uc, a, b, k, scale_nan);
        char v[256];
        describe(v, sizeof v, fd, d);
        add(t, "Step 1", "specials", "an infinity or NaN among C, the operands or the scales: D = %s", v);
        set_decoded(t, fd, d);
        return d;
    }
    if (from < 0)
        add(t, "Step 2", "e_max", "%d, C's exponent%s (no product is larger)", e_max,
            p->zero_term_exp && uc.cls == CLS_ZERO ? ", a zero term's own" : "");
    else
        snprintf(w, sizeof w, "p[%d]", mmaref_pass_k(p, from)), add(t, "Step 2", "e_max", "%d, from %s", e_max, w);
    set_int(t, e_max);
    int64_t sum = align_term(t, "Step 3", "c", uc.sign, uc.sig, fd->man_bits, c_term_exp(p, uc), e_max, F, MMAREF_RZ);
    for (int i = 0; i < k; i++) {
        snprintf(w, sizeof w, "p[%d]", mmaref_pass_k(p, i));
        sum += align_term(t, "Step 3", w, sign[i], sig[i], prod_frac, exp[i], e_max, F, MMAREF_RZ);
    }
    uint64_t mag = sum < 0 ? 0 - (uint64_t)sum : (uint64_t)sum;
    add(t, "Step 4", "sum", "exact sum of the aligned terms: %c%s x 2^%d", sum < 0 ? '-' : '+',
        bin_value(bin, sizeof bin, mag, F), e_max);
    set_exact(t, sum < 0, mag, e_max - F);
    return normalize(t, "Step 5", sum, e_max - F, p->out);
}

/* ---- FDRDA and GFDRDA (the MMA-Sim paper, IV-F to IV-I; their constants in algo.h) ---- */

/* A signed sum S * 2^(e - F) aligned to e_max keeping F2 fractional bits. */
static int64_t align_sum(trace *t, const char *step, const char *what, int64_t S, int F, int e, int e_max, int F2, fp_rounding r)
{
    return align_term(t, step, what, S < 0, S < 0 ? 0 - (uint64_t)S : (uint64_t)S, F, e, e_max, F2, r);
}

/* Steps 4-5 over the products first, first + step, ...: aligned to their largest exponent, truncated. */
static int fused_group(trace *t, const char *name, const int *sign, const uint64_t *sig, const int *exp, int k,
                       int first, int step, int frac, int F, int k_first, int64_t *S, int *e)
{
    if (first >= k)
        return 0;
    char w[32], bin[160];
    int e_max = exp[first];
    for (int i = first; i < k; i += step)
        e_max = exp[i] > e_max ? exp[i] : e_max;
    add(t, "Step 4", name, "the largest product exponent e = %d", e_max);
    set_int(t, e_max);
    int64_t sum = 0;
    for (int i = first; i < k; i += step) {
        snprintf(w, sizeof w, "p[%d]", k_first + i);
        sum += align_term(t, "Step 4", w, sign[i], sig[i], frac, exp[i], e_max, F, MMAREF_RZ);
    }
    uint64_t mag = sum < 0 ? 0 - (uint64_t)sum : (uint64_t)sum;
    add(t, "Step 5", name, "exact sum: %c%s x 2^%d", sum < 0 ? '-' : '+', bin_value(bin, sizeof bin, mag, F), e_max);
    set_exact(t, sum < 0, mag, e_max - F);
    *S = sum;
    *e = e_max;
    return 1;
}

static uint64_t trace_fdrda(trace *t, const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt,
                            uint64_t c, const uint64_t *a, const uint64_t *b)
{
    const fmt_desc *fa = fmt_of(in->a), *fb = fmt_of(in->b), *fc = fmt_of(c_fmt), *fd = pass_out_format(p);
    const int k = p->k_count, F = p->frac_bits, grouped = p->algo == MMAREF_ALGO_GFDRDA;
    const int frac = fa->man_bits + fb->man_bits;
    char w[32], bin[160], v[256];
    fp_unpacked uc = fmt_decode(fc, c);
    uint64_t sig[MMAREF_MAX_K];
    int exp[MMAREF_MAX_K], sign[MMAREF_MAX_K], special = uc.cls >= CLS_INF;
    for (int i = 0; i < k; i++) {
        fp_unpacked x = fmt_decode(fa, a[i]), y = fmt_decode(fb, b[i]);
        sign[i] = x.sign ^ y.sign;
        sig[i] = x.sig * y.sig;
        exp[i] = operand_exp(x) + operand_exp(y);
        special |= x.cls >= CLS_INF || y.cls >= CLS_INF;
        /* Step 2: a product of 2^128 or more overflows to an infinity */
        special |= sig[i] && 63 - __builtin_clzll(sig[i]) - frac + exp[i] >= AMD_PRODUCT_OVERFLOW_EXP;
        snprintf(w, sizeof w, "p[%d]", mmaref_pass_k(p, i));
        if (x.cls < CLS_INF && y.cls < CLS_INF)
            product_line(t, w, sign[i], sig[i], frac, exp[i], 0);
    }
    if (special) {
        uint64_t d = algo_fdrda(in, p, c_fmt, c, a, b, NULL, NULL);
        describe(v, sizeof v, fd, d);
        add(t, "Steps 1-3", "specials", "an infinity or NaN among C and the operands, or a product >= 2^128: D = %s", v);
        set_decoded(t, fd, d);
        return d;
    }
    int64_t s_dot = 0;
    int e_dot = 0;
    if (!grouped) {
        fused_group(t, "dot", sign, sig, exp, k, 0, 1, frac, F, p->k_first, &s_dot, &e_dot);
    } else {
        int64_t s_even = 0, s_odd = 0;
        int e_even = 0, e_odd = 0;
        int has_even = fused_group(t, "even", sign, sig, exp, k, 0, 2, frac, F, p->k_first, &s_even, &e_even);
        int has_odd = fused_group(t, "odd", sign, sig, exp, k, 1, 2, frac, F, p->k_first, &s_odd, &e_odd);
        e_dot = !has_odd || (has_even && e_even > e_odd) ? e_even : e_odd;
        add(t, "Step 6", "e_dot", "max(e_even, e_odd) = %d", e_dot);
        set_int(t, e_dot);
        if (has_even)
            s_dot += align_sum(t, "Step 6", "even", s_even, F, e_even, e_dot, F, p->align_products);
        if (has_odd)
            s_dot += align_sum(t, "Step 6", "odd", s_odd, F, e_odd, e_dot, F, p->align_products);
    }
    const int e_c = operand_exp(uc), e_max = e_dot > e_c ? e_dot : e_c;
    add(t, grouped ? "Step 8" : "Step 6", "e_max", "max(e_dot, e_c) = max(%d, %d) = %d", e_dot, e_c, e_max);
    set_int(t, e_max);
    int64_t s = align_sum(t, grouped ? "Step 8" : "Step 6", "dot", s_dot, F, e_dot, e_max, FDRDA_DOT_F, p->align_products);
    fp_rounding c_round = grouped && e_c < e_max - GFDRDA_C_WINDOW ? MMAREF_RZ : p->align_c;
    if (c_round != p->align_c)
        add(t, "Step 8", "c", "e_c < e_max - %d: C rounds toward zero (GFDRDA)", GFDRDA_C_WINDOW);
    int64_t s_c = align_term(t, grouped ? "Step 8" : "Step 6", "c", uc.sign, uc.sig, fc->man_bits, e_c, e_max, FDRDA_C_F, c_round);
    int64_t sum = s + s_c * ((int64_t)1 << (FDRDA_DOT_F - FDRDA_C_F));
    uint64_t mag = sum < 0 ? 0 - (uint64_t)sum : (uint64_t)sum;
    add(t, grouped ? "Step 9" : "Step 7", "sum", "exact sum: %c%s x 2^%d", sum < 0 ? '-' : '+', bin_value(bin, sizeof bin, mag, FDRDA_DOT_F),
        e_max);
    set_exact(t, sum < 0, mag, e_max - FDRDA_DOT_F);
    return normalize(t, grouped ? "Step 10" : "Step 8", sum, e_max - FDRDA_DOT_F, p->out);
}

/* ---- GDFS (IV-E): exact group sums of G products, each scaled by its block's two scales ---- */

static uint64_t trace_gdfs(trace *t, const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt,
                           uint64_t c, const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb)
{
    const fmt_desc *fa = fmt_of(in->a), *fb = fmt_of(in->b), *fs = fmt_of(in->scale), *fd = pass_out_format(p);
    const int F = p->frac_bits, G = p->group, k = p->k_count, groups = k / G;
    char w[32], bin[160];
    fp_unpacked uc = fmt_decode(fmt_of(c_fmt), c);
    if (fmt_of(c_fmt) != fd)
        uc = fmt_widen(fmt_of(c_fmt), fd, uc);
    int special = uc.cls >= CLS_INF;
    for (int j = 0; j < k / in->block_size; j++)
        special |= fmt_decode(fs, sa[j]).cls == CLS_NAN || fmt_decode(fs, sb[j]).cls == CLS_NAN;
    if (special) {
        uint64_t d = algo_gdfs(in, p, c_fmt, c, a, b, sa, sb);
        char v[256];
        describe(v, sizeof v, fd, d);
        add(t, "Step 1", "specials", "a NaN scale or an infinite or NaN C: D = %s", v);
        set_decoded(t, fd, d);
        return d;
    }
    /* Steps 2-3: exact products in units of the smallest product, summed per group */
    const int emin_a = fmt_min_exp(fa), emin_b = fmt_min_exp(fb);
    const int unit_frac = fa->man_bits + fb->man_bits - emin_a - emin_b;
    const int gamma_frac = unit_frac + 2 * fs->man_bits;
    int64_t sigma[MMAREF_MAX_K];
    uint64_t gamma_sig[MMAREF_MAX_K];
    int gamma_exp[MMAREF_MAX_K], e_max = operand_exp(uc);
    for (int g = 0; g < groups; g++) {
        sigma[g] = 0;
        for (int i = g * G; i < (g + 1) * G; i++) {
            fp_unpacked x = fmt_decode(fa, a[i]), y = fmt_decode(fb, b[i]);
            int64_t prod = (int64_t)((x.sig * y.sig) << ((x.exp - emin_a) + (y.exp - emin_b)));
            sigma[g] += (x.sign ^ y.sign) ? -prod : prod;
        }
        uint64_t mag = sigma[g] < 0 ? 0 - (uint64_t)sigma[g] : (uint64_t)sigma[g];
        int j = g * G / in->block_size;
        fp_unpacked x = fmt_decode(fs, sa[j]), y = fmt_decode(fs, sb[j]);
        gamma_sig[g] = mag * x.sig * y.sig;
        gamma_exp[g] = operand_exp(x) + operand_exp(y);
        e_max = gamma_exp[g] > e_max ? gamma_exp[g] : e_max;
        snprintf(w, sizeof w, "group[%d]", g);
        add(t, "Steps 2-4", w, "exact sum of products %d..%d: %c%s, times the scales 2^%d", p->k_first + g * G,
            p->k_first + (g + 1) * G - 1, sigma[g] < 0 ? '-' : '+', bin_value(bin, sizeof bin, mag, unit_frac),
            gamma_exp[g]);
    }
    add(t, "Step 5", "e_max", "%d", e_max);
    set_int(t, e_max);
    int64_t sum = align_term(t, "Step 5", "c", uc.sign, uc.sig, fd->man_bits, operand_exp(uc), e_max, F, MMAREF_RZ);
    for (int g = 0; g < groups; g++) {
        snprintf(w, sizeof w, "group[%d]", g);
        sum += align_term(t, "Step 5", w, sigma[g] < 0, gamma_sig[g], gamma_frac, gamma_exp[g], e_max, F, MMAREF_RZ);
    }
    uint64_t mag = sum < 0 ? 0 - (uint64_t)sum : (uint64_t)sum;
    add(t, "Step 6", "sum", "exact sum: %c%s x 2^%d", sum < 0 ? '-' : '+', bin_value(bin, sizeof bin, mag, F), e_max);
    set_exact(t, sum < 0, mag, e_max - F);
    return normalize(t, "Step 7", sum, e_max - F, p->out);
}

/* ---- the IEEE kinds: SFMA (Algorithm 1) and GPS (IV-B), every operation rounded to nearest even ---- */

static uint64_t ieee_line(trace *t, const char *step, const char *what, const fmt_desc *f, uint64_t x,
                          const char *how)
{
    if (counting(t))
        return x;
    char v[256];
    describe(v, sizeof v, f, x);
    add(t, step, what, "%s = %s", how, v);
    return x;
}

static uint64_t trace_sfma(trace *t, const mmaref_pass *p, uint64_t c, const uint64_t *a, const uint64_t *b)
{
    const fmt_desc *f = pass_out_format(p); /* A, B, C and D share it */
    char w[32];
    uint64_t d = c;
    for (int i = 0; i < p->k_count; i++) {
        d = ieee_fma(f, ieee_decode(f, a[i]), ieee_decode(f, b[i]), ieee_decode(f, d));
        snprintf(w, sizeof w, "d[%d]", mmaref_pass_k(p, i));
        ieee_line(t, "FMA", w, f, d, "RNE(a*b + d), rounded once");
    }
    return d;
}

/* GPS's flushing (CDNA2): a subnormal result becomes a zero of its sign, a subnormal or zero input +0 */
static uint64_t gps_flush(const fmt_desc *f, uint64_t x, int flush)
{
    return flush && fmt_decode(f, x).cls == CLS_SUBNORMAL ? x & (1ULL << (f->width - 1)) : x;
}
static ieee_value gps_operand(const fmt_desc *f, uint64_t raw, int flush)
{
    ieee_value v = ieee_decode(f, raw);
    return flush && (v.cls == CLS_SUBNORMAL || v.cls == CLS_ZERO) ? ieee_plus_zero : v;
}

static uint64_t gps_pairwise(trace *t, const fmt_desc *f, const uint64_t *prod, int first, int n, int flush)
{
    if (n == 1)
        return prod[first];
    uint64_t x = gps_pairwise(t, f, prod, first, n / 2, flush), y = gps_pairwise(t, f, prod, first + n / 2, n - n / 2, flush);
    char w[32];
    snprintf(w, sizeof w, "p[%d..%d]", first, first + n - 1);
    return ieee_line(t, "Step 3", w, f, gps_flush(f, ieee_add(f, ieee_decode(f, x), ieee_decode(f, y)), flush),
                     flush ? "RNE(left + right), flushed" : "RNE(left + right)");
}

static uint64_t trace_gps(trace *t, const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,
                          const uint64_t *a, const uint64_t *b)
{
    const fmt_desc *fa = fmt_of(in->a), *fb = fmt_of(in->b), *f32 = pass_out_format(p);
    const int flush = p->flush, k = p->k_count, G = p->group;
    uint64_t prod[MMAREF_MAX_K];
    char w[32];
    for (int i = 0; i < k; i++) {
        prod[i] = gps_flush(f32, ieee_mul(f32, gps_operand(fa, a[i], flush), gps_operand(fb, b[i], flush)), flush);
        snprintf(w, sizeof w, "p[%d]", i);
        ieee_line(t, "Step 2", w, f32, prod[i], flush ? "RNE(a*b), inputs and result flushed" : "RNE(a*b)");
    }
    ieee_value dv = gps_operand(fmt_of(c_fmt), c, flush);
    uint64_t d = 0;
    for (int g = 0; g < k; g += G) {
        uint64_t s = gps_pairwise(t, f32, prod, g, k - g < G ? k - g : G, flush);
        d = gps_flush(f32, ieee_add(f32, dv, ieee_decode(f32, s)), flush);
        snprintf(w, sizeof w, "d after group %d", g / G);
        ieee_line(t, "Step 4", w, f32, d, "RNE(d + group sum)");
        dv = ieee_decode(f32, d);
    }
    return d;
}

/* ---- M3XU (docs/m3xu.md): products from 12-bit halves in two multiply steps, then a fused sum ---- */

/* One FP32-mode dot (prefix "" or, in FP32C mode, "re " / "im "): Steps 1-6 of docs/m3xu.md. */
static uint64_t trace_m3xu_dot(trace *t, const char *part, int n, const uint64_t *a, const uint64_t *b, uint64_t c,
                               int F, mmaref_output out)
{
    const fmt_desc *f32 = fmt_of(MMAREF_F32);
    const uint64_t half = (1u << M3XU_HALF_BITS) - 1;
    char w[32], bin[160];
    fp_unpacked uc = fmt_decode(f32, c);
    int special = uc.cls >= CLS_INF;
    for (int i = 0; i < n; i++)
        special |= fmt_decode(f32, a[i]).cls >= CLS_INF || fmt_decode(f32, b[i]).cls >= CLS_INF;
    if (special) {
        uint64_t d = fda_special_result(f32, f32, f32, uc, a, b, n, 0);
        char v[256];
        describe(v, sizeof v, f32, d);
        snprintf(w, sizeof w, "%sspecials", part);
        add(t, "Step 1", w, "an infinity or NaN among C and the operands: %s", v);
        return d;
    }
    uint64_t reg[2 * MMAREF_MAX_K];
    int sign[2 * MMAREF_MAX_K], exp[2 * MMAREF_MAX_K], e_max = operand_exp(uc);
    for (int i = 0; i < n; i++) {
        fp_unpacked x = fmt_decode(f32, a[i]), y = fmt_decode(f32, b[i]);
        uint64_t ah = x.sig >> M3XU_HALF_BITS, al = x.sig & half, bh = y.sig >> M3XU_HALF_BITS, bl = y.sig & half;
        uint64_t step1 = (ah * bh) << (2 * M3XU_HALF_BITS) | (al * bl);
        reg[i] = step1 + ((ah * bl + al * bh) << M3XU_HALF_BITS);
        sign[i] = x.sign ^ y.sign, exp[i] = operand_exp(x) + operand_exp(y);
        e_max = exp[i] > e_max ? exp[i] : e_max;
        snprintf(w, sizeof w, "%sp[%d]", part, i);
        add(t, "Step 3", w, "halves a 0x%03llx|0x%03llx b 0x%03llx|0x%03llx; step 1 a_H*b_H, a_L*b_L: 0x%012llx; "
            "step 2 + (a_H*b_L + a_L*b_H) << 12: %c%s x 2^%d (exact)", (unsigned long long)ah, (unsigned long long)al,
            (unsigned long long)bh, (unsigned long long)bl, (unsigned long long)step1, sign[i] ? '-' : '+',
            bin_value(bin, sizeof bin, reg[i], M3XU_PRODUCT_FRAC_BITS), exp[i]);
    }
    snprintf(w, sizeof w, "%se_max", part);
    add(t, "Step 4", w, "%d", e_max);
    snprintf(w, sizeof w, "%sc", part);
    int64_t sum = align_term(t, "Step 4", w, uc.sign, uc.sig, f32->man_bits, operand_exp(uc), e_max, F, MMAREF_RZ);
    for (int i = 0; i < n; i++) {
        snprintf(w, sizeof w, "%sp[%d]", part, i);
        sum += align_term(t, "Step 4", w, sign[i], reg[i], M3XU_PRODUCT_FRAC_BITS, exp[i], e_max, F, MMAREF_RZ);
    }
    uint64_t mag = sum < 0 ? 0 - (uint64_t)sum : (uint64_t)sum;
    snprintf(w, sizeof w, "%ssum", part);
    add(t, "Step 5", w, "exact sum: %c%s x 2^%d", sum < 0 ? '-' : '+', bin_value(bin, sizeof bin, mag, F), e_max);
    return normalize(t, "Step 6", sum, e_max - F, out);
}

static uint64_t trace_m3xu(trace *t, const mmaref_instr *in, const mmaref_pass *p, uint64_t c, const uint64_t *a,
                           const uint64_t *b)
{
    const fmt_desc *fa = fmt_of(in->a);
    const int k = p->k_count;
    if (fmt_parts(fa) == 1)
        return trace_m3xu_dot(t, "", k, a, b, c, p->frac_bits, p->out);
    /* FP32C: the real part is the dot of ar*br and (-ai)*bi, the imaginary part of ar*bi and ai*br */
    const uint64_t sign_bit = 1ULL << (fmt_part_width(fa) - 1);
    uint64_t re_a[2 * MMAREF_MAX_K], re_b[2 * MMAREF_MAX_K], im_a[2 * MMAREF_MAX_K], im_b[2 * MMAREF_MAX_K];
    for (int i = 0; i < k; i++) {
        uint64_t ar = fmt_part_bits(fa, a[i], 0), ai = fmt_part_bits(fa, a[i], 1);
        uint64_t br = fmt_part_bits(fa, b[i], 0), bi = fmt_part_bits(fa, b[i], 1);
        re_a[2 * i] = ar, re_b[2 * i] = br, re_a[2 * i + 1] = ai ^ sign_bit, re_b[2 * i + 1] = bi;
        im_a[2 * i] = ar, im_b[2 * i] = bi, im_a[2 * i + 1] = ai, im_b[2 * i + 1] = br;
    }
    add(t, "Step 2", "parts", "real part: ar*br + (-ai)*bi (steps 1-2), imaginary part: ar*bi + ai*br (steps 3-4)");
    uint64_t re = trace_m3xu_dot(t, "re ", 2 * k, re_a, re_b, fmt_part_bits(fa, c, 0), p->frac_bits, out_part(p->out));
    uint64_t im = trace_m3xu_dot(t, "im ", 2 * k, im_a, im_b, fmt_part_bits(fa, c, 1), p->frac_bits, out_part(p->out));
    return fmt_join_part(fa, re, 0) | fmt_join_part(fa, im, 1);
}

mmaref_status mmaref_explain(const mmaref_instr *in, uint64_t c, const uint64_t *a, const uint64_t *b,
                             const uint64_t *sa, const uint64_t *sb, mmaref_trace_line *lines, int cap,
                             int *count, uint64_t *d, char *msg, size_t msglen)
{
    uint64_t want;
    mmaref_status st = mmaref_dot(in, c, a, b, sa, sb, &want, msg, msglen);
    if (st)
        return st;
    if (!count || cap < 0 || (cap > 0 && !lines)) {
        set_msg(msg, msglen, "mmaref_explain: null argument");
        return MMAREF_ERR_ARGUMENT;
    }
    trace t = {lines, cap, 0, -1};
    char w[32];
    int ns = mmaref_scale_count(in);
    operand(&t, "c", in->c, c);
    for (int i = 0; i < in->k; i++)
        snprintf(w, sizeof w, "a[%d]", i), operand(&t, w, in->a, a[i]);
    for (int i = 0; i < in->k; i++)
        snprintf(w, sizeof w, "b[%d]", i), operand(&t, w, in->b, b[i]);
    for (int i = 0; i < ns; i++) {
        snprintf(w, sizeof w, "scale_a[%d]", i), operand(&t, w, in->scale, sa[i]);
        snprintf(w, sizeof w, "scale_b[%d]", i), operand(&t, w, in->scale, sb[i]);
    }
    mmaref_format c_fmt = in->c;
    uint64_t x = in->c_last ? 0 : c; /* C added last: the passes start from +0 */
    for (int i = 0; i < in->passes; i++) {
        const mmaref_pass *p = &in->pass[i];
        int s0 = p->scales != MMAREF_SCALES_NONE ? p->k_first / in->block_size : 0;
        const uint64_t *pa = a + p->k_first, *pb = b + p->k_first;
        const uint64_t *psa = ns ? sa + s0 : NULL, *psb = ns ? sb + s0 : NULL;
        uint64_t ga[MMAREF_MAX_K], gb[MMAREF_MAX_K];
        mmaref_instr view;
        const mmaref_instr *pin = in;
        if (p->k_run > 0 || p->ab_f16) { /* products in runs, operands as f16: as schedule_run_pass takes them */
            pin = schedule_pass_operands(in, p, a, b, ga, gb, &view);
            pa = ga, pb = gb;
        }
        t.pass = i;
        char params[64] = "", which[64];
        if (p->frac_bits)
            snprintf(params, sizeof params, ", F = %d", p->frac_bits);
        if (p->group)
            snprintf(params + strlen(params), sizeof params - strlen(params), ", G = %d", p->group);
        if (p->k_run > 0)
            snprintf(which, sizeof which, "%d, %d, ... (runs of %d every %d)", mmaref_pass_k(p, 0),
                     mmaref_pass_k(p, 1), p->k_run, p->k_stride);
        else
            snprintf(which, sizeof which, "%d..%d", p->k_first, p->k_first + p->k_count - 1);
        add(&t, "pass", "schedule", "%s over products %s%s%s, output %s%s", mmaref_algo_name(p->algo), which, params,
            p->flush ? ", subnormals flushed" : "", mmaref_output_name(p->out),
            i ? ", C = the previous pass's result" : in->c_last ? ", C = +0 (C is added last)" : "");
        if (p->ab_f16)
            add(&t, "Step 0", "a, b", "converted exactly to f16, the operands of an f16 tensor-core pass");
        if (p->algo == MMAREF_ALGO_FDA)
            x = trace_fda(&t, pin, p, c_fmt, x, pa, pb, psa, psb);
        else if (p->algo == MMAREF_ALGO_FDRDA || p->algo == MMAREF_ALGO_GFDRDA)
            x = trace_fdrda(&t, in, p, c_fmt, x, pa, pb);
        else if (p->algo == MMAREF_ALGO_GDFS)
            x = trace_gdfs(&t, in, p, c_fmt, x, pa, pb, psa, psb);
        else if (p->algo == MMAREF_ALGO_SFMA)
            x = trace_sfma(&t, p, x, pa, pb);
        else if (p->algo == MMAREF_ALGO_GPS)
            x = trace_gps(&t, in, p, c_fmt, x, pa, pb);
        else /* MMAREF_ALGO_M3XU */
            x = trace_m3xu(&t, in, p, x, pa, pb);
        c_fmt = out_table[p->out].format;
    }
    t.pass = -1;
    char v[256];
    if (in->c_last) { /* one IEEE addition, rounded to nearest even */
        char pv[256];
        describe(pv, sizeof pv, fmt_of(in->d), x);
        x = schedule_add_c(in, x, c);
        describe(v, sizeof v, fmt_of(in->d), x);
        add(&t, "C last", "add", "the passes' result %s plus C, one IEEE addition rounded to nearest even: %s", pv, v);
    }
    describe(v, sizeof v, fmt_of(in->d), want);
    add(&t, "D", "D", "%s", v);
    set_decoded(&t, fmt_of(in->d), want);
    if (x != want) { /* the trace re-does the fast path's steps: they must agree (tests/t_cli_explain.sh) */
        set_msg(msg, msglen, "mmaref_explain: the traced D 0x%llx differs from mmaref_dot's 0x%llx (%s)",
                (unsigned long long)x, (unsigned long long)want, in->name);
        return MMAREF_ERR_ARGUMENT;
    }
    *count = t.n;
    if (d)
        *d = want;
    return MMAREF_OK;
}
