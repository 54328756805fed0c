/* mmaref probe: the candidates.  Every schedule the model can run for the device's formats, K and
 * scales (what mmaref_check_schedule accepts: the library's own list of what each summation kind
 * implements, not a second list here), as copies of one record with their passes changed; each is
 * run on the queries until its first answer that differs from the device's. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "probe.h"

/* Battery rows (its last, random ones) every candidate is first tried on. */
enum { SCREEN_ROWS = 64 };

typedef struct {
    probe_cand *v;
    size_t n, cap;
} cand_vec;

static void push(cand_vec *cv, const mmaref_instr *rec)
{
    if (cv->n == cv->cap) {
        cv->cap = cv->cap ? 2 * cv->cap : 256;
        cv->v = realloc(cv->v, cv->cap * sizeof *cv->v);
        if (!cv->v) {
            fprintf(stderr, "mmaref: probe: out of memory\n");
            exit(2);
        }
    }
    cv->v[cv->n].rec = *rec;
    cv->v[cv->n].reject = cv->v[cv->n].confirm_first = -1;
    cv->v[cv->n].confirm_fails = 0;
    cv->v[cv->n].agree = 0;
    cv->v[cv->n++].confirmed = 0;
}

int probe_same_schedule(const mmaref_instr *x, const mmaref_instr *y)
{
    if (x->k != y->k || x->a != y->a || x->b != y->b || x->c != y->c || x->d != y->d ||
        x->block_size != y->block_size || (x->block_size && x->scale != y->scale) || x->passes != y->passes)
        return 0;
    for (int i = 0; i < x->passes; i++) {
        const mmaref_pass *p = &x->pass[i], *r = &y->pass[i];
        if (p->algo != r->algo || p->k_first != r->k_first || p->k_count != r->k_count ||
            p->frac_bits != r->frac_bits || p->group != r->group || p->align_products != r->align_products ||
            p->align_c != r->align_c || p->scales != r->scales || p->flush != r->flush || p->out != r->out ||
            p->zero_term_exp != r->zero_term_exp)
            return 0;
    }
    return 1;
}

/* rec with `passes` equal passes of proto over the slices of K. */
static void split(mmaref_instr *rec, int passes, mmaref_pass proto)
{
    rec->passes = passes;
    for (int i = 0; i < passes; i++) {
        rec->pass[i] = proto;
        rec->pass[i].k_count = rec->k / passes;
        rec->pass[i].k_first = i * (rec->k / passes);
    }
}

static int runnable(mmaref_instr *rec, int passes, mmaref_pass proto)
{
    split(rec, passes, proto);
    return mmaref_check_schedule(rec, NULL, 0) == MMAREF_OK;
}

/* The zero-term exponents to try: 0 (a zero operand's own exponent) and every other value a pass of the
 * table gives (Hopper's -133).  Returns how many, at most `cap`. */
static int zero_term_values(int *z, int cap)
{
    size_t n = mmaref_list(NULL, NULL, 0);
    mmaref_instr *all = malloc(n * sizeof *all);
    int nz = 1;
    z[0] = 0;
    if (!all) {
        fprintf(stderr, "mmaref: probe: out of memory\n");
        exit(2);
    }
    n = mmaref_list(NULL, all, n);
    for (size_t i = 0; i < n; i++)
        for (int p = 0; p < all[i].passes; p++) {
            int v = all[i].pass[p].zero_term_exp, seen = 0;
            for (int j = 0; j < nz; j++)
                seen |= z[j] == v;
            if (!seen && nz < cap)
                z[nz++] = v;
        }
    free(all);
    return nz;
}

/* Every runnable schedule of equal passes: passes 1, 2, 4, 8 (the chains the table's instructions use
 * and a sequential chain of single products), every kind, group, alignment rounding, flushing, output,
 * F over the range the kind accepts, and the zero-term exponents of zero_term_values. */
