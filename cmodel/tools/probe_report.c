/* mmaref probe: the report.  The observations of the special-value experiments; then, for each field of
 * the schedule found, its value and the query that rejected its nearest alternatives (a batch line to
 * replay with `mmaref batch`); then the schedule in the table's own terms (the `list --json` fields) and
 * the table's instructions that match it, or the nearest one and why it differs. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "probe.h"

/* The schedule fields a finding is about, as `mmaref list --json` names them ("passes": their count). */
typedef enum {
    FLD_PASSES, FLD_ALGO, FLD_F, FLD_GROUP, FLD_ALIGN_P, FLD_ALIGN_C, FLD_FLUSH, FLD_ZERO, FLD_OUT, FLD_COUNT
} field;
static const char *const field_names[FLD_COUNT] = {"passes", "algo", "frac_bits", "group", "align_products",
                                                   "align_c", "flush", "zero_term_exp", "out"};
/* What each field says about the hardware (the paper's experiment it stands for). */
static const char *const field_meaning[FLD_COUNT] = {
    "chained passes over slices of K (CoFDA halves: 2)",
    "summation kind: fused, sequential FMA chain, pairwise groups, group dot, round-down add",
    "alignment width F: fractional bits kept below e_max",
    "group size G (GPS pairwise groups, GDFS products per group)",
    "rounding of the aligned products: rz truncates, rd rounds down",
    "rounding of the aligned C",
    "subnormal flushing of inputs, products and partial sums",
    "a zero term's exponent in e_max (0: each zero operand its own, -126)",
    "normalization: D's format and rounding",
};

static int field_value(const mmaref_instr *in, field f)
{
    const mmaref_pass *p = &in->pass[0];
    switch (f) {
    case FLD_PASSES: return in->passes;
    case FLD_ALGO: return p->algo;
    case FLD_F: return p->frac_bits;
    case FLD_GROUP: return p->group;
    case FLD_ALIGN_P: return p->align_products;
    case FLD_ALIGN_C: return p->align_c;
    case FLD_FLUSH: return p->flush;
    case FLD_ZERO: return p->zero_term_exp;
    default: return p->out;
    }
}

static const char *value_text(field f, int v, char *buf, size_t cap)
{
    switch (f) {
    case FLD_ALGO: return mmaref_algo_name((mmaref_algo)v);
    case FLD_ALIGN_P:
    case FLD_ALIGN_C: return mmaref_rounding_name((mmaref_rounding)v);
    case FLD_OUT: return mmaref_output_name((mmaref_output)v);
    default: snprintf(buf, cap, "%d", v); return buf;
    }
}

/* x and y differ in field f and in no other. */
static int differ_only_in(const mmaref_instr *x, const mmaref_instr *y, field f)
{
    for (int g = 0; g < FLD_COUNT; g++)
        if ((field_value(x, (field)g) != field_value(y, (field)g)) != (g == (int)f))
            return 0;
    return 1;
}

static int fields_differing(const mmaref_instr *x, const mmaref_instr *y)
{
    int n = 0;
    for (int g = 0; g < FLD_COUNT; g++)
        n += field_value(x, (field)g) != field_value(y, (field)g);
    return n;
}

static void print_value(FILE *out, mmaref_format f, uint64_t bits)
{
    char dec[64];
    cli_format_decimal(dec, sizeof dec, f, bits);
    fprintf(out, "0x%0*llx (%s)", cli_hex_digits(f), (unsigned long long)bits, dec);
}

/* "query #i [label]: LINE -> device D, <who> D'" */
static void print_query(FILE *out, const probe_queries *q, const uint64_t *answers, long i, const char *who,
                        const mmaref_instr *rec)
{
    uint64_t row[PROBE_ROW_MAX], d = 0;
    static char line[PROBE_ROW_MAX * 20 + 2];
    probe_row(q, (size_t)i, row);
    probe_format_row(q, row, line, sizeof line);
    fprintf(out, "      query #%ld [%s]: %s\n      device ", i, probe_label(q, (size_t)i), line);
    print_value(out, q->shape.d, answers[i]);
    if (rec) {
        probe_dot(rec, q, row, &d);
        fprintf(out, ", %s ", who);
        print_value(out, q->shape.d, d);
    }
    fputc('\n', out);
}

