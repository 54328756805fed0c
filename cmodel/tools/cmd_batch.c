/* mmaref batch ARCH INSTR [--check] [--nan-any] [--coverage] [--threads N]: the TestFloat-style pipe.
 * Input lines: C A0..A(K-1) B0..B(K-1) [SA.. SB..] [D_device] as hex bits; '#' comments and blank
 * lines are skipped.  Output: one D per line, or with --check a report ending in "N passed, M failed":
 * the model's D is the expected value, the line's last field the device's D under check.
 * Speed: stdin is read in chunks of whole lines; worker threads parse and compute chunks while the main
 * thread reads the next ones and writes finished ones in input order, so the output is the same for any
 * number of threads.  A worker parses up to GROUP lines, then computes them in one mmaref_dot_batch (the
 * instruction's SIMD kernel) and writes them.  --coverage classifies every line in the coverage model
 * (mmaref_cov_classify) per chunk; the main thread sums the chunks' counts as it writes them. */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
    "usage: mmaref batch ARCH INSTRUCTION [--check] [--nan-any] [--max-report N] [--coverage[-bins]] [--threads N]\n"
    "  Reads dot-adds from stdin, one per line: C A0 .. A(K-1) B0 .. B(K-1) [SA.. SB..] as hex bits\n"
    "  (0x prefix optional); blank lines and '#' comments are skipped.  Writes D per line.\n"
    "  --check       each line carries one more field, the device's D, checked against the model's D (the\n"
    "                expected value); reports every mismatch as 'mismatch line N: device 0x.. (v), model\n"
    "                0x.. (v)' and the line's operands decoded (c, a, b, sa, sb: bits and value per lane),\n"
    "                and ends with 'N passed, M failed' (exit 1 if any failed)\n"
    "  --nan-any     with --check, any NaN matches any NaN (for units whose NaN payload is unmodelled)\n"
    "  --max-report  print at most N mismatch reports (a decimal count; default: all)\n"
    "  --allow-empty with --check, no line at all passes (by default zero checked vectors is a failure)\n"
    "  --coverage    after the run, the coverage bins the lines hit on stderr (with --check, the mismatches\n"
    "                per bin too), as `mmaref gen --coverage` prints them; exit status 3 when no line\n"
    "                failed but a bin the instruction can reach is left unhit\n"
    "  --coverage-bins  --coverage, and every reachable bin on a line of its own (lanes and scale slots\n"
    "                each): 'COVERAGE BIN <vectors> <mismatches> <group>: <bin>', for tools that merge runs\n"
    "  --threads N   worker threads (default: one per online CPU, at most 16); the output is the same\n"
    "  A bad line (a NUL byte in it included) stops the run with exit 2; every D before it has been written.\n"
    "  A failed write (a full disk, a closed pipe) stops it with exit 2.\n";

enum {
    MAX_LINE = (1 << 16) - 2,  /* the longest line accepted, in characters before its newline */
    CHUNK = 1 << 20,           /* input bytes one worker takes at a time (whole lines) */
    PAD = 1,                   /* the NUL sentinel after a chunk's lines */
    MAX_THREADS = 256,
    DEFAULT_MAX_THREADS = 16,
    GROUP = 256,               /* lines computed in one mmaref_dot_batch */
    MAX_FIELDS = 1 + 2 * MMAREF_MAX_K + 2 * MMAREF_MAX_SCALES + 1,
};

/* What every line of a run needs. */
typedef struct {
    mmaref_instr in;
    int K, ns, fields, dig, check, nan_any, coverage;
} batch_run;

/* A growable output buffer. */
typedef struct {
    char *p;
    size_t len, cap;
} text;

static int text_reserve(text *t, size_t more)
{
    if (t->len + more <= t->cap)
        return 0;
    size_t cap = t->cap ? t->cap : 1 << 16;
    while (cap < t->len + more)
        cap *= 2;
    char *p = realloc(t->p, cap);
    if (!p)
        return 1;
    t->p = p;
    t->cap = cap;
    return 0;
}

