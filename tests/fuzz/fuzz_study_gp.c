/* libFuzzer: the gnuplot scripts of `mmaref study` (study_rounding_bias_gp, study_m3xu_gp; the names
 * quoted by study_gnuplot_string) and the path check every path option goes through (cli_check_path).
 * Input: bytes 0..7 the samples, 8..9 the histogram's top bucket, then the CSV name and the PNG name,
 * separated by the first 0xff byte (a NUL ends a name early, as it would a path).
 * Invariants (no byte of a name may be parsed by gnuplot as code):
 *   - a name with a control byte (0x00..0x1f, 0x7f) is refused by cli_check_path and by the writers,
 *     and every other non-empty name is accepted by both;
 *   - an accepted script has no control byte but its newlines, and as many lines as the same script
 *     with the names "a.csv" and "a.png": a name adds no line;
 *   - in every line that is not a comment, the single quotes pair up (a gnuplot single-quoted string
 *     has no escape but '' for a quote, and expands nothing: no backquote, no macro). */
#define _GNU_SOURCE
#include "cli.h"
#include "fuzz.h"
#include "study.h"

typedef int (*writer)(FILE *, const char *, const char *, long, uint64_t);

static int rb(FILE *f, const char *csv, const char *png, long n, uint64_t x)
{
    return study_rounding_bias_gp(f, csv, png, n, -(double)(x & 0xff), (double)(x >> 8 & 0xff));
}

static int m3(FILE *f, const char *csv, const char *png, long n, uint64_t x)
{
    return study_m3xu_gp(f, csv, png, n, (int)(x % 300));
}

/* The script as a string (*len bytes), or NULL when the writer refused. */
static char *script(writer w, const char *csv, const char *png, long n, uint64_t x, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        abort();
    int bad = w(f, csv, png, n, x);
    fclose(f);
    if (bad) {
        free(text);
        return NULL;
    }
    return text;
}

static int has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 1;
    return 0;
}

static size_t count(const char *s, size_t len, char c)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += s[i] == c;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4000) /* a name always fits the writers' buffers (2 PATH_MAX, every byte a quote) */
        return 0;
    const uint8_t *p = data, *end = data + size;
    long samples = (long)(fuzz_take(&p, end, 8) & 0x7fffffff);
    uint64_t x = fuzz_take(&p, end, 2);
    const uint8_t *sep = memchr(p, 0xff, (size_t)(end - p));
    char *csv = fuzz_string(p, sep ? (size_t)(sep - p) : (size_t)(end - p));
    char *png = sep ? fuzz_string(sep + 1, (size_t)(end - sep - 1)) : fuzz_string(p, 0);

    int control = has_control(csv) || has_control(png), empty = !*csv || !*png;
    FILE *saved = stderr, *quiet = fopen("/dev/null", "w");
    stderr = quiet;
    int refused = cli_check_path("study", "--out", csv) || cli_check_path("study", "--out", png);
    stderr = saved;
    fclose(quiet);
    FUZZ_CHECK(refused == (control || empty), "cli_check_path %s a name with%s control byte",
               refused ? "refused" : "accepted", control ? " a" : "out a");

    writer writers[2] = {rb, m3};
    for (int i = 0; i < 2; i++) {
        size_t len, len0;
        char *s = script(writers[i], csv, png, samples, x, &len);
        char *s0 = script(writers[i], "a.csv", "a.png", samples, x, &len0);
        FUZZ_CHECK(s0, "the plain script refused");
        FUZZ_CHECK((s == NULL) == control, "writer %d %s a name with%s control byte", i, s ? "accepted" : "refused",
                   control ? " a" : "out a");
        if (s) {
            FUZZ_CHECK(strlen(s) == len, "a NUL byte in the script");
            for (size_t j = 0; j < len; j++)
                FUZZ_CHECK(((unsigned char)s[j] >= 0x20 && s[j] != 0x7f) || s[j] == '\n',
                           "control byte 0x%02x at %zu of writer %d's script", (unsigned char)s[j], j, i);
            FUZZ_CHECK(count(s, len, '\n') == count(s0, len0, '\n'), "writer %d: %zu lines, the plain script %zu",
                       i, count(s, len, '\n'), count(s0, len0, '\n'));
            for (char *line = s; *line;) {
                char *nl = strchr(line, '\n');
                size_t n = nl ? (size_t)(nl - line) : strlen(line);
                if (line[0] != '#')
                    FUZZ_CHECK(count(line, n, '\'') % 2 == 0, "writer %d: unpaired quote in '%.*s'", i, (int)n, line);
                line += n + (nl != NULL);
            }
        }
        free(s), free(s0);
    }
    free(csv), free(png);
    return 0;
}