/* print_query with the D of a unit breaking rule `rule` of rec. */
static void print_rule_query(FILE *out, const probe_queries *q, const uint64_t *answers, long i, const char *who,
                             const mmaref_instr *rec, int rule)
{
    uint64_t row[PROBE_ROW_MAX], d = 0;
    probe_row(q, (size_t)i, row);
    print_query(out, q, answers, i, NULL, NULL);
    probe_rule_dot(rec, rule, q, row, &d);
    fprintf(out, "      %s ", who);
    print_value(out, q->shape.d, d);
    fputc('\n', out);
}

static void print_schedule(FILE *out, const char *what, const mmaref_instr *in)
{
    char name[32];
    mmaref_schedule_name(in, name, sizeof name);
    fprintf(out, "%s: %s [", what, name);
    for (int i = 0; i < in->passes; i++) {
        const mmaref_pass *p = &in->pass[i];
        fprintf(out, "%s", i ? ", " : "");
        cli_pass_json(out, p);
    }
    fprintf(out, "]\n");
}

/* Does a battery row ask one of the papers' one-row questions?  The library labels those "topic:
 * detail", the ladders "... ladder: ...", its other families and the random rows without a colon. */
static int is_question(const char *label) { return probe_is_experiment(label) && !strstr(label, "ladder"); }

/* The special-value experiments: what the device answered. */
static void observations(FILE *out, const probe_queries *q, const uint64_t *answers)
{
    fprintf(out, "observations (special values, zeros, subnormals, overflow, exact products):\n");
    for (size_t i = 0; i < q->battery; i++) {
        const char *l = q->label[i];
        if (!is_question(l))
            continue;
        fprintf(out, "  %s: D = ", l);
        print_value(out, q->shape.d, answers[i]);
        fputc('\n', out);
        print_query(out, q, answers, (long)i, NULL, NULL);
    }
}

/* The battery queries rec answers differently, counted by experiment. */
static void disagreements(FILE *out, const probe_queries *q, const uint64_t *answers, const mmaref_instr *rec,
                          int nan_any)
{
    const char *labels[64];
    long counts[64];
    int n = 0;
    uint64_t row[PROBE_ROW_MAX], d;
    for (size_t i = 0; i < q->battery; i++) {
        probe_row(q, i, row);
        if (!probe_dot(rec, q, row, &d) && cli_same_d(q->shape.d, d, answers[i], nan_any))
            continue;
        int j = 0;
        while (j < n && strcmp(labels[j], q->label[i]))
            j++;
        if (j == n && n < 64)
            labels[n] = q->label[i], counts[n++] = 0;
        if (j < n)
            counts[j]++;
    }
    for (int j = 0; j < n; j++)
        fprintf(out, "    %ld x %s\n", counts[j], labels[j]);
}

/* The first query that rejected c: its first battery difference (the search may have found a later
 * one first), else its first confirmation failure. */
static long first_rejection(const probe_queries *q, const uint64_t *answers, const probe_cand *c, int nan_any)
{
    return c->reject >= 0 ? probe_first_difference(q, answers, &c->rec, 0, q->battery, nan_any) : c->confirm_first;
}

/* For one field: the value found, the range of values no query tells apart, and the query that
 * rejected the nearest other value on each side. */