/* Parsed lines waiting for their batch: the fields of line j in v[j] (rows of fields values). */
typedef struct {
    int n;
    long lineno[GROUP];
    uint64_t v[GROUP][MAX_FIELDS], d[GROUP];
} line_group;

/* A chunk of whole stdin lines and what they gave: the D's (or, with --check, the mismatch lines) in
 * `out`; if a line was bad, `out` holds what came before it and `err` the message. */
typedef struct {
    line_group *group;
    char *in;           /* the lines, then a NUL sentinel */
    size_t in_len;
    long first_line;    /* stdin line number of the first line */
    text out;
    long passed, failed;
    uint64_t *hit, *miss;   /* --coverage: per-bin vectors and mismatches of this chunk's lines */
    int bad, done;
    char err[700];
} chunk;

#define BAD(c, ...) (snprintf((c)->err, sizeof (c)->err, __VA_ARGS__), (c)->bad = 1)

/* One line starting at p, its fields into v (*n of them: 0 for a blank or comment line); *stop gets
 * where its fields ended (its newline unless a comment or a bad field came first).  Nonzero after a bad
 * line. */
static int parse_line(const batch_run *r, chunk *c, const char *p, long lineno, const char **stop, uint64_t *v,
                      int *n_out)
{
    int n = 0, K = r->K, ns = r->ns, fields = r->fields;
    *n_out = 0;
    for (;;) {
        while (cli_hex_class[(unsigned char)*p] == CLI_HEX_BLANK)
            p++;
        *stop = p;
        if (cli_hex_class[(unsigned char)*p] == CLI_HEX_END)
            break;
        if (n == fields)
            return BAD(c, "batch: stdin line %ld: more than %d fields (c, %d a, %d b%s%s)", lineno, fields, K, K,
                       ns ? ", scales" : "", r->check ? ", device d" : "");
        if (cli_parse_hex_field(&p, &v[n]))
            return BAD(c, "batch: stdin line %ld, field %d: not a hex number", lineno, n + 1);
        n++;
    }
    if (n != 0 && n != fields)
        return BAD(c, "batch: stdin line %ld: %d fields, expected %d (c, %d a, %d b%s%s)", lineno, n, fields, K, K,
                   ns ? ", scales" : "", r->check ? ", device d" : "");
    *n_out = n;
    return 0;
}

/* One operand of a mismatching line, indented under its "mismatch line" record: each lane's bits and
 * its value decoded ("  a 0x3c00 (1) 0x4000 (2)"), as cli_format_decimal prints values.  Nonzero when
 * out of memory. */
static int put_operand(text *t, const char *name, mmaref_format f, const uint64_t *v, int n)
{
    if (text_reserve(t, 16 + (size_t)n * 96))
        return 1;
    char *o = t->p + t->len;
    o += sprintf(o, "  %s", name);
    for (int i = 0; i < n; i++) {
        char s[64];
        cli_format_decimal(s, sizeof s, f, v[i]);
        o += sprintf(o, " 0x%0*llx (%s)", cli_hex_digits(f), (unsigned long long)v[i], s);
    }
    *o++ = '\n';
    t->len = (size_t)(o - t->p);
    return 0;
}

/* A computed line's output: its D, or with --check the model's D (the expected value) against the
 * device's D (the line's last field); a mismatch is a "mismatch line N" record followed by the line's
 * operands decoded, one indented line each. */
