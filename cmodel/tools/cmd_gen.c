/* mmaref gen ARCH INSTR [--n N] [--seed S] [--kind KIND] [--first I] [--k K] [--with-d] [--coverage]: the
 * library's stimulus generator (mmaref_gen_vector) as TestFloat's testfloat_gen, writing the lines
 * `mmaref batch` reads; --coverage reports the coverage bins of the lines written (mmaref_cov_print). */
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: mmaref gen ARCH INSTRUCTION [--n N] [--seed S] [--kind KIND] [--first I] [--k K] [--with-d]\n"
    "                  [--coverage]\n"
    "  Writes N dot-adds, one per line, as `mmaref batch` reads them: C A0 .. A(K-1) B0 .. B(K-1)\n"
    "  [SA.. SB..] in hex, each field zero-padded to its format's width.  Line i is vector I + i of the\n"
    "  (instruction, kind, seed) stream, the same on every host, so any line can be regenerated alone.\n"
    "  --kind KIND  raw | cluster | cancel | special | extreme | directed | random | mixed; random draws\n"
    "               one of the first five per vector (25% raw, 40% cluster, 15% cancel, 15% special,\n"
    "               5% extreme); mixed (the default) is every directed vector, then random ones\n"
    "  --n N        how many lines (default 1000; with --kind directed, as many as there are directed\n"
    "               vectors; beyond them the directed stream starts again)\n"
    "  --seed S     seed of the random kinds (default 1)\n"
    "  --first I    start at vector I of the stream (default 0)\n"
    "  --k K        the instruction's one pass run with K lanes instead of its own (as make verify's\n"
    "               configurations with a K of their own: the naive FP32 unit's K = 8): K A and K B a\n"
    "               line, D of the K products; an error on a multi-pass instruction unless K is its own\n"
    "  --with-d     append the model's D to each line, the expected result `mmaref batch --check` reads\n"
    "  --coverage   after the lines, the coverage bins they hit on stderr (docs/verify-your-design.md);\n"
    "               exit status 3 when a bin the instruction can reach is left unhit\n"
    "  A failed write (a full disk, a closed pipe) stops it at once with exit 2.\n"
    "  e.g. mmaref gen hopper mma.m16n8k16.f32.f16.f16.f32 --n 100 | mmaref batch hopper mma.m16n8k16.f32.f16.f16.f32\n";

typedef struct {
    const char *arch, *name;
    uint64_t n, seed, first, k;
    int have_n, have_k, with_d, coverage;
    mmaref_gen_kind kind;
} gen_opts;

static int parse_number(const char *opt, const char *text, uint64_t *v)
{
    if (cli_parse_u64(text, v))
        return cli_error("gen: %s '%s' is not a non-negative integer", opt, text);
    return 0;
}

static int kind_error(const char *text)
{
    char kinds[256] = "";
    for (int k = 0; k < MMAREF_GEN_KIND_COUNT; k++)
        snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%s%s", k ? ", " : "",
                 mmaref_gen_kind_name((mmaref_gen_kind)k));
    return cli_error("gen: --kind '%s' is not one of %s", text, kinds);
}

static int parse_args(int argc, char **argv, gen_opts *o)
{
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--with-d")) {
            o->with_d = 1;
        } else if (!strcmp(a, "--coverage")) {
            o->coverage = 1;
        } else if (!strcmp(a, "--n") || !strcmp(a, "--seed") || !strcmp(a, "--first") || !strcmp(a, "--kind") ||
                   !strcmp(a, "--k")) {
            if (!v)
                return cli_error("gen: %s needs a value (see 'mmaref gen --help')", a);
            i++;
            if (!strcmp(a, "--kind")) {
                if ((o->kind = mmaref_gen_kind_by_name(v)) == MMAREF_GEN_KIND_COUNT)
                    return kind_error(v);
            } else if (parse_number(a, v, !strcmp(a, "--n")      ? &o->n
                                          : !strcmp(a, "--seed") ? &o->seed
                                          : !strcmp(a, "--k")    ? &o->k
                                                                 : &o->first)) {
                return 2;
            }
            o->have_n |= !strcmp(a, "--n");
            o->have_k |= !strcmp(a, "--k");
        } else if (a[0] == '-' && a[1]) {
            return cli_error("gen: unknown option '%s' (see 'mmaref gen --help')", a);
        } else if (npos == 0) {
            o->arch = a, npos++;
        } else if (npos == 1) {
            o->name = a, npos++;
        } else {
            return cli_error("gen: unexpected argument '%s'", a);
        }
    }
    if (npos < 2)
        return cli_error("gen: needs ARCH and INSTRUCTION (see 'mmaref gen --help')");
    return 0;
}

