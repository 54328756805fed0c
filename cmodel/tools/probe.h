/* mmaref probe: what arithmetic does a matrix unit implement?  The MMA-Sim paper's method (section III:
 * targeted experiments on a black box) automated.  One round of queries, fixed by the formats, K and
 * scales alone: a battery of directed experiments and random vectors, then the confirmation vectors.
 * Every schedule the model can run for those formats is a candidate; the device's answers reject all
 * but the ones that behave as it does.  Split by concern:
 *   probe_battery.c  the queries (the experiments, the confirmation stream)
 *   probe_device.c   the device channel (a command over the batch-line pipe, or files for offline use)
 *   probe_answers.c  the device's answer lines, read with a time limit
 *   probe_search.c   the candidate schedules, their elimination, the table's instructions
 *   probe_report.c   the findings, each with the input that showed it, and the verdict */
#ifndef MMAREF_PROBE_H
#define MMAREF_PROBE_H

#include <stdio.h>
#include "mmaref.h"

/* Fields of one query row: C, A[K], B[K], SA[S], SB[S]. */
#define PROBE_ROW_MAX (1 + 2 * MMAREF_MAX_K + 2 * MMAREF_MAX_SCALES)

/* The queries of a probe: `battery` rows kept in memory (each with the experiment that made it), then
 * `confirm` vectors of the library's random stream, made again from (seed, index) when needed. */
typedef struct {
    mmaref_instr shape;  /* formats, K, scales of the device, with a runnable schedule for the generator */
    int nvals;           /* fields of a row */
    size_t battery, cap;
    uint64_t *rows;      /* battery * nvals */
    const char **label;  /* experiment of each battery row */
    size_t confirm;
    uint64_t seed;
} probe_queries;

size_t probe_total(const probe_queries *q);
/* Row i (battery or confirmation) into row[nvals]. */
void probe_row(const probe_queries *q, size_t i, uint64_t *row);
const char *probe_label(const probe_queries *q, size_t i);
/* Is a battery row's label one of the papers' experiments (the library labels them "topic: detail", its
 * other families and the random rows without a colon: mmaref_gen_directed_label)? */
int probe_is_experiment(const char *label);
/* Build the battery for q->shape (filled in by the caller, with confirm and seed). */
int probe_build(probe_queries *q);
void probe_free(probe_queries *q);
/* The row as a batch line (what `mmaref batch` reads). */
void probe_format_row(const probe_queries *q, const uint64_t *row, char *buf, size_t cap);
/* D of a record on a row (the record's formats are q->shape's); 0 on success. */
int probe_dot(const mmaref_instr *in, const probe_queries *q, const uint64_t *row, uint64_t *d);
/* D of a unit that breaks rule `rule` of the inventory (mmaref.h, "rules") on a row; 0 on success. */
int probe_rule_dot(const mmaref_instr *in, int rule, const probe_queries *q, const uint64_t *row, uint64_t *d);

/* ---- the device ---- */
/* The seconds a device may take for each answer line (its start included) and to exit after the last,
 * unless --timeout says otherwise; then it and its process group are stopped: SIGTERM, and SIGKILL
 * PROBE_GRACE_S later. */
enum { PROBE_TIMEOUT_S = 60, PROBE_GRACE_S = 1 };
/* Run argv as the device: the queries on its stdin, one D per line from its stdout into answers. */
int probe_device_run(const probe_queries *q, char *const argv[], int timeout_s, uint64_t *answers);
/* Offline: write the query lines to path; read the D lines of path. */
int probe_write_queries(const probe_queries *q, const char *path);
int probe_read_results(const probe_queries *q, const char *path, uint64_t *answers);

/* ---- the answers (probe_answers.c) ---- */
enum { PROBE_ANSWER_MAX = 255 }; /* the longest answer line, in characters before its newline */
/* One answer line (len bytes, without its newline) as D of format d: one hex field (0x optional),
 * blanks around it; 0, else 1 (not such a value) or 2 (a NUL byte in the line). */
int probe_parse_answer(mmaref_format d, const char *line, size_t len, uint64_t *v);
enum { PROBE_ANSWERS_OK, PROBE_ANSWERS_BAD, PROBE_ANSWERS_SHORT, PROBE_ANSWERS_SLOW };
/* Exactly probe_total(q) answer lines from fd, then its end: PROBE_ANSWERS_OK, or with a one-line message
 * in err (`what` names the source) BAD (a line that is not an answer, or more lines than asked), SHORT
 * (the end came early) or SLOW (timeout_ms > 0 passed without a line, or without the end after the
 * last).  *got: the answers read. */
int probe_read_answers(const probe_queries *q, int fd, int timeout_ms, const char *what, uint64_t *answers,
                       size_t *got, char *err, size_t cap);

/* ---- the candidates ---- */
typedef struct {
    mmaref_instr rec;
    long reject;          /* the first battery query whose answer differs (the first in battery order, unless a
                           * quick screen on the battery's last rows found one: probe_first_difference finds
                           * the first); -1: none */
    int confirmed;        /* agrees with the battery and with every confirmation vector */
    size_t confirm_fails; /* confirmation vectors it fails, every one counted (run on battery survivors only) */
    long confirm_first;   /* the first of them; -1: none, or not run */
    long agree;           /* battery queries it agrees with, counted when no candidate or table record
                           * agrees with the whole battery (the report's ranking, "closest") */
} probe_cand;

typedef struct {
    probe_cand *cand;
    size_t n;
    probe_cand *table;   /* the table's instructions with the device's formats, K and scales */
    size_t ntable;
} probe_search_result;

/* Give shape (formats, K, scales set) the first schedule the model can run for them; nonzero if none. */
int probe_shape_schedule(mmaref_instr *shape);
/* Every schedule the model can run for q->shape's formats, K and scales, judged against answers. */
int probe_search(const probe_queries *q, const uint64_t *answers, int nan_any, probe_search_result *r);
void probe_search_free(probe_search_result *r);
/* The first query in [from, to) whose answer rec does not give, or -1. */
long probe_first_difference(const probe_queries *q, const uint64_t *answers, const mmaref_instr *rec, size_t from,
                            size_t to, int nan_any);
/* The first query rec fails: its first battery difference, else its first confirmation failure; -1: none. */
long probe_first_failure(const probe_cand *c);
/* Every instruction of every architecture (the caller frees it). */
mmaref_instr *probe_whole_table(size_t *n);
/* Do two records have the same schedule (k .. pass[])? */
int probe_same_schedule(const mmaref_instr *x, const mmaref_instr *y);

/* ---- the report ---- */
/* Prints the findings and the verdict; returns 0 when a table instruction matches, 1 when none does (a
 * schedule that agrees with the whole battery but fails confirmation vectors included). */
int probe_report(FILE *out, const probe_queries *q, const uint64_t *answers, const probe_search_result *r,
                 int nan_any);

#endif
