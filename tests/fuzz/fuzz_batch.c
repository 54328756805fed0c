/* libFuzzer: `mmaref batch` (cmodel/tools/cmd_batch.c) in-process.
 * Input: the first line is the command's arguments, blank-separated ("hopper mma.m16n8k8.f32.f16.f16.f32
 * --check"); the rest is its stdin.  cmd_batch runs with stdin read from that memory (fmemopen) and
 * stdout and stderr captured (open_memstream); an input whose length is a multiple of 4 runs twice (a
 * run costs about two table lookups: most of an execution).
 * Invariants (the command's help and README promise them):
 *   - exit status 0, 1 or 2, and the same status, stdout and stderr when run twice;
 *   - status 2 is one line on stderr, "mmaref: ..." (the arguments it quotes have no line break);
 *   - without --check: every stdout line is one D, "0x" and the hex digits of D's width, its value
 *     fitting D's format; a clean run writes one D per data line (a line that is not blank or a '#'
 *     comment), and a run stopped by a bad line ("stdin line N") has written the D of every data line
 *     before line N, and nothing for any other failure (a bad option, an unknown instruction);
 *   - a line with a NUL byte is refused (it would hide the rest of the line): a run that ends had none;
 *   - with --check: a run that ends ends with "ARCH NAME: P passed, F failed" where P + F is the
 *     number of data lines, F mismatch lines before it (fewer only with --max-report), exit 1 when F > 0
 *     or when nothing was checked without --allow-empty, else 0. */
#define _GNU_SOURCE
#include <stdbool.h>

#include "cli.h"
#include "fuzz.h"

#define BATCH_LINE 65536 /* cmd_batch's line buffer: fgets reads at most BATCH_LINE - 1 bytes at a time */

typedef struct {
    int rc;
    char *out, *err;
    size_t out_len, err_len;
} run_result;

static run_result run_batch(int argc, char **argv, const uint8_t *in, size_t in_len)
{
    run_result r;
    FILE *saved_in = stdin, *saved_out = stdout, *saved_err = stderr;
    FILE *fin = in_len ? fmemopen((void *)in, in_len, "r") : fopen("/dev/null", "r");
    FILE *fout = open_memstream(&r.out, &r.out_len), *ferr = open_memstream(&r.err, &r.err_len);
    if (!fin || !fout || !ferr)
        abort();
    stdin = fin, stdout = fout, stderr = ferr;
    r.rc = cmd_batch(argc, argv);
    stdin = saved_in, stdout = saved_out, stderr = saved_err;
    fclose(fin), fclose(fout), fclose(ferr);
    return r;
}

/* The data lines among stdin's first `before` lines, each line as cmd_batch's fgets cuts it (at a
 * '\n' or after BATCH_LINE - 1 bytes; none of them holds a NUL byte, which cmd_batch refuses). */
static long data_lines(const uint8_t *in, size_t len, long before)
{
    long lineno = 0, n = 0;
    size_t at = 0;
    while (at < len && ++lineno < before) {
        size_t end = at;
        while (end < len && end - at < BATCH_LINE - 1 && in[end++] != '\n')
            ;
        size_t i = at;
        while (i < end && (in[i] == ' ' || in[i] == '\t' || in[i] == '\r' || in[i] == '\n'))
            i++;
        n += i < end && in[i] != 0 && in[i] != '#';
        at = end;
    }
    return n;
}

/* Lines of s (the last may lack its '\n'); with a prefix, only those starting with it. */
static long count_lines(const char *s, size_t len, const char *prefix)
{
    long n = 0;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(s + i, '\n', len - i);
        n += !prefix || !strncmp(s + i, prefix, strlen(prefix)); /* s is NUL-terminated (open_memstream) */
        i = nl ? (size_t)(nl - s) + 1 : len;
    }
    return n;
}

/* mmaref_lookup, remembering the last answer (a lookup walks the table: most of an execution) */
static bool lookup_cached(const char *arch, const char *name, mmaref_instr *in)
{
    static char *last_arch, *last_name;
    static mmaref_instr last;
    static bool last_ok;
    if (!last_arch || strcmp(arch, last_arch) || strcmp(name, last_name)) {
        free(last_arch), free(last_name);
        last_arch = strdup(arch), last_name = strdup(name);
        last_ok = mmaref_lookup(arch, name, &last, NULL, 0) == MMAREF_OK;
    }
    *in = last;
    return last_ok;
}

