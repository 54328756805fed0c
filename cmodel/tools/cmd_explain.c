/* mmaref explain ARCH INSTR -a LIST -b LIST -c VALUE [--scale-a LIST --scale-b LIST] [--vs ARCH2 INSTR2]
 * [--all-lanes] [--json]: one dot-add traced step by step (mmaref_explain; docs/explain.md); lanes that
 * contribute nothing folded into one line each step (explain_fold.c) unless --all-lanes. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "explain_fold.h"

static const char usage[] =
    "usage: mmaref explain ARCH INSTRUCTION -a LIST -b LIST -c VALUE [--scale-a LIST --scale-b LIST]\n"
    "                      [--vs ARCH2 INSTRUCTION2] [--all-lanes] [--json]\n"
    "  Computes one dot-add as `mmaref dot` does and prints the algorithm's steps with the MMA-Sim paper's\n"
    "  step names: every operand decoded (sign, significand in binary, exponent), Step 0 effects, the\n"
    "  exact products, e_max, every term aligned to F fractional bits with the bits it drops, the exact\n"
    "  sum, the normalization with its rounding decision, then D.  Chained instructions show every pass.\n"
    "  Every summation kind: FDA, FDRDA/GFDRDA, GDFS, SFMA, GPS and M3XU (its 12-bit halves too).\n"
    "  --vs ARCH2 INSTRUCTION2  the same values through a second instruction (each value read in that\n"
    "                           instruction's formats); marks the first step where the two differ\n"
    "  --all-lanes              every lane's lines; without it, lanes whose product is an exact zero and\n"
    "                           that contribute nothing are folded: \"p[5..31]  = 0 (27 lanes)\"\n"
    "  --json                   the trace(s) as JSON: {\"instruction\": ..., \"d\": ..., \"steps\": [...]}\n"
    "  Operands as for `mmaref dot` (see 'mmaref dot --help').\n";

typedef struct {
    mmaref_instr in;
    cli_operands v;
    mmaref_trace_line *line;
    int n;
    uint64_t d;
} traced;

static int run_trace(const char *arch, const char *name, const cli_operand_text *ops, traced *t)
{
    if (cli_lookup(arch, name, &t->in))
        return 2;
    int rc = cli_operand_read("explain", &t->in, ops, &t->v);
    if (rc)
        return rc;
    char msg[512];
    const uint64_t *sa = t->v.ns ? t->v.sa : NULL, *sb = t->v.ns ? t->v.sb : NULL;
    if (mmaref_explain(&t->in, t->v.c, t->v.a, t->v.b, sa, sb, NULL, 0, &t->n, &t->d, msg, sizeof msg))
        return cli_error("explain: %s", msg);
    t->line = calloc((size_t)t->n, sizeof *t->line);
    if (!t->line)
        return cli_error("explain: out of memory");
    if (mmaref_explain(&t->in, t->v.c, t->v.a, t->v.b, sa, sb, t->line, t->n, &t->n, &t->d, msg, sizeof msg))
        return cli_error("explain: %s", msg);
    return 0;
}

static int same_key(const mmaref_trace_line *x, const mmaref_trace_line *y)
{
    return x->pass == y->pass && !strcmp(x->step, y->step) && !strcmp(x->what, y->what);
}

/* Two lines differ in value: their exact values where both have one (the same value read in other
 * formats, or held with another F, is the same; only the wording may differ), else their texts. */
static int values_differ(const mmaref_trace_line *x, const mmaref_trace_line *y)
{
    if (x->value[0] && y->value[0])
        return strcmp(x->value, y->value) != 0;
    return strcmp(x->text, y->text) != 0;
}

/* The first value line of x that y has too (the same pass, step and what: lanes beyond the shorter K
 * have no partner) with another value; -1 when they agree wherever both have a step.  The passes'
 * parameter lines ("pass") are not values: they are printed beside the divergence. */
static int first_divergence(const traced *x, const traced *y, int *partner)
{
    for (int i = 0; i < x->n; i++) {
        if (!strcmp(x->line[i].step, "pass"))
            continue;
        for (int j = 0; j < y->n; j++)
            if (same_key(&x->line[i], &y->line[j])) {
                if (values_differ(&x->line[i], &y->line[j])) {
                    *partner = j;
                    return i;
                }
                break;
            }
    }
    *partner = -1;
    return -1;
}

