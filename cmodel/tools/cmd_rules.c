/* mmaref rules [--json] | rules ARCH INSTR [--catch]: the rule inventory (mmaref.h, "rules"), the rules
 * an instruction has, and, with --catch, how many vectors of a batch stream on stdin catch each one (a
 * unit breaking the rule gives another D on them). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: mmaref rules [--json]\n"
    "       mmaref rules ARCH INSTRUCTION [--json | --catch [--nan-any] | --break RULE]\n"
    "  The rule inventory: every arithmetic rule the model encodes, the model's step, what a unit that\n"
    "  breaks it does (the planted bug), and how silicon decided it on each architecture: measured by this\n"
    "  project's GPU runs, from a paper's experiments on the architecture's GPU, or extrapolated\n"
    "  (docs/rules.md).\n"
    "  With an instruction: the rules it has, and how silicon decided each.\n"
    "  --catch reads `mmaref batch` lines on stdin (C A.. B.. [SA.. SB..], a D after them is ignored)\n"
    "  and prints, per rule, the vectors that catch it: those on which a unit with the rule's bug gives\n"
    "  another D (with --nan-any, a NaN against a NaN is no difference, as batch --check --nan-any).\n"
    "  --break RULE reads the same lines and writes the D of a unit that breaks RULE, one per line as\n"
    "  `mmaref batch` does: a planted bug, or a device for `mmaref probe ... -- mmaref rules ARCH\n"
    "  INSTRUCTION --break RULE`.\n"
    "  e.g. mmaref gen cdna3 v_mfma_f32_32x32x16_fp8_bf8 --n 100000 | mmaref rules cdna3 v_mfma_f32_32x32x16_fp8_bf8 --catch\n";

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') putchar('\\');
        putchar(*s);
    }
    putchar('"');
}

/* One piece of an architecture's evidence for a rule: the instructions one evidence entry covers. */
typedef struct {
    mmaref_rule_evidence ev;
    const char *formats[16]; /* A's formats of those instructions, each once */
    int nformats, instructions;
} evidence_group;

/* The evidence groups of rule i over the instructions of arch (none: the rule does not apply there). */
static int evidence_groups(int i, const mmaref_instr *list, size_t n, evidence_group *g, int cap)
{
    int ng = 0;
    for (size_t k = 0; k < n; k++) {
        mmaref_rule_evidence ev;
        if (mmaref_rule_silicon_of(&list[k], i, &ev) != MMAREF_OK)
            continue;
        int j = 0;
        while (j < ng && !(g[j].ev.row == ev.row && g[j].ev.kind == ev.kind))
            j++;
        if (j == ng) {
            if (ng == cap)
                continue;
            memset(&g[ng], 0, sizeof g[ng]);
            g[ng++].ev = ev;
        }
        const char *f = mmaref_format_name(list[k].a);
        int seen = 0;
        for (int x = 0; x < g[j].nformats; x++)
            seen |= !strcmp(g[j].formats[x], f);
        if (!seen && g[j].nformats < 16)
            g[j].formats[g[j].nformats++] = f;
        g[j].instructions++;
    }
    return ng;
}

static void print_evidence(const evidence_group *g, int json)
{
    const char *kind = mmaref_silicon_name(g->ev.kind);
    if (json) {
        printf("{\"kind\": \"%s\", \"source\": ", kind);
        json_str(g->ev.source);
        printf(", \"gpu\": ");
        if (g->ev.gpu) json_str(g->ev.gpu); else printf("null");
        printf(", \"instructions\": %d, \"a\": [", g->instructions);
        for (int x = 0; x < g->nformats; x++)
            printf("%s\"%s\"", x ? ", " : "", g->formats[x]);
        printf("]}");
        return;
    }
    printf("%s (", kind);
    for (int x = 0; x < g->nformats; x++)
        printf("%s%s", x ? ", " : "", g->formats[x]);
    printf("): %s%s%s", g->ev.source, g->ev.gpu ? ", on its " : "", g->ev.gpu ? g->ev.gpu : "");
}