static int emit_line(const batch_run *r, chunk *c, const uint64_t *v, uint64_t d, long lineno)
{
    const int K = r->K, ns = r->ns;
    if (r->coverage)
        mmaref_cov_classify(&r->in, v[0], v + 1, v + 1 + K, ns ? v + 1 + 2 * K : NULL, ns ? v + 1 + 2 * K + ns : NULL,
                            d, c->hit);
    if (r->check) {
        uint64_t want = v[r->fields - 1];
        if (!mmaref_format_valid_bits(r->in.d, want))
            return BAD(c, "batch: stdin line %ld: device d 0x%llx does not fit in %s", lineno,
                       (unsigned long long)want, mmaref_format_name(r->in.d));
        if (cli_same_d(r->in.d, d, want, r->nan_any)) {
            c->passed++;
            return 0;
        }
        c->failed++;
        if (r->coverage)
            mmaref_cov_classify(&r->in, v[0], v + 1, v + 1 + K, ns ? v + 1 + 2 * K : NULL,
                                ns ? v + 1 + 2 * K + ns : NULL, d, c->miss);
        char dev_s[64], model_s[64];
        cli_format_decimal(dev_s, sizeof dev_s, r->in.d, want);
        cli_format_decimal(model_s, sizeof model_s, r->in.d, d);
        if (text_reserve(&c->out, 256))
            return BAD(c, "batch: out of memory");
        c->out.len += (size_t)snprintf(c->out.p + c->out.len, 256,
                                       "mismatch line %ld: device 0x%0*llx (%s), model 0x%0*llx (%s)\n", lineno,
                                       r->dig, (unsigned long long)want, dev_s, r->dig, (unsigned long long)d,
                                       model_s);
        const mmaref_instr *in = &r->in;
        if (put_operand(&c->out, "c", in->c, v, 1) || put_operand(&c->out, "a", in->a, v + 1, K) ||
            put_operand(&c->out, "b", in->b, v + 1 + K, K) ||
            (ns && (put_operand(&c->out, "sa", in->scale, v + 1 + 2 * K, ns) ||
                    put_operand(&c->out, "sb", in->scale, v + 1 + 2 * K + ns, ns))))
            return BAD(c, "batch: out of memory");
        return 0;
    }
    c->passed++; /* without --check: the lines computed */
    if (text_reserve(&c->out, 24))
        return BAD(c, "batch: out of memory");
    char *o = c->out.p + c->out.len;
    *o++ = '0';
    *o++ = 'x';
    o = cli_put_hex(o, d, r->dig);
    *o++ = '\n';
    c->out.len = (size_t)(o - c->out.p);
    return 0;
}

/* The group's lines computed in one batch and written in order.  A value the batch refuses: the lines
 * again one by one, so that the lines before it are written and the error names its line.  Nonzero
 * after a bad line. */
static int flush_group(const batch_run *r, chunk *c)
{
    line_group *g = c->group;
    int n = g->n, K = r->K, ns = r->ns;
    g->n = 0;
    if (n == 0)
        return 0;
    const uint64_t *v = &g->v[0][0];
    ptrdiff_t row = MAX_FIELDS;
    mmaref_dots x = {{v, row, 0}, {v + 1, row, 1}, {v + 1 + K, row, 1}, {v + 1 + 2 * K, row, 1},
                     {v + 1 + 2 * K + ns, row, 1}};
    int whole = mmaref_dot_batch(&r->in, (size_t)n, &x, g->d, NULL, 0) == MMAREF_OK;
    char msg[512];
    for (int j = 0; j < n; j++) {
        const uint64_t *f = g->v[j];
        if (!whole && mmaref_dot(&r->in, f[0], f + 1, f + 1 + K, ns ? f + 1 + 2 * K : NULL,
                                 ns ? f + 1 + 2 * K + ns : NULL, &g->d[j], msg, sizeof msg))
            return BAD(c, "batch: stdin line %ld: %s", g->lineno[j], msg);
        if (emit_line(r, c, f, g->d[j], g->lineno[j]))
            return 1;
    }
    return 0;
}