static void print_text(const traced *t, int mark, int all_lanes)
{
    char sched[256], what[32], text[64];
    mmaref_schedule_name(&t->in, sched, sizeof sched);
    printf("%s %s: %s\n", t->in.arch, t->in.name, sched);
    unsigned char *fold = calloc((size_t)t->n, 1);
    if (fold && !all_lanes)
        explain_fold(t->line, t->n, mark, fold);
    int pass = -2;
    for (int i = 0; i < t->n;) {
        const mmaref_trace_line *l = &t->line[i];
        if (l->pass != pass && l->pass >= 0)
            printf("  pass %d\n", l->pass);
        pass = l->pass;
        if (fold && fold[i] == FOLD_FIRST) {
            i = explain_fold_summary(t->line, t->n, fold, i, what, sizeof what, text, sizeof text);
            printf("   %-9s %-11s %s\n", l->step, what, text);
            continue;
        }
        printf("%s %-9s %-11s %s\n", i == mark ? ">>" : "  ", l->step, l->what, l->text);
        i++;
    }
    free(fold);
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", *s);
        else
            putchar(*s);
    }
    putchar('"');
}

static void print_json(const traced *t, int diverges)
{
    printf("{\"arch\": ");
    json_string(t->in.arch);
    printf(", \"instruction\": ");
    json_string(t->in.name);
    printf(", \"d\": \"0x%0*llx\", \"first_divergence\": %d, \"steps\": [", cli_hex_digits(t->in.d),
           (unsigned long long)t->d, diverges);
    for (int i = 0; i < t->n; i++) {
        printf("%s\n  {\"pass\": %d, \"step\": ", i ? "," : "", t->line[i].pass);
        json_string(t->line[i].step);
        printf(", \"what\": ");
        json_string(t->line[i].what);
        printf(", \"text\": ");
        json_string(t->line[i].text);
        printf(", \"value\": ");
        json_string(t->line[i].value);
        putchar('}');
    }
    printf("]}");
}

int cmd_explain(int argc, char **argv)
{
    const char *pos[2] = {0, 0}, *vs[2] = {0, 0};
    cli_operand_text ops = {0};
    int npos = 0, json = 0, all_lanes = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        int taken = cli_operand_option("explain", &ops, argc, argv, &i);
        if (taken < 0)
            return 2;
        if (taken)
            continue;
        if (!strcmp(o, "--json")) {
            json = 1;
        } else if (!strcmp(o, "--all-lanes")) {
            all_lanes = 1;
        } else if (!strcmp(o, "--vs")) {
            if (i + 2 >= argc)
                return cli_error("explain: --vs needs ARCH2 and INSTRUCTION2");
            if (vs[0])
                return cli_error("explain: --vs given twice");
            vs[0] = argv[++i], vs[1] = argv[++i];
        } else if (o[0] == '-' && o[1] && !(o[1] >= '0' && o[1] <= '9') && o[1] != '.') {
            return cli_error("explain: unknown option '%s' (see 'mmaref explain --help')", o);
        } else if (npos < 2) {
            pos[npos++] = o;
        } else {
            return cli_error("explain: unexpected argument '%s'", o);
        }
    }
    if (npos < 2)
        return cli_error("explain: needs ARCH and INSTRUCTION (see 'mmaref explain --help')");
    traced t[2] = {0};
    int rc = run_trace(pos[0], pos[1], &ops, &t[0]);
    if (!rc && vs[0])
        rc = run_trace(vs[0], vs[1], &ops, &t[1]);
    if (!rc) {
        int div1 = -1, div0 = vs[0] ? first_divergence(&t[0], &t[1], &div1) : -1;
        if (json) {
            if (vs[0])
                putchar('[');
            print_json(&t[0], div0);
            if (vs[0])
                printf(",\n"), print_json(&t[1], div1), putchar(']');
            putchar('\n');
        } else {
            print_text(&t[0], div0, all_lanes);
            if (vs[0]) {
                printf("\n");
                print_text(&t[1], div1, all_lanes);
                printf("\n");
                for (int i = 0; i < 2; i++) /* the parameters of every pass */
                    for (int j = 0; j < t[i].n; j++)
                        if (!strcmp(t[i].line[j].step, "pass"))
                            printf("%-14s pass %d: %s\n", t[i].in.arch, t[i].line[j].pass, t[i].line[j].text);
                if (div0 < 0)
                    printf("the two traces agree wherever both have a step; D: 0x%llx and 0x%llx\n",
                           (unsigned long long)t[0].d, (unsigned long long)t[1].d);
                else
                    printf("first divergence (>>): pass %d, %s, %s\n  %-13s %s\n  %-13s %s\n", t[0].line[div0].pass,
                           t[0].line[div0].step, t[0].line[div0].what, t[0].in.arch, t[0].line[div0].text,
                           t[1].in.arch, t[1].line[div1].text);
            }
        }
    }
    free(t[0].line);
    free(t[1].line);
    return rc;
}