static void finding(FILE *out, const probe_queries *q, const uint64_t *answers, const probe_search_result *r,
                    const mmaref_instr *found, field f, int nan_any)
{
    char b1[32], b2[32];
    int v = field_value(found, f), lo = v, hi = v;
    const probe_cand *below = NULL, *above = NULL, *other[8];
    int nother = 0;
    for (size_t i = 0; i < r->n; i++) {
        const probe_cand *c = &r->cand[i];
        int w = field_value(&c->rec, f);
        if (f == FLD_ALGO && w != v && probe_first_failure(c) >= 0) {
            /* another summation kind usually differs in more than the kind (GPS has groups, SFMA no
             * F): cite the one of each kind closest to the schedule found */
            int j = 0;
            while (j < nother && field_value(&other[j]->rec, f) != w)
                j++;
            if (j == nother && nother < 8)
                other[nother++] = c;
            else if (j < nother && (fields_differing(&c->rec, found) < fields_differing(&other[j]->rec, found) ||
                                    (fields_differing(&c->rec, found) == fields_differing(&other[j]->rec, found) &&
                                     probe_first_failure(c) > probe_first_failure(other[j]))))
                other[j] = c;
            continue;
        }
        if (!differ_only_in(&c->rec, found, f))
            continue;
        if (probe_first_failure(c) < 0) { /* agrees with every query it was run on */
            lo = w < lo ? w : lo, hi = w > hi ? w : hi;
            continue;
        }
        if (f == FLD_F || f == FLD_GROUP || f == FLD_PASSES) {
            if (w < v && (!below || w > field_value(&below->rec, f)))
                below = c;
            if (w > v && (!above || w < field_value(&above->rec, f)))
                above = c;
        } else {
            int seen = 0;
            for (int j = 0; j < nother; j++)
                seen |= field_value(&other[j]->rec, f) == w;
            if (!seen && nother < 8)
                other[nother++] = c;
        }
    }
    fprintf(out, "  %s = %s", field_names[f], value_text(f, v, b1, sizeof b1));
    if (lo != hi)
        fprintf(out, " (no query tells %s..%s apart)", value_text(f, lo, b1, sizeof b1), value_text(f, hi, b2, sizeof b2));
    fprintf(out, "  -- %s\n", field_meaning[f]);
    if (below)
        other[nother++] = below;
    if (above && nother < 8)
        other[nother++] = above;
    if (!nother)
        fprintf(out, "    (no other value the model can run with the rest of this schedule)\n");
    for (int j = 0; j < nother; j++) {
        char who[64];
        if (f == FLD_ALGO) {
            char name[32];
            mmaref_schedule_name(&other[j]->rec, name, sizeof name);
            snprintf(who, sizeof who, "%s (F = %d, G = %d, %s)", name, other[j]->rec.pass[0].frac_bits,
                     other[j]->rec.pass[0].group, mmaref_output_name(other[j]->rec.pass[0].out));
        } else {
            snprintf(who, sizeof who, "%s = %s", field_names[f], value_text(f, field_value(&other[j]->rec, f), b1, sizeof b1));
        }
        fprintf(out, "    %s rejected by\n", who);
        print_query(out, q, answers, first_rejection(q, answers, other[j], nan_any), who, &other[j]->rec);
    }
}

/* The table's instructions with this schedule, one line per architecture: the count and the first. */
static void print_names(FILE *out, const mmaref_instr *sched, const char *prefix)
{
    size_t n;
    mmaref_instr *all = probe_whole_table(&n);
    for (size_t i = 0; i < n; i++) {
        if (!probe_same_schedule(&all[i], sched))
            continue;
        int first = 1, count = 0;
        for (size_t j = 0; j < n; j++)
            if (probe_same_schedule(&all[j], sched) && !strcmp(all[j].arch, all[i].arch))
                first &= j >= i, count++;
        if (!first)
            continue;
        fprintf(out, "%s%s %s", prefix, all[i].arch, all[i].name);
        if (count > 1)
            fprintf(out, " (and %d more %s instructions)", count - 1, all[i].arch);
        fputc('\n', out);
    }
    free(all);
}

/* The battery survivor that fails the fewest confirmation vectors (a candidate before a table record),
 * or NULL when none was run on them and failed. */
static const probe_cand *battery_match(const probe_search_result *r)
{
    const probe_cand *best = NULL;
    const probe_cand *sets[2] = {r->cand, r->table};
    size_t n[2] = {r->n, r->ntable};
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < n[s]; i++) {
            const probe_cand *c = &sets[s][i];
            if (c->reject < 0 && c->confirm_fails && (!best || c->confirm_fails < best->confirm_fails))
                best = c;
        }
    return best;
}

/* The candidate that agrees with the most battery queries (the first of equals). */
static const probe_cand *closest(const probe_search_result *r)
{
    const probe_cand *best = NULL;
    for (size_t i = 0; i < r->n; i++)
        if (!best || r->cand[i].agree > best->agree)
            best = &r->cand[i];
    return best;
}

