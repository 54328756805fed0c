/* One operand value of a real format on the command line: raw bits (0x + hex digits, any format's), or
 * a number written as C writes it (1.5, 0x1p-3, -inf, nan) that must be exactly a value of the format;
 * and a value's decimal text.  Complex values (f32c) are pairs of these (cli_complex.c); cli.c's
 * cli_parse_value and cli_format_decimal choose between the two. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int cli_is_raw_hex(const char *t)
{
    if (t[0] != '0' || (t[1] != 'x' && t[1] != 'X') || !t[2])
        return 0;
    for (const char *p = t + 2; *p; p++)
        if (!isxdigit((unsigned char)*p))
            return 0;
    return 1;
}

void cli_format_real(char *buf, size_t cap, mmaref_format f, uint64_t bits)
{
    double v = mmaref_format_to_double(f, bits);
    if (isnan(v))
        snprintf(buf, cap, "nan");
    else if (isinf(v))
        snprintf(buf, cap, v < 0 ? "-inf" : "inf");
    else
        snprintf(buf, cap, "%.*g", f == MMAREF_F64 ? 17 : 9, v);
}

/* ---- exactness of a number literal: the literal, read digit by digit, against the double strtod made
 * of it (strtod rounds; a literal with more digits than a double holds can round onto a double) ---- */

/* A literal's digits with the point dropped and leading and trailing zeros stripped, and the power of
 * the base of the last kept digit: "0.0150" -> "15", -3.  Returns 0 if not a plain [digits][.digits]. */
static int literal_digits(const char *t, const char *end, int hex, char *digits, size_t cap, long *last_pow)
{
    size_t n = 0;
    long point = 0, count = 0; /* point: digits kept before the '.', counted once one is seen */
    int seen_point = 0;
    for (const char *p = t; p < end; p++) {
        if (*p == '.') {
            if (seen_point++)
                return 0;
            point = count;
            continue;
        }
        if (!(hex ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p)))
            return 0;
        if (n == 0 && *p == '0') { /* a leading zero after the point moves it; before, it is nothing */
            if (seen_point)
                point--;
            continue;
        }
        count++;
        if (n + 1 >= cap)
            return 0;
        digits[n++] = (char)tolower((unsigned char)*p);
    }
    if (!seen_point)
        point = count;
    long pow = point - (long)n; /* power of the base of the last digit */
    while (n && digits[n - 1] == '0')
        n--, pow++;
    digits[n] = 0;
    *last_pow = pow;
    return 1;
}

/* Whether the finite, non-NaN literal text (sign already stripped) is exactly the double x >= 0. */
static int literal_is_exactly(const char *text, double x)
{
    char digits[160];
    long pow;
    int hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const char *t = hex ? text + 2 : text, *exp = t + strcspn(t, hex ? "pP" : "eE");
    if (!literal_digits(t, exp, hex, digits, sizeof digits, &pow))
        return 0;
    long written_exp = 0; /* after e (decimal) or p (binary) */
    if (*exp) {
        char *e;
        errno = 0;
        written_exp = strtol(exp + 1, &e, 10);
        if (*e || errno || written_exp > 100000 || written_exp < -100000)
            return 0;
    }
    if (!digits[0])
        return x == 0;
    if (hex) {
        /* value = H * 16^pow * 2^p */
        if (strlen(digits) > 15) /* more than 15 hex digits from first to last nonzero: over 53 bits */
            return 0;
        uint64_t h = strtoull(digits, NULL, 16);
        long bin = 4 * pow + written_exp;
        int tz = __builtin_ctzll(h);
        h >>= tz, bin += tz;
        if (h >> 53)
            return 0;
        return ldexp((double)h, (int)bin) == x && ldexp(x, (int)-bin) == (double)h;
    }
    pow += written_exp;
    /* the exact decimal expansion of x (a double has at most 767 significant decimal digits) */
    char xs[800];
    snprintf(xs, sizeof xs, "%.770e", x);
    char *e = strchr(xs, 'e');
    long xe = strtol(e + 1, NULL, 10);
    char xd[800];
    long xpow;
    if (!literal_digits(xs, e, 0, xd, sizeof xd, &xpow))
        return 0;
    return !strcmp(xd, digits) && xpow + xe == pow;
}

int cli_parse_real(mmaref_format f, const char *text, const char *what, uint64_t *bits, char *err, size_t errlen)
{
    const char *fname = mmaref_format_name(f);
    if (!*text) {
        snprintf(err, errlen, "%s is empty", what);
        return 1;
    }
    /* Raw bits are an unsigned 0x...; "-0x3c00" would be the number -15360, too easily meant as bits:
     * a signed hex value must be a hex float with its binary exponent (-0x1.ep13). */
    if ((text[0] == '-' || text[0] == '+') && text[1] == '0' && (text[2] == 'x' || text[2] == 'X') &&
        !strpbrk(text, "pP")) {
        snprintf(err, errlen, "%s = '%s' is ambiguous: raw bits are an unsigned 0x<hex>, a signed hex number "
                 "needs its binary exponent (e.g. -0x1.8p1)", what, text);
        return 1;
    }
    if (cli_is_raw_hex(text)) {
        if (strlen(text) - 2 > 16) {
            snprintf(err, errlen, "%s = '%s' has more than 64 bits", what, text);
            return 1;
        }
        uint64_t v = strtoull(text + 2, NULL, 16);
        if (!mmaref_format_valid_bits(f, v)) {
            snprintf(err, errlen, "%s = '%s' does not fit in %s (%d bits)", what, text, fname,
                     mmaref_format_width(f));
            return 1;
        }
        *bits = v;
        return 0;
    }
    char *end;
    errno = 0;
    double x = strtod(text, &end);
    if (end == text || *end) {
        snprintf(err, errlen, "%s = '%s' is not a number (use 0x<hex bits> or a decimal like 1.5, 0x1p-3, -inf)",
                 what, text);
        return 1;
    }
    /* the decimal must denote a double exactly (strtold, wider, disagreeing means strtod rounded), and
     * that double must be a value of the format */
    const char *unsigned_text = text[0] == '-' || text[0] == '+' ? text + 1 : text;
    if (isnan(x) && (text != unsigned_text || strchr(text, '('))) {
        /* a number "nan" is the format's canonical NaN; a sign or payload would be silently lost */
        snprintf(err, errlen, "%s = '%s': a NaN's sign and payload are not taken from a number; give its raw "
                 "bits (0x<hex>) instead", what, text);
        return 1;
    }
    int named = isalpha((unsigned char)unsigned_text[0]); /* inf, infinity, nan */
    int exact_double = named ? isinf(x) || isnan(x)
                             : errno != ERANGE && literal_is_exactly(unsigned_text, fabs(x));
    if (!exact_double || mmaref_format_from_double(f, x, bits) != MMAREF_OK) {
        uint64_t near;
        char hint[128] = "", dec[64];
        if (mmaref_format_round_double(f, x, &near) == MMAREF_OK && !isnan(mmaref_format_to_double(f, near))) {
            cli_format_real(dec, sizeof dec, f, near);
            snprintf(hint, sizeof hint, " (nearest: 0x%0*llx = %s)", cli_hex_digits(f), (unsigned long long)near,
                     dec);
        }
        snprintf(err, errlen, "%s = '%s' is not exactly representable in %s%s", what, text, fname, hint);
        return 1;
    }
    return 0;
}

