/* mmaref probe: what arithmetic does this unit implement?  Runs the probe's queries through a device
 * (a command over the batch-line pipe, a results file, or the model's own instruction) and reports
 * the schedule it implements in the instruction table's terms (probe.h describes the parts). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "probe.h"

static const char usage[] =
    "usage: mmaref probe ARCH INSTRUCTION [options]\n"
    "       mmaref probe --formats A,B,C,D --k K [--scales FMT:BLOCK] [options] -- COMMAND [ARGS...]\n"
    "       mmaref probe --formats A,B,C,D --k K [--scales FMT:BLOCK] [options] --queries FILE\n"
    "       mmaref probe --formats A,B,C,D --k K [--scales FMT:BLOCK] [options] --results FILE\n"
    "  Finds the arithmetic of a device: asks it a fixed set of dot-adds (the MMA-Sim paper's experiments,\n"
    "  directed corner cases, random vectors, then the confirmation vectors) and reports, each with the\n"
    "  input that showed it: products exact or rounded, the alignment width F, the rounding of the aligned\n"
    "  products and of C, the normalization rounding, fused / sequential / grouped / chained passes,\n"
    "  flushing, a zero term's exponent in e_max, NaN, infinity, overflow and zero results; then the\n"
    "  schedule in the table's terms and the\n"
    "  table instructions it matches (exit 0), or the nearest one and why it differs (exit 1); a device that\n"
    "  agrees with every battery query as one schedule and fails confirmation vectors is no match either:\n"
    "  the schedule, its table instructions, how many confirmation vectors fail and the first (exit 1).\n"
    "  ARCH INSTRUCTION   probe the model's own instruction (the device is the model)\n"
    "  -- COMMAND         the device: reads `mmaref batch` lines on stdin (C A0..A(K-1) B0..B(K-1)\n"
    "                     [SA.. SB..] in hex), writes one D per line in hex; run once\n"
    "  --queries FILE     offline, step 1: write the query lines to FILE and stop\n"
    "  --results FILE     offline, step 2: read the D lines a GPU computed for FILE's queries (same options)\n"
    "  --formats A,B,C,D  operand formats (f16, bf16, tf32, e4m3, ... as `mmaref list` names them)\n"
    "  --k K              products per dot-add, 1..64\n"
    "  --scales FMT:BLOCK block scales: their format and the elements of K per scale (ue8m0:32)\n"
    "  --confirm N        confirmation vectors (default 100000)\n"
    "  --seed S           seed of the confirmation stream (default 1)\n"
    "  --nan-any          any NaN answer equals any NaN (for a device whose NaN payload is unmodelled)\n"
    "  --timeout S        with -- COMMAND: the seconds the device may take for each answer line (its start\n"
    "                     included) and to exit after the last (default 60, at most 86400); then it and\n"
    "                     every process it started are stopped (SIGTERM, SIGKILL 1 s later), exit 2\n"
    "  Exit status: 0 a table instruction matches, 1 none does (or only on the battery), 2 bad input or a\n"
    "  failing device.\n";

typedef struct {
    const char *pos[2];
    int npos, nan_any;
    const char *formats, *scales, *queries, *results;
    long k, confirm, timeout;
    uint64_t seed;
    char **command;
} probe_opts;

static int parse_args(int argc, char **argv, probe_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            exit(cli_stdout_finish("probe", 0));
        } else if (!strcmp(a, "--")) {
            if (i + 1 >= argc)
                return cli_error("probe: '--' needs a COMMAND after it");
            o->command = argv + i + 1;
            return 0;
        } else if (!strcmp(a, "--nan-any")) {
            o->nan_any = 1;
        } else if (!strcmp(a, "--formats") || !strcmp(a, "--scales") || !strcmp(a, "--queries") ||
                   !strcmp(a, "--results") || !strcmp(a, "--k") || !strcmp(a, "--confirm") || !strcmp(a, "--seed") ||
                   !strcmp(a, "--timeout")) {
            if (!v)
                return cli_error("probe: %s needs a value (see 'mmaref probe --help')", a);
            i++;
            if (!strcmp(a, "--formats")) o->formats = v;
            else if (!strcmp(a, "--scales")) o->scales = v;
            else if (!strcmp(a, "--queries") || !strcmp(a, "--results")) {
                if (cli_check_path("probe", a, v))
                    return 2;
                *(a[2] == 'q' ? &o->queries : &o->results) = v;
            }
            else if (!strcmp(a, "--k")) {
                if (cli_parse_count(v, MMAREF_MAX_K, &o->k) || o->k < 1)
                    return cli_error("probe: --k '%s' is not in 1..%d", v, MMAREF_MAX_K);
            } else if (!strcmp(a, "--confirm")) {
                if (cli_parse_count(v, 100000000L, &o->confirm))
                    return cli_error("probe: --confirm '%s' is not a count", v);
            } else if (!strcmp(a, "--timeout")) {
                if (cli_parse_count(v, 86400, &o->timeout) || o->timeout < 1)
                    return cli_error("probe: --timeout '%s' is not a decimal count of seconds from 1 to 86400", v);
            } else if (cli_parse_u64(v, &o->seed))
                return cli_error("probe: --seed '%s' is not a non-negative integer", v);
        } else if (a[0] == '-') {
            return cli_error("probe: unknown option '%s' (see 'mmaref probe --help')", a);
        } else if (o->npos < 2) {
            o->pos[o->npos++] = a;
        } else {
            return cli_error("probe: unexpected argument '%s'", a);
        }
    }
    return 0;
}

static int parse_format(const char *text, size_t len, const char *what, mmaref_format *f)
{
    char name[32];
    if (len >= sizeof name)
        len = sizeof name - 1;
    memcpy(name, text, len);
    name[len] = 0;
    if ((*f = mmaref_format_by_name(name)) == MMAREF_FORMAT_COUNT)
        return cli_error("probe: %s: unknown format '%s'", what, name);
    return 0;
}

/* The device's shape from --formats, --k and --scales, with a schedule the generator can run. */
/* The device's shape (formats, K, scales only: the queries never depend on a schedule, so probing the
 * model's instruction asks exactly what probing any device of that shape asks). */
