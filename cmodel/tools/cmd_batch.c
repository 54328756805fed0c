/* mmaref batch ARCH INSTR [--check] [--nan-any]: the TestFloat-style pipe.
 * Input lines: C A0..A(K-1) B0..B(K-1) [SA.. SB..] [D_expected] as hex bits; '#' comments and blank
 * lines are skipped.  Output: one D per line, or with --check a report ending in "N passed, M failed". */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: mmaref batch ARCH INSTRUCTION [--check] [--nan-any] [--max-report N]\n"
    "  Reads dot-adds from stdin, one per line: C A0 .. A(K-1) B0 .. B(K-1) [SA.. SB..] as hex bits\n"
    "  (0x prefix optional); blank lines and '#' comments are skipped.  Writes D per line.\n"
    "  --check       each line carries one more field, the expected D; reports every mismatch and ends\n"
    "                with 'N passed, M failed' (exit 1 if any failed)\n"
    "  --nan-any     with --check, any NaN matches any NaN (for units whose NaN payload is unmodelled)\n"
    "  --max-report  print at most N mismatch lines (default: all)\n"
    "  --allow-empty with --check, no line at all passes (by default zero checked vectors is a failure)\n"
    "  A bad line stops the run with exit 2; every D before it has been written.\n";

static int is_nan(mmaref_format f, uint64_t bits)
{
    double v = mmaref_format_to_double(f, bits);
    return v != v;
}

/* d matches the expected value: the same bits or, with --nan-any, NaN against NaN -- part by part for a
 * complex D (f32c), whose parts are NaN independently. */
static int matches(mmaref_format f, uint64_t d, uint64_t want, int nan_any)
{
    if (d == want)
        return 1;
    mmaref_format part = mmaref_format_part(f);
    for (int i = 0; nan_any && i < mmaref_format_parts(f); i++) {
        uint64_t x = mmaref_format_part_bits(f, d, i), y = mmaref_format_part_bits(f, want, i);
        if (x != y && !(is_nan(part, x) && is_nan(part, y)))
            return 0;
    }
    return nan_any;
}

int cmd_batch(int argc, char **argv)
{
    const char *pos[2] = {0, 0};
    int npos = 0, check = 0, nan_any = 0, allow_empty = 0;
    long max_report = -1;
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
        else if (!strcmp(argv[i], "--max-report")) {
            char *end;
            if (i + 1 >= argc || (max_report = strtol(argv[i + 1], &end, 10), *end) || max_report < 0)
                return cli_error("batch: --max-report needs a non-negative number");
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
    mmaref_instr in;
    if (cli_lookup(pos[0], pos[1], &in))
        return 2;
    int K = in.k, ns = mmaref_scale_count(&in);
    int fields = 1 + 2 * K + 2 * ns + check;
    int dig = cli_hex_digits(in.d);

    static char line[1 << 16];
    static char outbuf[1 << 16];
    size_t outlen = 0;
    uint64_t v[1 + 2 * 256 + 2 * 64 + 1], d;
    long lineno = 0, passed = 0, failed = 0;
    char msg[512];
/* A bad line stops the run: the D's of every line before it are written first, then the error. */
#define BAD_LINE(...) (fwrite(outbuf, 1, outlen, stdout), fflush(stdout), cli_error(__VA_ARGS__))
    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n')
            return BAD_LINE("batch: stdin line %ld is longer than %zu characters", lineno, sizeof line - 2);
        const char *p = line;
        int n = 0;
        for (;;) {
            while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
                p++;
            if (!*p || *p == '#')
                break;
            if (n == fields)
                return BAD_LINE("batch: stdin line %ld: more than %d fields (c, %d a, %d b%s%s)", lineno, fields,
                                 K, K, ns ? ", scales" : "", check ? ", expected d" : "");
            if (cli_parse_hex_field(&p, &v[n]))
                return BAD_LINE("batch: stdin line %ld, field %d: not a hex number", lineno, n + 1);
            n++;
        }
        if (n == 0)
            continue;
        if (n != fields)
            return BAD_LINE("batch: stdin line %ld: %d fields, expected %d (c, %d a, %d b%s%s)", lineno, n,
                             fields, K, K, ns ? ", scales" : "", check ? ", expected d" : "");
        const uint64_t *a = v + 1, *b = v + 1 + K;
        const uint64_t *sa = ns ? v + 1 + 2 * K : NULL, *sb = ns ? v + 1 + 2 * K + ns : NULL;
        if (mmaref_dot(&in, v[0], a, b, sa, sb, &d, msg, sizeof msg))
            return BAD_LINE("batch: stdin line %ld: %s", lineno, msg);
        if (check) {
            uint64_t want = v[fields - 1];
            if (!mmaref_format_valid_bits(in.d, want))
                return BAD_LINE("batch: stdin line %ld: expected d 0x%llx does not fit in %s", lineno,
                                 (unsigned long long)want, mmaref_format_name(in.d));
            if (matches(in.d, d, want, nan_any)) {
                passed++;
            } else {
                failed++;
                if (max_report < 0 || failed <= max_report) {
                    char got_s[64], want_s[64];
                    cli_format_decimal(got_s, sizeof got_s, in.d, d);
                    cli_format_decimal(want_s, sizeof want_s, in.d, want);
                    printf("mismatch line %ld: model 0x%0*llx (%s), expected 0x%0*llx (%s)\n", lineno, dig,
                           (unsigned long long)d, got_s, dig, (unsigned long long)want, want_s);
                }
            }
            continue;
        }
        if (outlen + 24 > sizeof outbuf) {
            fwrite(outbuf, 1, outlen, stdout);
            outlen = 0;
        }
        outbuf[outlen++] = '0';
        outbuf[outlen++] = 'x';
        outlen = (size_t)(cli_put_hex(outbuf + outlen, d, dig) - outbuf);
        outbuf[outlen++] = '\n';
    }
    fwrite(outbuf, 1, outlen, stdout);
    if (ferror(stdin))
        return cli_error("batch: error reading stdin");
#undef BAD_LINE
    if (check) {
        printf("%s %s: %ld passed, %ld failed\n", in.arch, in.name, passed, failed);
        if (passed + failed == 0 && !allow_empty) {
            cli_error("batch --check: no line to check on stdin (an empty results file is not a pass; "
                      "--allow-empty accepts it)");
            return 1;
        }
        return failed ? 1 : 0;
    }
    return 0;
}