/* Every line of a chunk, stopping at the first bad one. */
static void run_chunk(const batch_run *r, chunk *c)
{
    c->out.len = 0;
    c->passed = c->failed = 0;
    if (r->coverage) {
        memset(c->hit, 0, MMAREF_COV_MAX_BINS * sizeof *c->hit);
        memset(c->miss, 0, MMAREF_COV_MAX_BINS * sizeof *c->miss);
    }
    c->bad = 0;
    const char *p = c->in, *end = c->in + c->in_len;
    line_group *g = c->group;
    g->n = 0;
    for (long lineno = c->first_line; p < end; lineno++) {
        const char *stop;
        int n;
        int bad = parse_line(r, c, p, lineno, &stop, g->v[g->n], &n);
        /* the line's end: mostly where its fields stopped, else the next newline (one pass over the bytes) */
        const char *le = *stop == '\n' ? stop : memchr(stop, '\n', (size_t)(end - stop));
        if (!le)
            le = end;
        if (le - p > MAX_LINE) { /* an over-long line is refused whatever it holds, and gives nothing */
            if (!flush_group(r, c))
                BAD(c, "batch: stdin line %ld is longer than %d characters", lineno, MAX_LINE);
            return;
        }
        /* a NUL byte would hide the rest of its line: the fields stopped at one (the chunk's sentinel is
         * past its end), or a comment holds one */
        if (!bad && ((*stop == 0 && stop < end) || (*stop == '#' && memchr(stop, 0, (size_t)(le - stop))))) {
            if (!flush_group(r, c))
                BAD(c, "batch: stdin line %ld has a NUL byte", lineno);
            return;
        }
        if (bad) { /* the lines before it are written first (an error among them is the one reported) */
            char err[sizeof c->err];
            memcpy(err, c->err, sizeof err);
            if (!flush_group(r, c))
                memcpy(c->err, err, sizeof err), c->bad = 1;
            return;
        }
        if (n) {
            g->lineno[g->n++] = lineno;
            if (g->n == GROUP && flush_group(r, c))
                return;
        }
        p = le + 1;
    }
    flush_group(r, c);
}

/* Reading stdin into chunks of whole lines: the bytes after the last newline wait in `carry`. */
typedef struct {
    char *carry;
    size_t carry_len;
    long next_line;
    int eof, read_error;
} reader;

