/* mmaref rules [--json] | rules ARCH INSTR [--catch]: the rule inventory (mmaref.h, "rules"), the rules
 * an instruction has, and, with --catch, how many vectors of a batch stream on stdin catch each one (a
 * unit breaking the rule gives another D on them). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: mmaref rules [--json]\n"
    "       mmaref rules ARCH INSTRUCTION [--catch]\n"
    "  The rule inventory: every arithmetic rule the model encodes, the model's step, what a unit that\n"
    "  breaks it does (the planted bug), and how each architecture's rule is known (docs/rules.md).\n"
    "  With an instruction: the rules it has.  --catch reads `mmaref batch` lines on stdin (C A.. B..\n"
    "  [SA.. SB..], a D after them is ignored) and prints, per rule, the vectors that catch it: those on\n"
    "  which a unit with the rule's bug gives another D.\n"
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

static int list(int json)
{
    int n = mmaref_rule_count();
    if (json) printf("[\n");
    for (int i = 1; i <= n; i++) {
        const mmaref_rule *r = mmaref_rule_at(i);
        if (!json) {
            printf("%-22s %s\n  %-20s %s\n  %-20s %s\n  %-20s %s\n", r->name, r->step, "the model:", r->rule,
                   "a unit breaking it:", r->bug, "known from:", r->silicon);
            continue;
        }
        printf("  {\"name\": "); json_str(r->name);
        printf(", \"step\": "); json_str(r->step);
        printf(", \"rule\": "); json_str(r->rule);
        printf(", \"bug\": "); json_str(r->bug);
        printf(", \"silicon\": "); json_str(r->silicon);
        printf("}%s\n", i < n ? "," : "");
    }
    if (json) printf("]\n");
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

static int catch_counts(const mmaref_instr *in)
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
        for (int i = 1; i <= n; i++)
            if (mmaref_rule_applies(in, i) &&
                !mmaref_rule_broken_dot(in, i, c, a, b, ns ? sa : NULL, ns ? sb : NULL, &x, msg, sizeof msg) && x != d)
                caught[i]++;
    }
    if (ferror(stdin))
        return cli_error("rules: reading stdin failed");
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
    int npos = 0, json = 0, catch = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--catch")) {
            catch = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_error("rules: unknown option '%s' (mmaref rules --help)", argv[i]);
        } else if (npos < 2) {
            pos[npos++] = argv[i];
        } else {
            return cli_error("rules: unexpected argument '%s' (mmaref rules --help)", argv[i]);
        }
    }
    if (npos == 0) {
        if (catch)
            return cli_error("rules: --catch needs ARCH INSTRUCTION");
        return list(json);
    }
    if (npos == 1)
        return cli_error("rules: ARCH '%s' needs an INSTRUCTION (mmaref rules --help)", pos[0]);
    if (json)
        return cli_error("rules: --json lists the inventory; it takes no instruction");
    mmaref_instr in;
    if (cli_lookup(pos[0], pos[1], &in))
        return 2;
    if (catch)
        return catch_counts(&in);
    for (int i = 1; i <= mmaref_rule_count(); i++)
        if (mmaref_rule_applies(&in, i))
            printf("%-22s %s\n", mmaref_rule_at(i)->name, mmaref_rule_at(i)->rule);
    return 0; /* a failed write: main's flush reports it */
}