/* One line: the fields, zero-padded hex, space-separated. */
static char *put_fields(char *p, const uint64_t *v, int n, int digits)
{
    for (int i = 0; i < n; i++) {
        *p++ = ' ';
        p = cli_put_hex(p, v[i], digits);
    }
    return p;
}

static int write_lines(const mmaref_instr *in, const gen_opts *o, uint64_t *hit)
{
    int K = in->k, ns = mmaref_scale_count(in);
    int dc = cli_hex_digits(in->c), da = cli_hex_digits(in->a), db = cli_hex_digits(in->b);
    int ds = ns ? cli_hex_digits(in->scale) : 0, dd = cli_hex_digits(in->d);
    static char buf[1 << 16];
    size_t len = 0;
    uint64_t c, a[MMAREF_MAX_K], b[MMAREF_MAX_K], sa[MMAREF_MAX_K], sb[MMAREF_MAX_K], d;
    uint64_t directed = o->kind == MMAREF_GEN_MIXED ? mmaref_gen_directed_count(in) : 0;
    char msg[512];
    for (uint64_t i = 0; i < o->n; i++) {
        uint64_t index = o->first + i;
        uint64_t at = index; /* mixed: the directed vectors counted once */
        mmaref_gen_kind kind = o->kind != MMAREF_GEN_MIXED ? o->kind : mmaref_gen_mixed_at(directed, index, &at);
        if (mmaref_gen_vector(in, kind, o->seed, at, &c, a, b, sa, sb) < 0)
            return cli_error("gen: %s %s: no vector %llu", in->arch, in->name, (unsigned long long)(o->first + i));
        if ((o->with_d || hit) && mmaref_dot(in, c, a, b, ns ? sa : NULL, ns ? sb : NULL, &d, msg, sizeof msg))
            return cli_error("gen: %s", msg);
        if (hit)
            mmaref_cov_classify(in, c, a, b, ns ? sa : NULL, ns ? sb : NULL, d, hit);
        if (len > sizeof buf - 20 * (2 * MMAREF_MAX_K + 2 * MMAREF_MAX_K + 2)) {
            if (fwrite(buf, 1, len, stdout) != len)
                return cli_stdout_error("gen"); /* the first failed write ends the run */
            len = 0;
        }
        char *p = cli_put_hex(buf + len, c, dc);
        p = put_fields(p, a, K, da);
        p = put_fields(p, b, K, db);
        p = put_fields(p, sa, ns, ds);
        p = put_fields(p, sb, ns, ds);
        if (o->with_d)
            p = put_fields(p, &d, 1, dd);
        *p++ = '\n';
        len = (size_t)(p - buf);
    }
    if (fwrite(buf, 1, len, stdout) != len || fflush(stdout) || ferror(stdout))
        return cli_stdout_error("gen");
    return 0;
}

int cmd_gen(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        }
    gen_opts o = {.n = 1000, .seed = 1, .kind = MMAREF_GEN_MIXED};
    mmaref_instr in;
    if (parse_args(argc, argv, &o) || cli_lookup(o.arch, o.name, &in))
        return 2;
    if (o.have_k) {
        char msg[512];
        mmaref_instr own = in;
        if (o.k < 1 || o.k > MMAREF_MAX_K)
            return cli_error("gen: --k %llu is outside 1..%d", (unsigned long long)o.k, MMAREF_MAX_K);
        if (mmaref_with_k(&own, (int)o.k, &in, msg, sizeof msg) != MMAREF_OK)
            return cli_error("gen: --k %llu: %s", (unsigned long long)o.k, msg);
    }
    if (in.k > MMAREF_MAX_K)
        return cli_error("gen: %s has K = %d, more than %d", in.name, in.k, MMAREF_MAX_K);
    if (o.kind == MMAREF_GEN_DIRECTED && !o.have_n)
        o.n = mmaref_gen_directed_count(&in);
    static uint64_t hit[MMAREF_COV_MAX_BINS];
    int rc = write_lines(&in, &o, o.coverage ? hit : NULL);
    if (rc || !o.coverage)
        return rc;
    fprintf(stderr, "coverage of %s %s: %llu vectors (docs/verify-your-design.md, coverage)\n", in.arch, in.name,
            (unsigned long long)o.n);
    return mmaref_cov_print(stderr, &in, hit, NULL) > 0 ? 3 : 0;
}