/* Fills c with the next lines; c->in_len is 0 when stdin is exhausted. */
static void read_chunk(reader *rd, chunk *c)
{
    memcpy(c->in, rd->carry, rd->carry_len);
    size_t len = rd->carry_len;
    rd->carry_len = 0;
    /* through stdio's stdin (a caller may have replaced it: tests/fuzz/fuzz_batch.c reads from memory) */
    len += fread(c->in + len, 1, CHUNK - len, stdin);
    if (len < CHUNK) {
        rd->eof = 1;
        rd->read_error = ferror(stdin) != 0;
    }
    if (!rd->eof) {
        /* keep the partial last line for the next chunk; a chunk without a newline is one line longer
         * than MAX_LINE, which run_chunk refuses */
        char *last = c->in + len;
        while (last > c->in && last[-1] != '\n')
            last--;
        if (last > c->in) {
            last--;
            rd->carry_len = len - (size_t)(last + 1 - c->in);
            memcpy(rd->carry, last + 1, rd->carry_len);
            len -= rd->carry_len;
        }
    }
    memset(c->in + len, 0, PAD);
    c->in_len = len;
    c->first_line = rd->next_line;
    for (const char *p = c->in, *end = c->in + len; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        rd->next_line++;
}

/* The worker pool: chunk s of the input lives in slot s % nslots.  The main thread fills slots
 * (`filled` counts them), workers take them in order (`taken`), the main thread writes them in order. */
typedef struct {
    const batch_run *run;
    chunk *slots;
    long nslots, filled, taken;
    int closing;
    pthread_mutex_t mu;
    pthread_cond_t work, done;
} pool;

static void *worker(void *arg)
{
    pool *pl = arg;
    pthread_mutex_lock(&pl->mu);
    for (;;) {
        while (pl->taken == pl->filled && !pl->closing)
            pthread_cond_wait(&pl->work, &pl->mu);
        if (pl->taken == pl->filled)
            break;
        chunk *c = &pl->slots[pl->taken++ % pl->nslots];
        pthread_mutex_unlock(&pl->mu);
        run_chunk(pl->run, c);
        pthread_mutex_lock(&pl->mu);
        c->done = 1;
        pthread_cond_broadcast(&pl->done);
    }
    pthread_mutex_unlock(&pl->mu);
    return NULL;
}

/* Writes a finished chunk: with --check at most what --max-report still allows of its mismatch records.
 * Nonzero when the write fails (a full disk, a closed pipe). */
static int write_chunk(const chunk *c, int check, long max_report, long failed_before)
{
    size_t len = c->out.len;
    if (check && max_report >= 0 && failed_before + c->failed > max_report) {
        long allowed = max_report > failed_before ? max_report - failed_before : 0;
        const char *p = c->out.p;
        for (long i = 0; i < allowed; i++) /* a record: its "mismatch line" and its indented operand lines */
            do
                p = (const char *)memchr(p, '\n', (size_t)(c->out.p + c->out.len - p)) + 1;
            while (p < c->out.p + c->out.len && *p == ' ');
        len = (size_t)(p - c->out.p);
    }
    return fwrite(c->out.p, 1, len, stdout) != len;
}

/* Runs stdin through `threads` workers.  Returns the exit status; *passed, *failed count --check (without
 * it, *passed counts the lines computed); with
 * --coverage, hit and miss (MMAREF_COV_MAX_BINS counters each) sum the chunks' bins. */
static int run_stdin(const batch_run *r, int threads, long max_report, long *passed, long *failed, uint64_t *hit,
                     uint64_t *miss)
{
    pool pl = {.run = r, .nslots = threads > 1 ? 2 * threads + 2 : 1};
    reader rd = {.carry = malloc(CHUNK), .next_line = 1};
    pl.slots = calloc((size_t)pl.nslots, sizeof *pl.slots);
    int ok = rd.carry && pl.slots;
    for (long i = 0; ok && i < pl.nslots; i++)
        ok = (pl.slots[i].in = malloc(CHUNK + PAD)) != NULL && (pl.slots[i].group = malloc(sizeof(line_group))) &&
             (!r->coverage || ((pl.slots[i].hit = malloc(MMAREF_COV_MAX_BINS * sizeof(uint64_t))) &&
                               (pl.slots[i].miss = malloc(MMAREF_COV_MAX_BINS * sizeof(uint64_t)))));
    pthread_t tid[MAX_THREADS];
    int started = 0, rc = 0;
    pthread_mutex_init(&pl.mu, NULL);
    pthread_cond_init(&pl.work, NULL);
    pthread_cond_init(&pl.done, NULL);
    if (!ok)
        rc = cli_error("batch: out of memory");
    for (long written = 0; ok;) {
        /* fill every free slot, then wait for the oldest chunk and write it */
        while (!rd.eof && pl.filled - written < pl.nslots) {
            /* the first chunk runs here; the workers start with the second (a short input starts none) */
            if (pl.filled == 1 && threads > 1 && !started) {
                pl.taken = 1;
                while (started < threads && !pthread_create(&tid[started], NULL, worker, &pl))
                    started++;
            }
            chunk *c = &pl.slots[pl.filled % pl.nslots];
            read_chunk(&rd, c);
            if (!c->in_len)
                break;
            c->done = 0;
            if (!started)
                run_chunk(r, c), c->done = 1;
            pthread_mutex_lock(&pl.mu);
            pl.filled++;
            pthread_cond_signal(&pl.work);
            pthread_mutex_unlock(&pl.mu);
        }
        if (written == pl.filled)
            break;
        chunk *c = &pl.slots[written % pl.nslots];
        pthread_mutex_lock(&pl.mu);
        while (!c->done)
            pthread_cond_wait(&pl.done, &pl.mu);
        pthread_mutex_unlock(&pl.mu);
        if (write_chunk(c, r->check, max_report, *failed)) {
            rc = cli_stdout_error("batch"); /* the rest of stdin would go nowhere */
            break;
        }
        *passed += c->passed;
        *failed += c->failed;
        for (int b = 0; r->coverage && b < MMAREF_COV_MAX_BINS; b++)
            hit[b] += c->hit[b], miss[b] += c->miss[b];
        if (c->bad) {
            /* a bad line stops the run: the D's of every line before it are written first, then the error */
            fflush(stdout);
            rc = cli_error("%s", c->err);
            break;
        }
        written++;
    }
    /* workers still busy finish their chunk, then see `closing` (unwritten chunks are dropped) */
    pthread_mutex_lock(&pl.mu);
    pl.closing = 1;
    pl.taken = pl.filled;
    pthread_cond_broadcast(&pl.work);
    pthread_mutex_unlock(&pl.mu);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    if (!rc && rd.read_error)
        rc = cli_error("batch: error reading stdin");
    for (long i = 0; pl.slots && i < pl.nslots; i++) {
        free(pl.slots[i].in), free(pl.slots[i].group), free(pl.slots[i].hit), free(pl.slots[i].miss);
        free(pl.slots[i].out.p);
    }
    free(pl.slots);
    free(rd.carry);
    pthread_mutex_destroy(&pl.mu);
    pthread_cond_destroy(&pl.work);
    pthread_cond_destroy(&pl.done);
    return rc;
}

int cmd_batch(int argc, char **argv)
{
    const char *pos[2] = {0, 0};
    int npos = 0, check = 0, nan_any = 0, allow_empty = 0, coverage = 0;
    long max_report = -1, threads = sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1)
        threads = 1;
    if (threads > DEFAULT_MAX_THREADS)
        threads = DEFAULT_MAX_THREADS;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--check"))
            check = 1;
        else if (!strcmp(argv[i], "--nan-any"))
            nan_any = 1;
        else if (!strcmp(argv[i], "--allow-empty"))
            allow_empty = 1;
        else if (!strcmp(argv[i], "--coverage"))
            coverage = 1;
        else if (!strcmp(argv[i], "--coverage-bins"))
            coverage = 2;
        else if (!strcmp(argv[i], "--max-report")) {
            if (i + 1 >= argc || cli_parse_count(argv[i + 1], LONG_MAX, &max_report))
                return cli_error("batch: --max-report needs a decimal count from 0 to %ld%s%s%s", LONG_MAX,
                                 i + 1 < argc ? ", not '" : "", i + 1 < argc ? argv[i + 1] : "", i + 1 < argc ? "'" : "");
            i++;
        } else if (!strcmp(argv[i], "--threads")) {
            if (i + 1 >= argc || cli_parse_count(argv[i + 1], MAX_THREADS, &threads) || threads < 1)
                return cli_error("batch: --threads needs a number from 1 to %d", MAX_THREADS);
            i++;
        } else if (argv[i][0] == '-')
            return cli_error("batch: unknown option '%s' (see 'mmaref batch --help')", argv[i]);
        else if (npos < 2)
            pos[npos++] = argv[i];
        else
            return cli_error("batch: unexpected argument '%s'", argv[i]);
    }
    if (npos < 2)
        return cli_error("batch: needs ARCH and INSTRUCTION (see 'mmaref batch --help')");
    batch_run r = {.check = check, .nan_any = nan_any, .coverage = coverage};
    if (cli_lookup(pos[0], pos[1], &r.in))
        return 2;
    r.K = r.in.k;
    r.ns = mmaref_scale_count(&r.in);
    r.fields = 1 + 2 * r.K + 2 * r.ns + check;
    r.dig = cli_hex_digits(r.in.d);

    long passed = 0, failed = 0;
    static uint64_t hit[MMAREF_COV_MAX_BINS], miss[MMAREF_COV_MAX_BINS];
    int rc = run_stdin(&r, (int)threads, max_report, &passed, &failed, hit, miss);
    if (rc)
        return rc;
    int holes = 0;
    if (coverage) {
        fflush(stdout);
        fprintf(stderr, "coverage of %s %s: %ld vectors (docs/verify-your-design.md, coverage)\n", r.in.arch,
                r.in.name, passed + failed);
        holes = mmaref_cov_print(stderr, &r.in, hit, check ? miss : NULL) > 0;
        if (coverage == 2)
            mmaref_cov_print_bins(stderr, &r.in, hit, check ? miss : NULL);
    }
    if (check) {
        printf("%s %s: %ld passed, %ld failed\n", r.in.arch, r.in.name, passed, failed);
        if (passed + failed == 0 && !allow_empty) {
            cli_error("batch --check: no line to check on stdin (an empty results file is not a pass; "
                      "--allow-empty accepts it)");
            return 1;
        }
        if (failed)
            return 1;
    }
    return holes ? 3 : 0;
}
