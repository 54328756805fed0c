/* `mmaref explain` (mmaref_explain; docs/explain.md): one dot-add traced step by step, the steps of the
 * MMA-Sim paper with their intermediate values, as lines a person or a program reads.  The lines come
 * from the scalar passes themselves (algo_*.c), which write them into a trace sink (trace.h) as they
 * compute; this file formats them (binary fractions, rounding decisions, decoded operands) and drives
 * the passes (mmaref_explain), holding the traced D to mmaref_dot's.  The batched fast path never
 * traces. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "algo.h"
#include "fixed.h"
#include "format.h"
#include "schedule.h"
#include "trace.h"

struct trace_sink {
    mmaref_trace_line *line;
    int cap, n, pass;
    const char *part; /* precedes each line's what (M3XU's FP32C parts), "" for none */
    mmaref_rule_id broken; /* a rule the passes break (rules.h: the inventory's planted bugs), RULE_NONE */
};

int trace_breaks(const trace_sink *t, mmaref_rule_id rule) { return t->broken == rule; }

/* The dot-add with `rule` broken inside the passes (the hooks behind trace_breaks): every pass traced
 * into a sink that only counts its lines, C added last where the instruction does. */
uint64_t trace_run_broken(const mmaref_instr *in, mmaref_rule_id rule, uint64_t c, const uint64_t *a,
                          const uint64_t *b, const uint64_t *sa, const uint64_t *sb)
{
    trace_sink t = {NULL, 0, 0, -1, "", rule};
    uint64_t x = in->c_last ? 0 : c;
    for (int i = 0; i < in->passes; i++)
        x = schedule_trace_pass(in, &in->pass[i], schedule_pass_c_format(in, i), x, a, b, sa, sb, &t);
    return in->c_last ? schedule_add_c(in, x, c) : x;
}

/* One line: what (with the part before it unless bare, "[index]" after it when index >= 0) and text. */
static void vadd(trace_sink *t, const char *step, const char *what, int index, int bare, const char *fmt,
                 va_list ap)
{
    if (t->line && t->n < t->cap) {
        mmaref_trace_line *l = &t->line[t->n];
        l->pass = t->pass;
        snprintf(l->step, sizeof l->step, "%s", step);
        const char *part = bare ? "" : t->part;
        if (index >= 0)
            snprintf(l->what, sizeof l->what, "%s%s[%d]", part, what, index);
        else
            snprintf(l->what, sizeof l->what, "%s%s", part, what);
        vsnprintf(l->text, sizeof l->text, fmt, ap);
        l->value[0] = 0;
    }
    t->n++;
}

static void __attribute__((format(printf, 5, 6))) add(trace_sink *t, const char *step, const char *what, int index,
                                                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(t, step, what, index, 0, fmt, ap);
    va_end(ap);
}

void trace_line(trace_sink *t, const char *step, const char *what, int index, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(t, step, what, index, 0, fmt, ap);
    va_end(ap);
}

void trace_set_part(trace_sink *t, const char *part) { t->part = part; }

/* The value of the line just added: sign * mag * 2^exp2 as "+0x3p-14" (mag without its trailing zero
 * bits, so that it reads the same whatever F or format holds it), a zero "+0" or "-0". */
static void set_exact(trace_sink *t, int sign, uint64_t mag, int exp2)
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

void trace_value_int(trace_sink *t, int v)
{
    if (t->line && t->n <= t->cap && t->n > 0)
        snprintf(t->line[t->n - 1].value, sizeof t->line[t->n - 1].value, "%d", v);
}

/* The value of the line just added: a format's bits decoded (a complex value keeps the text). */
static void set_decoded(trace_sink *t, const fmt_desc *f, uint64_t raw)
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
static int counting(trace_sink *t)
{
    if (t->line && t->n < t->cap)
        return 0;
    t->n++;
    return 1;
}

