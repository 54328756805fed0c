/* Building an instruction's schedule (for the instruction tables). */
#ifndef MMAREF_SCHEDULE_H
#define MMAREF_SCHEDULE_H

#include <stddef.h>
#include "mmaref.h"

/* Give `in` a schedule of `passes` passes with the parameters of `proto`, each over the next K/passes
 * products (CoFDA, CoFDRDA, CoGFDRDA: two passes over the halves of K, the MMA-Sim paper, Equation 6). */
void schedule_split_k(mmaref_instr *in, int passes, mmaref_pass proto);

/* Give `in` two passes with the parameters of `proto` on operands converted to f16: the products k mod 4
 * in {0, 1}, then {2, 3} (runs of 2, 4 apart), from +0, and C added last (c_last) -- Hopper's and
 * Blackwell's mma.sync FP8, run as f16 tensor-core passes and an addition. */
void schedule_pairs_c_last(mmaref_instr *in, mmaref_pass proto);

/* Check a record made by the table walk and keep the copy of its checked fields (mmaref_instr.checked). */
mmaref_status schedule_seal(mmaref_instr *in, char *msg, size_t len);
/* MMAREF_OK for a record that is still as sealed, or else passes mmaref_check_schedule (whose message and
 * status it gives): what every entry point asks of a record before it reads one. */
mmaref_status schedule_usable(const mmaref_instr *in, char *msg, size_t len);

/* One dot-add as mmaref_dot computes it, without its checks: only for a record mmaref_check_schedule
 * accepted and operands (a, b: in->k values; sa, sb: the scales or NULL) whose bits fit their formats. */
uint64_t schedule_run(const mmaref_instr *in, uint64_t c, const uint64_t *a, const uint64_t *b, const uint64_t *sa,
                      const uint64_t *sb);

/* Pass p (in->pass[i], or a copy of it with other parameters) alone, C given in c_fmt: the pass's
 * result.  a, b, sa, sb are the whole vector's; the pass reads its slice.  The record as schedule_run. */
uint64_t schedule_run_pass(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,
                           const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb);
/* The same, its steps written into the trace sink t (trace.h; mmaref_explain), or none for t = NULL. */
typedef struct trace_sink trace_sink;
uint64_t schedule_trace_pass(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,
                             const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t);
/* Pass p's operands in its order, ga[j] and gb[j] for its product j (mmaref_pass_k), converted to f16 where
 * the pass takes them so; returns the record to run the pass with: `in`, or `view`, a copy whose A and B
 * are f16.  Only for unscaled passes. */
const mmaref_instr *schedule_pass_operands(const mmaref_instr *in, const mmaref_pass *p, const uint64_t *a,
                                           const uint64_t *b, uint64_t *ga, uint64_t *gb, mmaref_instr *view);
/* An instruction that adds C last (c_last): D = P + C for the passes' result P, one IEEE addition rounded
 * to nearest even in D's format. */
uint64_t schedule_add_c(const mmaref_instr *in, uint64_t p, uint64_t c);
/* The format pass i takes its C in: the instruction's C, then the previous pass's output. */
mmaref_format schedule_pass_c_format(const mmaref_instr *in, int i);

/* A summation kind's hooks from schedule.c's table: its own directed corners (gen_sets.h) and the kind
 * whose lanes run its batches (fast_kernel.h; MMAREF_ALGO_COUNT: none). */
typedef struct gen_set gen_set;
const gen_set *schedule_kind_corners(mmaref_algo algo);
mmaref_algo schedule_kind_lanes(mmaref_algo algo);

/* The library's error messages: a one-line message into msg (when msg != NULL and len > 0). */
void set_msg(char *msg, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