static void blank_shape(mmaref_instr *s)
{
    memset(s, 0, sizeof *s);
    s->arch = "device";
    snprintf(s->name, sizeof s->name, "device");
    s->m = s->n = s->blocks = 1;
}

static int shape_schedule(mmaref_instr *s)
{
    if (probe_shape_schedule(s))
        return cli_error("probe: the model has no schedule for %s,%s,%s,%s with K = %d%s", mmaref_format_name(s->a),
                         mmaref_format_name(s->b), mmaref_format_name(s->c), mmaref_format_name(s->d), s->k,
                         s->block_size ? " and these scales" : "");
    return 0;
}

static int shape_from_options(const probe_opts *o, mmaref_instr *s)
{
    blank_shape(s);
    if (!o->formats || !o->k)
        return cli_error("probe: needs ARCH INSTRUCTION, or --formats A,B,C,D and --k K (see 'mmaref probe --help')");
    mmaref_format *fmts[4] = {&s->a, &s->b, &s->c, &s->d};
    const char *p = o->formats;
    for (int i = 0; i < 4; i++) {
        size_t len = strcspn(p, ",");
        if (!len || (i < 3 && p[len] != ',') || (i == 3 && p[len]))
            return cli_error("probe: --formats '%s' is not four formats A,B,C,D", o->formats);
        if (parse_format(p, len, "--formats", fmts[i]))
            return 2;
        p += len + (i < 3);
    }
    s->k = (int)o->k;
    if (o->scales) {
        const char *colon = strchr(o->scales, ':');
        long block;
        if (colon && parse_format(o->scales, (size_t)(colon - o->scales), "--scales", &s->scale))
            return 2;
        if (!colon || cli_parse_count(colon + 1, MMAREF_MAX_K, &block) || block < 1 || s->k % block ||
            s->k / block > MMAREF_MAX_SCALES)
            return cli_error("probe: --scales '%s' is not FORMAT:BLOCK with BLOCK dividing K = %d into 1..%d blocks",
                             o->scales, s->k, MMAREF_MAX_SCALES);
        s->block_size = (int)block;
    }
    return shape_schedule(s);
}