static void check_plain(const run_result *r, const mmaref_instr *in, long want_lines)
{
    int dig = cli_hex_digits(in->d);
    long lines = 0;
    for (const char *p = r->out; p < r->out + r->out_len; lines++) {
        const char *nl = memchr(p, '\n', r->out + r->out_len - p);
        FUZZ_CHECK(nl && nl - p == 2 + dig && p[0] == '0' && p[1] == 'x', "stdout line %ld is not one D: '%.*s'",
                   lines + 1, (int)(nl ? nl - p : 40), p);
        char hex[24];
        memcpy(hex, p + 2, (size_t)dig);
        hex[dig] = 0;
        char *end;
        uint64_t d = strtoull(hex, &end, 16);
        FUZZ_CHECK(!*end && mmaref_format_valid_bits(in->d, d), "stdout line %ld: '%s' is not a %s value", lines + 1,
                   hex, mmaref_format_name(in->d));
        p = nl + 1;
    }
    FUZZ_CHECK(lines == want_lines, "%ld D's written, expected %ld (status %d, stderr '%.*s')", lines, want_lines, r->rc,
               (int)r->err_len, r->err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    if (!nl)
        return 0;
    char *head = fuzz_string(data, (size_t)(nl - data));
    const uint8_t *in = nl + 1;
    size_t in_len = size - (size_t)(in - data);

    /* the arguments, and what cmd_batch will make of them: the first two non-options are ARCH and
     * INSTRUCTION; --max-report takes the next argument */
    enum { MAX_ARGS = 8 };
    char *argv[MAX_ARGS + 2] = {"batch"}, *pos[2] = {NULL, NULL};
    int argc = 1, npos = 0;
    bool check = false, allow_empty = false, max_report = false, help = false;
    for (char *tok = strtok(head, " \t"); tok && argc <= MAX_ARGS; tok = strtok(NULL, " \t")) {
        bool value = argc > 1 && !strcmp(argv[argc - 1], "--max-report");
        argv[argc++] = tok;
        check |= !strcmp(tok, "--check");
        allow_empty |= !strcmp(tok, "--allow-empty");
        max_report |= !strcmp(tok, "--max-report");
        help |= !strcmp(tok, "--help") || !strcmp(tok, "-h");
        if (!value && tok[0] != '-' && npos < 2)
            pos[npos++] = tok;
    }
    argv[argc] = NULL;

    run_result r = run_batch(argc, argv, in, in_len);
    if (size % 4 == 0) {
        run_result again = run_batch(argc, argv, in, in_len);
        FUZZ_CHECK(r.rc == again.rc && r.out_len == again.out_len && r.err_len == again.err_len &&
                       !memcmp(r.out, again.out, r.out_len) && !memcmp(r.err, again.err, r.err_len),
                   "two runs differ: status %d / %d", r.rc, again.rc);
        free(again.out), free(again.err);
    }
    FUZZ_CHECK(r.rc >= 0 && r.rc <= 2, "exit status %d", r.rc);

    mmaref_instr instr;
    bool known = npos == 2 && lookup_cached(pos[0], pos[1], &instr);
    if (r.rc == 2) {
        FUZZ_CHECK(count_lines(r.err, r.err_len, NULL) == 1 && r.err[r.err_len - 1] == '\n' &&
                       !strncmp(r.err, "mmaref: ", 8),
                   "status 2 without a one-line message: '%.*s'", (int)r.err_len, r.err);
        const char *at = strstr(r.err, "stdin line ");
        if (at && known && !check)
            check_plain(&r, &instr, data_lines(in, in_len, strtol(at + 11, NULL, 10)));
        else if (!at)
            FUZZ_CHECK(r.out_len == 0 || help, "refused ('%.*s') after writing %zu bytes", (int)r.err_len, r.err,
                       r.out_len);
    } else if (!help) {
        FUZZ_CHECK(known, "status %d for an instruction mmaref_lookup refuses", r.rc);
        FUZZ_CHECK(!memchr(in, 0, in_len), "status %d on a stdin with a NUL byte", r.rc);
        long lines = data_lines(in, in_len, __LONG_MAX__);
        if (!check) {
            FUZZ_CHECK(r.rc == 0 && r.err_len == 0, "status %d, stderr '%.*s'", r.rc, (int)r.err_len, r.err);
            check_plain(&r, &instr, lines);
        } else {
            char summary[256];
            long passed = -1, failed = -1;
            const char *last = r.out;
            for (const char *p = r.out; p < r.out + r.out_len - 1; p++)
                if (*p == '\n')
                    last = p + 1;
            snprintf(summary, sizeof summary, "%s %s: %%ld passed, %%ld failed\n", instr.arch, instr.name);
            FUZZ_CHECK(r.out_len && sscanf(last, summary, &passed, &failed) == 2, "no summary line: '%.*s'",
                       (int)r.out_len, r.out);
            long mismatches = count_lines(r.out, r.out_len, "mismatch line ");
            FUZZ_CHECK(passed + failed == lines && (mismatches == failed || (max_report && mismatches < failed)),
                       "%ld passed, %ld failed, %ld mismatch lines, of %ld data lines", passed, failed, mismatches,
                       lines);
            int want_rc = failed > 0 || (lines == 0 && !allow_empty);
            FUZZ_CHECK(r.rc == want_rc, "status %d after %ld passed, %ld failed", r.rc, passed, failed);
        }
    }
    free(r.out), free(r.err);
    free(head);
    return 0;
}