/* Each field of the schedule found, with the queries that rejected its alternatives. */
static void field_findings(FILE *out, const probe_queries *q, const uint64_t *answers, const probe_search_result *r,
                           const mmaref_instr *found, int nan_any)
{
    /* the search stands on its own: the schedule reported is one the candidates reached, not only a
     * table record that happened to agree */
    int searched = 0;
    for (size_t i = 0; i < r->n && !searched; i++)
        searched = r->cand[i].reject < 0 && probe_same_schedule(&r->cand[i].rec, found);
    fprintf(out, "  the schedule found is %s\n",
            searched ? "one of them" : "not one of them (only a table record agrees: a gap in the search)");
    for (int f = 0; f < FLD_COUNT; f++)
        finding(out, q, answers, r, found, (field)f, nan_any);
    fprintf(out, "  products: %s\n", found->pass[0].algo == MMAREF_ALGO_GPS
            ? "rounded to FP32 before the sum (GPS)"
            : found->pass[0].algo == MMAREF_ALGO_SFMA ? "exact inside each fused multiply-add (SFMA)"
                                                      : "exact (not rounded before the alignment)");
}

/* Each rule of the inventory the schedule found has (docs/rules.md), with the first battery query on which
 * the device's D is not what a unit breaking the rule gives: the battery asked it. */
static void rule_findings(FILE *out, const probe_queries *q, const uint64_t *answers, const mmaref_instr *found,
                          int nan_any)
{
    int n = mmaref_rule_count(), asked = 0, rules = 0;
    uint64_t row[PROBE_ROW_MAX], d;
    fprintf(out, "rules (docs/rules.md), each with the first battery query that tells it from a unit breaking it:\n");
    for (int r = 1; r <= n; r++) {
        if (!mmaref_rule_applies(found, r))
            continue;
        rules++;
        long hit = -1;
        for (size_t i = 0; i < q->battery && hit < 0; i++) {
            probe_row(q, i, row);
            if (!probe_rule_dot(found, r, q, row, &d) && !cli_same_d(q->shape.d, d, answers[i], nan_any))
                hit = (long)i;
        }
        fprintf(out, "  %s:%s\n", mmaref_rule_at(r)->name, hit < 0 ? " no battery query tells it apart" : "");
        if (hit >= 0) {
            asked++;
            char who[64];
            snprintf(who, sizeof who, "breaking %s", mmaref_rule_at(r)->name);
            print_rule_query(out, q, answers, hit, who, found, r);
        }
    }
    fprintf(out, "  the battery tells %d of the %d rules apart\n", asked, rules);
}

/* Nothing the model can run behaves as the device: the candidate that agrees most often, and the
 * experiments it fails. */
static void closest_findings(FILE *out, const probe_queries *q, const uint64_t *answers, const probe_cand *best,
                             int nan_any)
{
    fprintf(out, "  no schedule the model can run agrees with the device on every query (with a NaN payload\n"
                 "  the model does not write, try --nan-any)\n");
    if (!best)
        return;
    print_schedule(out, "  closest", &best->rec);
    fprintf(out, "  it agrees with %ld of the %zu battery queries; it differs on:\n", best->agree, q->battery);
    disagreements(out, q, answers, &best->rec, nan_any);
    fprintf(out, "  first differing input:\n");
    print_query(out, q, answers, probe_first_difference(q, answers, &best->rec, 0, q->battery, nan_any), "it gives",
                &best->rec);
}

/* A device that agrees with the whole battery as one schedule and fails some confirmation vectors: not
 * a match (a unit that is wrong on rare inputs, a rounder that sees too few bits of the sum). */
static void near_miss_verdict(FILE *out, const probe_queries *q, const uint64_t *answers, const probe_cand *c)
{
    char text[256];
    cli_schedule_text(text, sizeof text, &c->rec);
    fprintf(out, "verdict: no match: agrees with all %zu battery queries as %s, but fails %zu of %zu confirmation "
                 "vectors\n", q->battery, text, c->confirm_fails, q->confirm);
    print_names(out, &c->rec, "  battery match: ");
    fprintf(out, "  first failing confirmation vector:\n");
    print_query(out, q, answers, c->confirm_first, "model", &c->rec);
}

