/* Shared pieces of the mmaref command-line tool. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void cli_put_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch >= 0x20 && ch != 0x7f)
            fputc(ch, out);
        else if (ch == '\n' || ch == '\t' || ch == '\r')
            fprintf(out, "\\%c", ch == '\n' ? 'n' : ch == '\t' ? 't' : 'r');
        else
            fprintf(out, "\\x%02x", ch);
    }
}

int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char small[1024], *msg = small;
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof small && (msg = malloc((size_t)n + 1))) {
        va_start(ap, fmt);
        vsnprintf(msg, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    fputs("mmaref: ", stderr);
    cli_put_escaped(stderr, msg ? msg : small);
    fputc('\n', stderr);
    if (msg != small)
        free(msg);
    return 2;
}

int cli_check_path(const char *cmd, const char *opt, const char *path)
{
    if (!*path)
        return cli_error("%s: %s is empty", cmd, opt);
    for (const char *p = path; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return cli_error("%s: %s '%s' has a control character (byte %zu): refused in a path", cmd, opt, path,
                             (size_t)(p - path) + 1);
    return 0;
}

int cli_hex_digits(mmaref_format f) { return (mmaref_format_width(f) + 3) / 4; }

static int is_nan(mmaref_format f, uint64_t bits)
{
    double v = mmaref_format_to_double(f, bits);
    return v != v;
}

int cli_same_d(mmaref_format f, uint64_t x, uint64_t y, int nan_any)
{
    if (x == y)
        return 1;
    if (!nan_any)
        return 0;
    mmaref_format part = mmaref_format_part(f);
    for (int i = 0; i < mmaref_format_parts(f); i++) {
        uint64_t u = mmaref_format_part_bits(f, x, i), v = mmaref_format_part_bits(f, y, i);
        if (u != v && !(is_nan(part, u) && is_nan(part, v)))
            return 0;
    }
    return 1;
}

char *cli_put_hex(char *p, uint64_t v, int digits)
{
    for (int i = digits - 1; i >= 0; i--)
        *p++ = "0123456789abcdef"[(v >> (4 * i)) & 15];
    return p;
}

int cli_parse_u64(const char *text, uint64_t *v)
{
    /* decimal, or 0x hex; a leading 0 is not octal ("010" is ten) */
    int hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const char *digits = hex ? text + 2 : text;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(digits, &end, hex ? 16 : 10);
    if (!isxdigit((unsigned char)digits[0]) || (!hex && !isdigit((unsigned char)digits[0])) || *end || errno)
        return 1;
    *v = x;
    return 0;
}

int cli_parse_count(const char *text, long max, long *v)
{
    uint64_t x;
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        return 1; /* counts are decimal */
    if (cli_parse_u64(text, &x) || x > (uint64_t)max)
        return 1;
    *v = (long)x;
    return 0;
}

void cli_format_decimal(char *buf, size_t cap, mmaref_format f, uint64_t bits)
{
    if (mmaref_format_parts(f) > 1) /* f32c: cli_complex.c */
        cli_format_complex(buf, cap, f, bits);
    else
        cli_format_real(buf, cap, f, bits);
}

int cli_parse_value(mmaref_format f, const char *text, const char *what, uint64_t *bits, char *err,
                    size_t errlen)
{
    /* blanks around a value are dropped (strtod would skip leading ones only, after the raw-bits test) */
    char trimmed[128];
    if (text) {
        while (isspace((unsigned char)*text))
            text++;
        size_t n = strlen(text);
        while (n && isspace((unsigned char)text[n - 1]))
            n--;
        if (n >= sizeof trimmed) {
            snprintf(err, errlen, "%s is longer than %zu characters", what, sizeof trimmed - 1);
            return 1;
        }
        memcpy(trimmed, text, n);
        trimmed[n] = 0;
        text = trimmed;
    }
    if (!text || !*text) {
        snprintf(err, errlen, "%s is empty", what);
        return 1;
    }
    if (mmaref_format_parts(f) > 1 && !cli_is_raw_hex(text)) /* f32c "RE+IMi": cli_complex.c */
        return cli_parse_complex(f, text, what, bits, err, errlen);
    return cli_parse_real(f, text, what, bits, err, errlen);
}

int cli_parse_list(mmaref_format f, const char *text, const char *what, uint64_t *vals, int max, int *n,
                   char *err, size_t errlen)
{
    char buf[8192];
    if (strlen(text) >= sizeof buf) {
        snprintf(err, errlen, "%s list is too long", what);
        return 1;
    }
    strcpy(buf, text);
    *n = 0;
    int count = 0;
    for (const char *p = text; *p; p++)
        count += *p == ',';
    if (count + 1 > max) {
        snprintf(err, errlen, "%s has %d values, more than the instruction's %d", what, count + 1, max);
        return 1;
    }
    char *p = buf;
    for (int i = 0; i <= count; i++) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = 0;
        char item[64];
        snprintf(item, sizeof item, "%s[%d]", what, i);
        /* trim blanks */
        while (isspace((unsigned char)*p))
            p++;
        char *e = p + strlen(p);
        while (e > p && isspace((unsigned char)e[-1]))
            *--e = 0;
        if (cli_parse_value(f, p, item, &vals[i], err, errlen))
            return 1;
        p = comma ? comma + 1 : p + strlen(p);
    }
    *n = count + 1;
    return 0;
}