static void enumerate(const mmaref_instr *shape, cand_vec *cv)
{
    static const int groups[] = {0, 1, 2, 4, 8, 16, 32, 64};
    int zs[8], nz = zero_term_values(zs, 8);
    mmaref_instr rec = *shape;
    memset(rec.checked, 0, sizeof rec.checked);
    for (int passes = 1; passes <= MMAREF_MAX_PASSES && passes <= shape->k; passes *= 2) {
        if (shape->k % passes)
            continue;
        for (int algo = 0; algo < MMAREF_ALGO_COUNT; algo++)
            for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
                for (int ap = 0; ap < MMAREF_ROUNDING_COUNT; ap++)
                    for (int ac = 0; ac < MMAREF_ROUNDING_COUNT; ac++)
                        for (int sc = 0; sc < MMAREF_SCALES_COUNT; sc++)
                            for (int out = 0; out < MMAREF_OUT_COUNT; out++)
                                for (int flush = 0; flush < 2; flush++) {
                                    if ((sc == MMAREF_SCALES_NONE) != (shape->block_size == 0))
                                        continue;
                                    mmaref_pass p = {.algo = (mmaref_algo)algo, .group = groups[g],
                                                     .align_products = (mmaref_rounding)ap,
                                                     .align_c = (mmaref_rounding)ac, .scales = (mmaref_scaling)sc,
                                                     .flush = flush, .out = (mmaref_output)out};
                                    if (runnable(&rec, passes, p)) { /* a kind without F */
                                        push(cv, &rec);
                                        continue;
                                    }
                                    p.frac_bits = 24;
                                    if (!runnable(&rec, passes, p))
                                        continue;
                                    for (int z = 0; z < nz; z++)
                                        for (int F = 1; F <= 64; F++) {
                                            p.frac_bits = F, p.zero_term_exp = zs[z];
                                            if (runnable(&rec, passes, p))
                                                push(cv, &rec);
                                        }
                                }
    }
}

/* The queries in [from, to) whose answer rec does not give: how many (counting stops at `most`), the
 * first in *first (-1: none). */
static size_t differences(const probe_queries *q, const uint64_t *answers, const mmaref_instr *rec, size_t from,
                          size_t to, int nan_any, size_t most, long *first)
{
    /* GROUP queries at a time through mmaref_dot_batch (the rows laid out as the battery keeps them) */
    enum { GROUP = 256 };
    uint64_t *rows = malloc(sizeof(uint64_t) * GROUP * PROBE_ROW_MAX), d[GROUP];
    size_t n_diff = 0;
    *first = -1;
    if (!rows) {
        fprintf(stderr, "mmaref: probe: out of memory\n");
        exit(2);
    }
    int K = q->shape.k, S = mmaref_scale_count(&q->shape), n = q->nvals;
    for (size_t i0 = from; i0 < to && n_diff < most; i0 += GROUP) {
        size_t g = to - i0 < GROUP ? to - i0 : GROUP;
        for (size_t j = 0; j < g; j++)
            probe_row(q, i0 + j, rows + j * (size_t)n);
        mmaref_dots x = {{rows, n, 0}, {rows + 1, n, 1}, {rows + 1 + K, n, 1}, {rows + 1 + 2 * K, n, 1},
                         {rows + 1 + 2 * K + S, n, 1}};
        int whole = mmaref_dot_batch(rec, g, &x, d, NULL, 0) == MMAREF_OK;
        for (size_t j = 0; j < g && n_diff < most; j++)
            if (((!whole && probe_dot(rec, q, rows + j * (size_t)n, &d[j])) ||
                 !cli_same_d(q->shape.d, d[j], answers[i0 + j], nan_any)) &&
                !n_diff++)
                *first = (long)(i0 + j);
    }
    free(rows);
    return n_diff;
}

/* The first query in [from, to) whose answer rec does not give, or -1. */
long probe_first_difference(const probe_queries *q, const uint64_t *answers, const mmaref_instr *rec, size_t from,
                            size_t to, int nan_any)
{
    long first;
    differences(q, answers, rec, from, to, nan_any, 1, &first);
    return first;
}

long probe_first_failure(const probe_cand *c) { return c->reject >= 0 ? c->reject : c->confirm_first; }

/* A battery survivor on the confirmation stream, every vector it fails counted. */
static void confirm(const probe_queries *q, const uint64_t *answers, int nan_any, probe_cand *c)
{
    c->confirm_fails =
        differences(q, answers, &c->rec, q->battery, probe_total(q), nan_any, SIZE_MAX, &c->confirm_first);
    c->confirmed = c->confirm_fails == 0;
}