int cmd_probe(int argc, char **argv)
{
    probe_opts o = {.confirm = 100000, .seed = 1, .timeout = PROBE_TIMEOUT_S};
    if (parse_args(argc, argv, &o))
        return 2;
    int model = o.npos == 2;
    if (o.npos == 1)
        return cli_error("probe: needs ARCH and INSTRUCTION, or --formats and --k (see 'mmaref probe --help')");
    if (model && (o.command || o.queries || o.results || o.formats))
        return cli_error("probe: ARCH INSTRUCTION probes the model; it takes no device, --formats or files");
    if (!model && !!o.command + !!o.queries + !!o.results != 1)
        return cli_error("probe: give exactly one device: '-- COMMAND', --queries FILE or --results FILE");
    mmaref_instr device;
    probe_queries q = {0};
    if (model) {
        if (cli_lookup(o.pos[0], o.pos[1], &device))
            return 2;
        blank_shape(&q.shape);
        q.shape.k = device.k, q.shape.a = device.a, q.shape.b = device.b, q.shape.c = device.c, q.shape.d = device.d;
        q.shape.scale = device.scale, q.shape.block_size = device.block_size;
        if (shape_schedule(&q.shape))
            return 2;
    } else if (shape_from_options(&o, &q.shape)) {
        return 2;
    }
    q.confirm = (size_t)o.confirm;
    q.seed = o.seed;
    probe_build(&q);
    if (o.queries) {
        int rc = probe_write_queries(&q, o.queries);
        if (!rc)
            printf("probe: wrote %zu query lines to %s; run them on the device, then: mmaref probe ... --results D_FILE\n",
                   probe_total(&q), o.queries);
        probe_free(&q);
        return rc;
    }
    uint64_t *answers = malloc(probe_total(&q) * sizeof *answers);
    if (!answers)
        return cli_error("probe: out of memory");
    int rc = 0;
    if (model) {
        uint64_t row[PROBE_ROW_MAX];
        for (size_t i = 0; i < probe_total(&q) && !rc; i++) {
            probe_row(&q, i, row);
            if (probe_dot(&device, &q, row, &answers[i]))
                rc = cli_error("probe: the model refused query %zu", i);
        }
        printf("probe: device = the model's %s %s\n", device.arch, device.name);
    } else if (o.command) {
        rc = probe_device_run(&q, o.command, (int)o.timeout, answers);
        if (!rc) {
            fputs("probe: device = '", stdout);
            cli_put_escaped(stdout, o.command[0]); /* a name with control characters stays one line */
            fputs("'\n", stdout);
        }
    } else {
        rc = probe_read_results(&q, o.results, answers);
        if (!rc)
            printf("probe: device = the results in %s\n", o.results);
    }
    if (!rc) {
        printf("probe: formats %s,%s,%s,%s, K = %d", mmaref_format_name(q.shape.a), mmaref_format_name(q.shape.b),
               mmaref_format_name(q.shape.c), mmaref_format_name(q.shape.d), q.shape.k);
        if (q.shape.block_size)
            printf(", scales %s per %d", mmaref_format_name(q.shape.scale), q.shape.block_size);
        printf("\n");
        probe_search_result r = {0};
        probe_search(&q, answers, o.nan_any, &r);
        rc = probe_report(stdout, &q, answers, &r, o.nan_any);
        probe_search_free(&r);
    }
    free(answers);
    probe_free(&q);
    return rc;
}