static void operand(trace_sink *t, const char *what, int index, mmaref_format fmt, uint64_t raw)
{
    if (counting(t))
        return;
    const fmt_desc *f = fmt_of(fmt);
    char d[256];
    describe(d, sizeof d, f, raw);
    if (raw & f->ignored) /* Step 0: the hardware reads these bits as zero */
        add(t, "Step 0", what, index, "%s (%s: bits 0x%llx ignored)", d, f->name, (unsigned long long)(raw & f->ignored));
    else
        add(t, "Step 0", what, index, "%s", d);
    set_decoded(t, f, raw);
}

void trace_align(trace_sink *t, const char *step, const char *what, int index, int64_t v, uint64_t sig, int sig_frac, int exp, int e_max, int F, fp_rounding r)
{
    if (counting(t))
        return;
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
    add(t, step, what, index, "shifted right %d: kept %c%s, dropped: %s%s", e_max - exp, v < 0 ? '-' : '+',
        bin_value(b, sizeof b, mag, F), dropped, lost ? (r == MMAREF_RD ? " (rounded down)" : " (truncated)") : "");
    set_exact(t, v < 0, mag, e_max - F);
}

void trace_product(trace_sink *t, const char *what, int index, int sign, uint64_t sig, int frac, int exp,
                   int zero_term_exp)
{
    if (counting(t))
        return;
    char b[160];
    if (!sig && zero_term_exp)
        add(t, "Step 2", what, index, "a*b = %c0, exponent %d (a zero term's own exponent on this architecture)",
            sign ? '-' : '+', exp);
    else if (!sig)
        add(t, "Step 2", what, index, "a*b = %c0, exponent %d (a zero product's exponent still counts for e_max)",
            sign ? '-' : '+', exp);
    else
        add(t, "Step 2", what, index, "a*b exact: %c%s x 2^%d", sign ? '-' : '+', bin_value(b, sizeof b, sig, frac), exp);
    set_exact(t, sign, sig, exp - frac);
}

void trace_scale(trace_sink *t, int j, uint64_t sig, int frac, int exp, int scale_nan)
{
    if (counting(t))
        return;
    char bin[160];
    add(t, "Step 2", "scale", j, "sa * sb = %s x 2^%d%s", bin_fixed(bin, sizeof bin, sig, frac), exp,
        scale_nan ? " (a NaN scale)" : "");
}

void trace_sum(trace_sink *t, const char *step, const char *what, const char *phrase, int64_t S, int F, int e,
               int valued)
{
    if (counting(t))
        return;
    char bin[160];
    uint64_t mag = S < 0 ? 0 - (uint64_t)S : (uint64_t)S;
    add(t, step, what, -1, "%s: %c%s x 2^%d", phrase, S < 0 ? '-' : '+', bin_value(bin, sizeof bin, mag, F), e);
    if (valued)
        set_exact(t, S < 0, mag, e - F);
}

void trace_result(trace_sink *t, const char *step, const char *what, int index, const char *text,
                  const fmt_desc *f, uint64_t d, int valued)
{
    if (counting(t))
        return;
    char v[256];
    describe(v, sizeof v, f, d);
    add(t, step, what, index, "%s%s", text, v);
    if (valued)
        set_decoded(t, f, d);
}

void trace_group(trace_sink *t, int g, int k0, int k1, int64_t sigma, int unit_frac, int scale_exp)
{
    if (counting(t))
        return;
    char bin[160];
    uint64_t mag = sigma < 0 ? 0 - (uint64_t)sigma : (uint64_t)sigma;
    add(t, "Steps 2-4", "group", g, "exact sum of products %d..%d: %c%s, times the scales 2^%d", k0, k1,
        sigma < 0 ? '-' : '+', bin_value(bin, sizeof bin, mag, unit_frac), scale_exp);
}

void trace_halves(trace_sink *t, int index, uint64_t ah, uint64_t al, uint64_t bh, uint64_t bl, uint64_t step1,
                  int sign, uint64_t reg, int frac, int exp)
{
    if (counting(t))
        return;
    char bin[160];
    add(t, "Step 3", "p", index, "halves a 0x%03llx|0x%03llx b 0x%03llx|0x%03llx; step 1 a_H*b_H, a_L*b_L: 0x%012llx; "
        "step 2 + (a_H*b_L + a_L*b_H) << 12: %c%s x 2^%d (exact)", (unsigned long long)ah, (unsigned long long)al,
        (unsigned long long)bh, (unsigned long long)bl, (unsigned long long)step1, sign ? '-' : '+',
        bin_value(bin, sizeof bin, reg, frac), exp);
}