void cli_print_value(FILE *out, mmaref_format f, uint64_t bits)
{
    char dec[64];
    cli_format_decimal(dec, sizeof dec, f, bits);
    fprintf(out, "0x%0*llx %s\n", cli_hex_digits(f), (unsigned long long)bits, dec);
}

int cli_lookup(const char *arch, const char *name, mmaref_instr *in)
{
    char msg[8192];
    if (mmaref_lookup(arch, name, in, msg, sizeof msg) != MMAREF_OK) {
        cli_error("%s", msg);
        return 1;
    }
    return 0;
}

const unsigned char cli_hex_class[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9,
    ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
    [' '] = CLI_HEX_BLANK, ['\t'] = CLI_HEX_BLANK, ['\r'] = CLI_HEX_BLANK,
    ['\n'] = CLI_HEX_END, ['\0'] = CLI_HEX_END, ['#'] = CLI_HEX_END};

/* "F=24,f32-rz": one pass's parameters. */
static int pass_text(char *buf, size_t cap, const mmaref_instr *in, const mmaref_pass *p)
{
    int n = 0;
    if (p->frac_bits)
        n += snprintf(buf + n, cap - n, "F=%d,", p->frac_bits);
    if (p->group)
        n += snprintf(buf + n, cap - n, "G=%d,", p->group);
    if (p->flush)
        n += snprintf(buf + n, cap - n, "ftz,");
    if (p->ab_f16)
        n += snprintf(buf + n, cap - n, "ab=f16,");
    if (p->k_run)
        n += snprintf(buf + n, cap - n, "runs=%d/%d,", p->k_run, p->k_stride);
    if (p->zero_term_exp)
        n += snprintf(buf + n, cap - n, "zero=%d,", p->zero_term_exp);
    if ((p->algo == MMAREF_ALGO_FDRDA || p->algo == MMAREF_ALGO_GFDRDA) &&
        (p->align_products != MMAREF_RD || p->align_c != MMAREF_RD))
        n += snprintf(buf + n, cap - n, "align=%s/%s,", mmaref_rounding_name(p->align_products),
                      mmaref_rounding_name(p->align_c));
    if (p->scales != MMAREF_SCALES_NONE)
        n += snprintf(buf + n, cap - n, "%s/%d,", mmaref_format_name(in->scale), in->block_size);
    return n + snprintf(buf + n, cap - n, "%s", mmaref_output_name(p->out));
}

/* Two passes that differ only in which products they take. */
static int same_but_slice(mmaref_pass x, mmaref_pass y)
{
    x.k_first = y.k_first, x.k_count = y.k_count;
    return !memcmp(&x, &y, sizeof x);
}

void cli_schedule_text(char *buf, size_t cap, const mmaref_instr *in)
{
    int uniform = 1;
    for (int i = 1; i < in->passes; i++)
        uniform &= same_but_slice(in->pass[0], in->pass[i]);
    char name[32], params[96];
    size_t n = 0;
    if (uniform) {
        mmaref_schedule_name(in, name, sizeof name);
        pass_text(params, sizeof params, in, &in->pass[0]);
        n = (size_t)snprintf(buf, cap, "%s(%s)", name, params);
    } else {
        for (int i = 0; i < in->passes && n < cap; i++) {
            pass_text(params, sizeof params, in, &in->pass[i]);
            n += (size_t)snprintf(buf + n, cap - n, "%s%s(%s)", i ? "+" : "", mmaref_algo_name(in->pass[i].algo),
                                  params);
        }
    }
    if (in->c_last && n < cap) /* C added last, rounded to nearest even */
        snprintf(buf + n, cap - n, "+C(%s-rne)", mmaref_format_name(in->d));
}

void cli_pass_json(FILE *out, const mmaref_pass *p)
{
    fprintf(out, "{\"algo\": \"%s\", \"k_first\": %d, \"k_count\": %d, \"frac_bits\": %d, \"group\": %d, "
            "\"align_products\": \"%s\", \"align_c\": \"%s\", \"scales\": \"%s\", \"flush\": %d, "
            "\"zero_term_exp\": %d, \"out\": \"%s\", \"k_run\": %d, \"k_stride\": %d, \"ab_f16\": %d}",
            mmaref_algo_name(p->algo), p->k_first, p->k_count, p->frac_bits, p->group,
            mmaref_rounding_name(p->align_products), mmaref_rounding_name(p->align_c), mmaref_scaling_name(p->scales),
            p->flush, p->zero_term_exp, mmaref_output_name(p->out), p->k_run, p->k_stride, p->ab_f16);
}