/* No table instruction matches: the nearest table schedule to ref (fewest differing fields, then the
 * longest agreement) and why it differs. */
static void nearest_verdict(FILE *out, const probe_queries *q, const uint64_t *answers, const probe_search_result *r,
                            const mmaref_instr *ref, const char *whose)
{
    const probe_cand *near = NULL;
    for (size_t i = 0; i < r->ntable; i++) {
        const probe_cand *t = &r->table[i];
        int dt = ref ? fields_differing(&t->rec, ref) : 0, dn = near && ref ? fields_differing(&near->rec, ref) : 0;
        if (!near || dt < dn || (dt == dn && probe_first_failure(t) > probe_first_failure(near)))
            near = t;
    }
    if (!near) {
        fprintf(out, "verdict: no table instruction has formats %s,%s,%s,%s with K = %d%s\n", mmaref_format_name(q->shape.a),
                mmaref_format_name(q->shape.b), mmaref_format_name(q->shape.c), mmaref_format_name(q->shape.d),
                q->shape.k, q->shape.block_size ? " and these scales" : "");
        return;
    }
    fprintf(out, "verdict: no table instruction matches; nearest:\n");
    print_names(out, &near->rec, "  nearest: ");
    print_schedule(out, "  its schedule", &near->rec);
    if (ref) {
        char b1[32], b2[32];
        for (int f = 0; f < FLD_COUNT; f++)
            if (field_value(&near->rec, (field)f) != field_value(ref, (field)f))
                fprintf(out, "  reason: %s = %s on the device%s, %s in the table\n", field_names[f],
                        value_text((field)f, field_value(ref, (field)f), b1, sizeof b1), whose,
                        value_text((field)f, field_value(&near->rec, (field)f), b2, sizeof b2));
    }
    fprintf(out, "  first differing input:\n");
    print_query(out, q, answers, probe_first_failure(near), "table", &near->rec);
}

int probe_report(FILE *out, const probe_queries *q, const uint64_t *answers, const probe_search_result *r,
                 int nan_any)
{
    observations(out, q, answers);
    /* the answer: a confirmed table schedule if there is one, else the first confirmed candidate; with
     * neither, the schedule that agrees with the whole battery, else the closest */
    const mmaref_instr *found = NULL;
    const probe_cand *match = NULL, *battery = NULL, *best = NULL;
    for (size_t i = 0; i < r->ntable && !match; i++)
        if (r->table[i].confirmed)
            match = &r->table[i];
    if (match)
        found = &match->rec;
    for (size_t i = 0; i < r->n && !found; i++)
        if (r->cand[i].confirmed)
            found = &r->cand[i].rec;
    if (!found && (battery = battery_match(r)))
        found = &battery->rec;
    size_t alike = 0;
    for (size_t i = 0; i < r->n; i++)
        alike += r->cand[i].reject < 0;
    fprintf(out, "findings (%zu candidate schedules the model can run; %zu agree with every battery query):\n", r->n,
            alike);
    if (battery)
        fprintf(out, "  none agrees with every confirmation vector; the findings are the battery's\n");
    if (found) {
        field_findings(out, q, answers, r, found, nan_any);
        print_schedule(out, battery ? "battery schedule" : "schedule", found);
        rule_findings(out, q, answers, found, nan_any);
    } else {
        closest_findings(out, q, answers, best = closest(r), nan_any);
    }
    fprintf(out, "device queries: %zu (battery %zu, confirmation %zu random vectors)\n", probe_total(q), q->battery,
            q->confirm);
    if (match) {
        fprintf(out, "verdict: matches the table (confirmed on %zu random vectors):\n", q->confirm);
        print_names(out, &match->rec, "  match: ");
        return 0;
    }
    if (battery)
        near_miss_verdict(out, q, answers, battery);
    else
        nearest_verdict(out, q, answers, r, found ? found : best ? &best->rec : NULL, found ? "" : " (closest schedule)");
    return 1;
}