static int list(int json)
{
    int n = mmaref_rule_count();
    const char *const *arch = mmaref_arch_names();
    size_t cap = mmaref_list(NULL, NULL, 0);
    mmaref_instr *all = malloc(cap * sizeof *all);
    if (!all)
        return cli_error("rules: out of memory");
    if (json) printf("[\n");
    for (int i = 1; i <= n; i++) {
        const mmaref_rule *r = mmaref_rule_at(i);
        if (!json) {
            printf("%-22s %s\n  %-20s %s\n  %-20s %s\n  %s\n", r->name, r->step, "the model:", r->rule,
                   "a unit breaking it:", r->bug, "known from:");
        } else {
            printf("  {\"name\": "); json_str(r->name);
            printf(", \"step\": "); json_str(r->step);
            printf(", \"rule\": "); json_str(r->rule);
            printf(", \"bug\": "); json_str(r->bug);
            printf(", \"silicon\": {");
        }
        int first = 1;
        for (int a = 0; arch[a]; a++) {
            size_t m = mmaref_list(arch[a], all, cap);
            evidence_group g[8];
            int ng = evidence_groups(i, all, m, g, 8);
            if (!ng)
                continue;
            if (json) {
                printf("%s\"%s\": [", first ? "" : ", ", arch[a]);
                for (int j = 0; j < ng; j++) {
                    printf("%s", j ? ", " : "");
                    print_evidence(&g[j], 1);
                }
                printf("]");
            } else {
                for (int j = 0; j < ng; j++) {
                    printf("    %-14s ", j ? "" : arch[a]);
                    print_evidence(&g[j], 0);
                    printf("\n");
                }
            }
            first = 0;
        }
        if (json) printf("}}%s\n", i < n ? "," : "");
    }
    if (json) printf("]\n");
    free(all);
    return 0; /* a failed write: main's flush reports it */
}

/* One batch line into c, a, b, sa, sb: 1 + 2K + 2S fields (and an optional D).  Returns 0, 1 for a blank
 * or comment line, or 2 after an error naming the line. */