/* The normalization's line: its what is "normalize" whatever part the pass is in. */
static void __attribute__((format(printf, 3, 4))) normalize_line(trace_sink *t, const char *step, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(t, step, "normalize", -1, 1, fmt, ap);
    va_end(ap);
}

/* Step 5 (FDRDA Step 8): the exact sum normalized and rounded to the pass's output. */
void trace_normalize(trace_sink *t, const char *step, int64_t sum, int lsb_exp, mmaref_output out, uint64_t d)
{
    const out_desc *o = &out_table[out_part(out)];
    const fmt_desc *f = fmt_of(o->format);
    if (counting(t))
        return;
    uint64_t mag = sum < 0 ? 0 - (uint64_t)sum : (uint64_t)sum;
    char b[160], v[256];
    describe(v, sizeof v, f, d);
    if (!mag) {
        normalize_line(t, step, "the sum is exactly 0: D = %s", v);
        set_decoded(t, f, d);
        return;
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
    normalize_line(t, step, "%c%s x 2^%d: %s keeps %d fractional bits, %d dropped%s: %s -> D = %s",
        sum < 0 ? '-' : '+', bin_fixed(b, sizeof b, mag, msb), e, o->name, o->man_bits, drop > 0 ? drop : 0, gs,
        decision, v);
    set_decoded(t, f, d);
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
    trace_sink t = {lines, cap, 0, -1, "", RULE_NONE};
    int ns = mmaref_scale_count(in);
    operand(&t, "c", -1, in->c, c);
    for (int i = 0; i < in->k; i++)
        operand(&t, "a", i, in->a, a[i]);
    for (int i = 0; i < in->k; i++)
        operand(&t, "b", i, in->b, b[i]);
    for (int i = 0; i < ns; i++) {
        operand(&t, "scale_a", i, in->scale, sa[i]);
        operand(&t, "scale_b", i, in->scale, sb[i]);
    }
    uint64_t x = in->c_last ? 0 : c; /* C added last: the passes start from +0 */
    for (int i = 0; i < in->passes; i++) {
        const mmaref_pass *p = &in->pass[i];
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
        add(&t, "pass", "schedule", -1, "%s over products %s%s%s, output %s%s", mmaref_algo_name(p->algo), which,
            params, p->flush ? ", subnormals flushed" : "", mmaref_output_name(p->out),
            i ? ", C = the previous pass's result" : in->c_last ? ", C = +0 (C is added last)" : "");
        if (p->ab_f16)
            add(&t, "Step 0", "a, b", -1, "converted exactly to f16, the operands of an f16 tensor-core pass");
        x = schedule_trace_pass(in, p, schedule_pass_c_format(in, i), x, a, b, ns ? sa : NULL, ns ? sb : NULL, &t);
    }
    t.pass = -1;
    char v[256];
    if (in->c_last) { /* one IEEE addition, rounded to nearest even */
        char pv[256];
        describe(pv, sizeof pv, fmt_of(in->d), x);
        x = schedule_add_c(in, x, c);
        describe(v, sizeof v, fmt_of(in->d), x);
        add(&t, "C last", "add", -1, "the passes' result %s plus C, one IEEE addition rounded to nearest even: %s", pv, v);
    }
    describe(v, sizeof v, fmt_of(in->d), want);
    add(&t, "D", "D", -1, "%s", v);
    set_decoded(&t, fmt_of(in->d), want);
    if (x != want) { /* the traced passes are mmaref_dot's own: a difference is a bug (tests/t_cli_explain.sh) */
        set_msg(msg, msglen, "mmaref_explain: the traced D 0x%llx differs from mmaref_dot's 0x%llx (%s)",
                (unsigned long long)x, (unsigned long long)want, in->name);
        return MMAREF_ERR_ARGUMENT;
    }
    *count = t.n;
    if (d)
        *d = want;
    return MMAREF_OK;
}
