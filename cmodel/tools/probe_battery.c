/* mmaref probe: the queries.  A fixed battery given the formats, K and scales (nothing depends on an
 * answer, so a GPU can run it offline): the library's directed vectors, the MMA-Sim paper's experiments
 * (section III) written as dot-adds among them, and random vectors; then the confirmation stream. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "probe.h"

/* Random vectors in the battery (the library's random stream, seed 0x9e0be) and the seed-offset of the
 * confirmation stream, so the two never share a vector. */
enum { BATTERY_RANDOM = 1500, BATTERY_CANCEL = 500, BATTERY_CLUSTER = 500 };
#define BATTERY_SEED 0x9e0beULL

static int K_of(const probe_queries *q) { return q->shape.k; }
static int S_of(const probe_queries *q) { return mmaref_scale_count(&q->shape); }
static uint64_t *c_of(uint64_t *row) { return row; }
static uint64_t *a_of(const probe_queries *q, uint64_t *row)
{
    (void)q;
    return row + 1;
}
static uint64_t *b_of(const probe_queries *q, uint64_t *row) { return row + 1 + K_of(q); }
static uint64_t *sa_of(const probe_queries *q, uint64_t *row) { return row + 1 + 2 * K_of(q); }
static uint64_t *sb_of(const probe_queries *q, uint64_t *row) { return row + 1 + 2 * K_of(q) + S_of(q); }

size_t probe_total(const probe_queries *q) { return q->battery + q->confirm; }

void probe_row(const probe_queries *q, size_t i, uint64_t *row)
{
    if (i < q->battery) {
        memcpy(row, q->rows + i * q->nvals, q->nvals * sizeof *row);
        return;
    }
    int S = S_of(q);
    mmaref_gen_vector(&q->shape, MMAREF_GEN_RANDOM, q->seed, i - q->battery, c_of(row), a_of(q, row),
                      b_of(q, row), S ? sa_of(q, row) : NULL, S ? sb_of(q, row) : NULL);
}

const char *probe_label(const probe_queries *q, size_t i)
{
    return i < q->battery ? q->label[i] : "confirmation (random stream)";
}

void probe_format_row(const probe_queries *q, const uint64_t *row, char *buf, size_t cap)
{
    const mmaref_instr *s = &q->shape;
    int K = K_of(q);
    size_t len = 0;
    for (int i = 0; i < q->nvals && len + 20 < cap; i++) {
        mmaref_format f = i == 0 ? s->c : i <= K ? s->a : i <= 2 * K ? s->b : s->scale;
        if (i)
            buf[len++] = ' ';
        buf[len++] = '0';
        buf[len++] = 'x';
        len = (size_t)(cli_put_hex(buf + len, row[i], cli_hex_digits(f)) - buf);
    }
    buf[len] = 0;
}

int probe_dot(const mmaref_instr *in, const probe_queries *q, const uint64_t *row, uint64_t *d)
{
    int K = K_of(q), S = S_of(q);
    return mmaref_dot(in, row[0], row + 1, row + 1 + K, S ? row + 1 + 2 * K : NULL,
                      S ? row + 1 + 2 * K + S : NULL, d, NULL, 0) != MMAREF_OK;
}

int probe_rule_dot(const mmaref_instr *in, int rule, const probe_queries *q, const uint64_t *row, uint64_t *d)
{
    int K = K_of(q), S = S_of(q);
    return mmaref_rule_broken_dot(in, rule, row[0], row + 1, row + 1 + K, S ? row + 1 + 2 * K : NULL,
                                  S ? row + 1 + 2 * K + S : NULL, d, NULL, 0) != MMAREF_OK;
}

/* ---- building rows ---- */

/* A row for the battery (its operands written by the caller). */
static uint64_t *new_row(probe_queries *q, const char *label)
{
    if (q->battery == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 1024;
        q->rows = realloc(q->rows, q->cap * q->nvals * sizeof *q->rows);
        q->label = realloc(q->label, q->cap * sizeof *q->label);
        if (!q->rows || !q->label) {
            fprintf(stderr, "mmaref: probe: out of memory\n");
            exit(2);
        }
    }
    q->label[q->battery] = label;
    return q->rows + q->battery++ * q->nvals;
}

/* n vectors of the library's random stream of a kind, labelled `label`. */
static void generated(probe_queries *q, mmaref_gen_kind kind, uint64_t n, const char *label)
{
    int S = S_of(q);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t *row = new_row(q, label);
        mmaref_gen_vector(&q->shape, kind, BATTERY_SEED, i, c_of(row), a_of(q, row), b_of(q, row),
                          S ? sa_of(q, row) : NULL, S ? sb_of(q, row) : NULL);
    }
}

int probe_is_experiment(const char *label) { return strchr(label, ':') != NULL; }

/* The library's directed vectors, the papers' experiments first (special values, the alignment and
 * rounding ladders: cmodel/src/gen_experiments.c), so that a finding cites the experiment made for it,
 * then its other corner cases. */
static void directed(probe_queries *q)
{
    int S = S_of(q);
    uint64_t n = mmaref_gen_directed_count(&q->shape);
    for (int experiments = 1; experiments >= 0; experiments--)
        for (uint64_t i = 0; i < n; i++) {
            const char *label = mmaref_gen_directed_label(&q->shape, i);
            if (probe_is_experiment(label) != experiments)
                continue;
            uint64_t *row = new_row(q, label);
            mmaref_gen_vector(&q->shape, MMAREF_GEN_DIRECTED, BATTERY_SEED, i, c_of(row), a_of(q, row),
                              b_of(q, row), S ? sa_of(q, row) : NULL, S ? sb_of(q, row) : NULL);
        }
}

/* The library's directed vectors (the experiments first), then random ones. */
int probe_build(probe_queries *q)
{
    q->nvals = 1 + 2 * K_of(q) + 2 * S_of(q);
    directed(q);
    generated(q, MMAREF_GEN_CANCEL, BATTERY_CANCEL, "random (cancellation)");
    generated(q, MMAREF_GEN_CLUSTER, BATTERY_CLUSTER, "random (clustered exponents)");
    generated(q, MMAREF_GEN_RANDOM, BATTERY_RANDOM, "random (mixed kinds)");
    return 0;
}

void probe_free(probe_queries *q)
{
    free(q->rows);
    free(q->label);
    q->rows = NULL;
    q->label = NULL;
}