/* The ranking of a device no candidate matches: how many battery queries each gets right. */
static void count_agreements(const probe_queries *q, const uint64_t *answers, int nan_any, cand_vec *cv)
{
    long first;
    for (size_t j = 0; j < cv->n; j++)
        cv->v[j].agree =
            (long)(q->battery - differences(q, answers, &cv->v[j].rec, 0, q->battery, nan_any, SIZE_MAX, &first));
}

/* The table's instructions with the shape's formats, K and scales, one per distinct schedule
 * (the names of the others with the same schedule are found again by the report). */
mmaref_instr *probe_whole_table(size_t *n)
{
    *n = mmaref_list(NULL, NULL, 0);
    mmaref_instr *all = malloc(*n * sizeof *all);
    if (!all) {
        fprintf(stderr, "mmaref: probe: out of memory\n");
        exit(2);
    }
    mmaref_list(NULL, all, *n);
    return all;
}

static void table_instrs(const mmaref_instr *shape, cand_vec *cv)
{
    size_t n;
    mmaref_instr *all = probe_whole_table(&n);
    for (size_t i = 0; i < n; i++) {
        const mmaref_instr *t = &all[i];
        if (t->k != shape->k || t->a != shape->a || t->b != shape->b || t->c != shape->c || t->d != shape->d ||
            t->block_size != shape->block_size || (t->block_size && t->scale != shape->scale))
            continue;
        int seen = 0;
        for (size_t j = 0; j < cv->n && !seen; j++)
            seen = probe_same_schedule(&cv->v[j].rec, t);
        if (!seen)
            push(cv, t);
    }
    free(all);
}

int probe_shape_schedule(mmaref_instr *shape)
{
    cand_vec cv = {0};
    enumerate(shape, &cv);
    if (cv.n)
        *shape = cv.v[0].rec;
    free(cv.v);
    return cv.n == 0;
}

int probe_search(const probe_queries *q, const uint64_t *answers, int nan_any, probe_search_result *r)
{
    cand_vec cands = {0}, table = {0};
    enumerate(&q->shape, &cands);
    table_instrs(&q->shape, &table);
    /* the battery decides between candidates: a quick screen on its last rows (random vectors, which most
     * wrong schedules fail at once), then every row in order ... */
    size_t screen = q->battery < SCREEN_ROWS ? 0 : q->battery - SCREEN_ROWS;
    for (size_t i = 0; i < cands.n; i++)
        if ((cands.v[i].reject = probe_first_difference(q, answers, &cands.v[i].rec, screen, q->battery, nan_any)) < 0)
            cands.v[i].reject = probe_first_difference(q, answers, &cands.v[i].rec, 0, q->battery, nan_any);
    for (size_t i = 0; i < table.n; i++)
        if ((table.v[i].reject = probe_first_difference(q, answers, &table.v[i].rec, 0, q->battery, nan_any)) < 0)
            confirm(q, answers, nan_any, &table.v[i]);
    /* ... and the confirmation stream holds the first survivor (the report's answer: the fewest passes,
     * no flushing, the smallest F) and any table instruction that survived it; a survivor it rejects
     * gives way to the next, its failures counted (a device that agrees with the whole battery and fails
     * a few confirmation vectors is reported as such). */
    int any_confirmed = 0, any_survivor = 0;
    for (size_t i = 0; i < table.n; i++)
        any_confirmed |= table.v[i].confirmed, any_survivor |= table.v[i].reject < 0;
    for (size_t i = 0; i < cands.n; i++) {
        probe_cand *c = &cands.v[i];
        if (c->reject >= 0)
            continue;
        int in_table = 0;
        for (size_t j = 0; j < table.n && !in_table; j++)
            in_table = probe_same_schedule(&table.v[j].rec, &c->rec);
        confirm(q, answers, nan_any, c);
        any_confirmed |= c->confirmed, any_survivor = 1;
        if (c->confirmed && !in_table)
            break;
    }
    /* nothing agrees with the whole battery: how many battery queries each candidate gets right ranks
     * them (the report's closest; a battery survivor is reported instead) */
    if (!any_confirmed && !any_survivor)
        count_agreements(q, answers, nan_any, &cands);
    r->cand = cands.v;
    r->n = cands.n;
    r->table = table.v;
    r->ntable = table.n;
    return 0;
}

void probe_search_free(probe_search_result *r)
{
    free(r->cand);
    free(r->table);
    r->cand = r->table = NULL;
}