static int parse_line(const mmaref_instr *in, char *line, unsigned long long no, uint64_t *c, uint64_t *a,
                      uint64_t *b, uint64_t *sa, uint64_t *sb)
{
    uint64_t f[1 + 4 * MMAREF_MAX_K + 4 * MMAREF_MAX_SCALES + 1];
    int nf = 0, ns = mmaref_scale_count(in), want = 1 + 2 * in->k + 2 * ns;
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    for (char *tok = strtok(line, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        char *end;
        if (nf >= want + 1)
            return cli_error("rules: line %llu: more than %d fields (C, %d A, %d B%s, D)", no, want + 1, in->k, in->k,
                             ns ? ", the scales" : "");
        f[nf++] = strtoull(tok, &end, 16);
        if (*end || end == tok)
            return cli_error("rules: line %llu: field %d '%s' is not hex", no, nf, tok);
    }
    if (nf == 0)
        return 1;
    if (nf < want)
        return cli_error("rules: line %llu: %d fields, %s %s needs %d (C, %d A, %d B%s)", no, nf, in->arch, in->name,
                         want, in->k, in->k, ns ? ", the scales" : "");
    *c = f[0];
    memcpy(a, f + 1, sizeof *a * (size_t)in->k);
    memcpy(b, f + 1 + in->k, sizeof *b * (size_t)in->k);
    memcpy(sa, f + 1 + 2 * in->k, sizeof *sa * (size_t)ns);
    memcpy(sb, f + 1 + 2 * in->k + ns, sizeof *sb * (size_t)ns);
    return 0;
}

/* --catch: per rule, the vectors that catch it; --break R: D of a unit breaking rule R, one per line
 * (what `mmaref batch` writes: a device for `mmaref probe -- ...` or a planted bug for a testbench). */
static int catch_counts(const mmaref_instr *in, int broken, int nan_any)
{
    int n = mmaref_rule_count(), ns = mmaref_scale_count(in);
    unsigned long long caught[64] = {0}, vectors = 0, no = 0;
    static char line[1 << 16];
    uint64_t c = 0, a[MMAREF_MAX_K], b[MMAREF_MAX_K], sa[MMAREF_MAX_SCALES], sb[MMAREF_MAX_SCALES], d, x;
    char msg[512];
    while (fgets(line, sizeof line, stdin)) {
        no++;
        if (!strchr(line, '\n') && !feof(stdin))
            return cli_error("rules: line %llu: longer than %zu bytes", no, sizeof line - 1);
        int rc = parse_line(in, line, no, &c, a, b, sa, sb);
        if (rc == 1) continue;
        if (rc) return rc;
        if (mmaref_dot(in, c, a, b, ns ? sa : NULL, ns ? sb : NULL, &d, msg, sizeof msg))
            return cli_error("rules: line %llu: %s", no, msg);
        vectors++;
        if (broken) {
            mmaref_rule_broken_dot(in, broken, c, a, b, ns ? sa : NULL, ns ? sb : NULL, &x, msg, sizeof msg);
            printf("0x%0*llx\n", cli_hex_digits(in->d), (unsigned long long)x);
            continue;
        }
        for (int i = 1; i <= n; i++)
            if (mmaref_rule_applies(in, i) &&
                !mmaref_rule_broken_dot(in, i, c, a, b, ns ? sa : NULL, ns ? sb : NULL, &x, msg, sizeof msg) &&
                !cli_same_d(in->d, x, d, nan_any))
                caught[i]++;
    }
    if (ferror(stdin))
        return cli_error("rules: reading stdin failed");
    if (broken)
        return 0;
    printf("# %s %s: %llu vectors; per rule, the vectors on which a unit breaking it gives another D\n", in->arch,
           in->name, vectors);
    for (int i = 1; i <= n; i++)
        if (mmaref_rule_applies(in, i))
            printf("%-22s %10llu\n", mmaref_rule_at(i)->name, caught[i]);
    return 0; /* a failed write: main's flush reports it */
}

int cmd_rules(int argc, char **argv)
{
    const char *pos[2] = {NULL, NULL};
    int npos = 0, json = 0, catch = 0, broken = 0, nan_any = 0;
    const char *broken_name = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--catch")) {
            catch = 1;
        } else if (!strcmp(argv[i], "--nan-any")) {
            nan_any = 1;
        } else if (!strcmp(argv[i], "--break")) {
            if (i + 1 == argc)
                return cli_error("rules: --break needs a rule's name (mmaref rules lists them)");
            broken_name = argv[++i];
            if ((broken = mmaref_rule_by_name(broken_name)) < 0)
                return cli_error("rules: --break: no rule '%s' (mmaref rules lists them)", broken_name);
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_error("rules: unknown option '%s' (mmaref rules --help)", argv[i]);
        } else if (npos < 2) {
            pos[npos++] = argv[i];
        } else {
            return cli_error("rules: unexpected argument '%s' (mmaref rules --help)", argv[i]);
        }
    }
    if (npos == 0) {
        if (catch || broken_name)
            return cli_error("rules: %s needs ARCH INSTRUCTION", catch ? "--catch" : "--break");
        return list(json);
    }
    if (npos == 1)
        return cli_error("rules: ARCH '%s' needs an INSTRUCTION (mmaref rules --help)", pos[0]);
    if (json && (catch || broken_name))
        return cli_error("rules: --json lists rules; it does not go with %s", catch ? "--catch" : "--break");
    mmaref_instr in;
    if (cli_lookup(pos[0], pos[1], &in))
        return 2;
    if (nan_any && !catch)
        return cli_error("rules: --nan-any goes with --catch");
    if (catch && broken_name)
        return cli_error("rules: --catch and --break: one at a time");
    if (broken_name && !mmaref_rule_applies(&in, broken))
        return cli_error("rules: --break: %s %s has no rule %s (mmaref rules %s %s lists its rules)", in.arch, in.name,
                         broken_name, in.arch, in.name);
    if (catch || broken_name)
        return catch_counts(&in, broken, nan_any);
    if (json) printf("[\n");
    for (int i = 1, first = 1; i <= mmaref_rule_count(); i++) {
        mmaref_rule_evidence ev;
        if (mmaref_rule_silicon_of(&in, i, &ev) != MMAREF_OK)
            continue;
        if (json) {
            evidence_group g = {.ev = ev, .formats = {mmaref_format_name(in.a)}, .nformats = 1, .instructions = 1};
            printf("%s  {\"name\": ", first ? "" : ",\n");
            json_str(mmaref_rule_at(i)->name);
            printf(", \"rule\": ");
            json_str(mmaref_rule_at(i)->rule);
            printf(", \"silicon\": ");
            print_evidence(&g, 1);
            printf("}");
        } else {
            printf("%-22s %s\n  %-20s %s: %s%s%s\n", mmaref_rule_at(i)->name, mmaref_rule_at(i)->rule, "silicon:",
                   mmaref_silicon_name(ev.kind), ev.source, ev.gpu ? ", on its " : "", ev.gpu ? ev.gpu : "");
        }
        first = 0;
    }
    if (json) printf("\n]\n");
    return 0; /* a failed write: main's flush reports it */
}
