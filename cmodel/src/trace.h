/* The trace sink of the scalar passes: where a pass (algo_*.c) writes the lines of `mmaref explain`
 * (docs/explain.md) as it computes.  Each kind's one definition takes a trace_sink pointer and writes a
 * line only behind `if (t)`; its normal entry (algo_<kind>) passes NULL, so the trace code folds away
 * and the normal run takes no sink argument, and its traced entry (algo_<kind>_trace, mmaref_explain's)
 * passes the sink, so the trace shows the very steps that computed D.  The lines are formatted in
 * explain.c, which also holds mmaref_explain, the driver.
 *
 * A line is a step ("Step 3"), what it is about ("p[2]", "e_max") and its text, and may carry a value
 * (an exact binary number, an integer or a decoded format value).  `what` with an index >= 0 reads
 * "what[index]"; M3XU's FP32C mode sets a part ("re ", "im ") that precedes the what of its lines. */
#ifndef MMAREF_TRACE_H
#define MMAREF_TRACE_H

#include <stdint.h>
#include "format.h"
#include "rule_ids.h"

typedef struct trace_sink trace_sink;

/* Does the sink ask the passes to break `rule` (rules.h)?  A pass tests it only behind `if (t)`, so the
 * normal run (t = NULL) folds it away; rules.c runs a dot-add so to count the vectors that catch a unit
 * breaking the rule. */
int trace_breaks(const trace_sink *t, mmaref_rule_id rule);
/* The dot-add of `in` with `rule` broken: every pass traced into a sink that only counts. */
uint64_t trace_run_broken(const mmaref_instr *in, mmaref_rule_id rule, uint64_t c, const uint64_t *a,
                          const uint64_t *b, const uint64_t *sa, const uint64_t *sb);

/* A line of free text (the caller's printf format), without a value. */
void trace_line(trace_sink *t, const char *step, const char *what, int index, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The value of the line just written: an integer (an exponent such as e_max). */
void trace_value_int(trace_sink *t, int v);
/* The part the next lines belong to ("" for none): M3XU's FP32C real and imaginary dots. */
void trace_set_part(trace_sink *t, const char *part);

/* Step 2: the exact product sign * sig * 2^(exp - frac) of one term.  zero_term_exp: the pass gives a
 * zero term an exponent of its own (the line says which rule set its exponent). */
void trace_product(trace_sink *t, const char *what, int index, int sign, uint64_t sig, int frac, int exp,
                   int zero_term_exp);
/* FDA's block scales: the product sa * sb of block j, sig * 2^(exp - frac). */
void trace_scale(trace_sink *t, int j, uint64_t sig, int frac, int exp, int scale_nan);
/* One term sig * 2^(exp - sig_frac) aligned to e_max keeping F fractional bits, rounded r: v, the
 * aligned value the pass computed (units of 2^(e_max - F)).  The line shows the kept and dropped bits. */
void trace_align(trace_sink *t, const char *step, const char *what, int index, int64_t v, uint64_t sig, int sig_frac,
                 int exp, int e_max, int F, fp_rounding r);
/* An exact sum S * 2^(e - F): "<phrase>: +1.01 x 2^e", with its value when valued. */
void trace_sum(trace_sink *t, const char *step, const char *what, const char *phrase, int64_t S, int F, int e,
               int valued);
/* The exact sum (units of 2^lsb_exp) normalized and rounded to `out`, giving d: guard, sticky and the
 * rounding decision. */
void trace_normalize(trace_sink *t, const char *step, int64_t sum, int lsb_exp, mmaref_output out, uint64_t d);
/* A result in format f, described after `text` ("... : D = "); valued: the line carries d decoded. */
void trace_result(trace_sink *t, const char *step, const char *what, int index, const char *text,
                  const fmt_desc *f, uint64_t d, int valued);
/* GDFS Steps 2-4: group g's exact sum sigma of products k0..k1 (unit_frac fractional bits) and its
 * scales' exponent. */
void trace_group(trace_sink *t, int g, int k0, int k1, int64_t sigma, int unit_frac, int scale_exp);
/* M3XU Step 3: one product from 12-bit halves, the register after multiply step 1 and after step 2
 * (reg: frac fractional bits, exponent exp). */
void trace_halves(trace_sink *t, int index, uint64_t ah, uint64_t al, uint64_t bh, uint64_t bl, uint64_t step1,
                  int sign, uint64_t reg, int frac, int exp);

#endif
