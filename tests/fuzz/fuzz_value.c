/* libFuzzer: the CLI's value parser (cli_parse_value, what `mmaref dot -a/-b/-c` uses) and its list
 * form (cli_parse_list) on arbitrary strings.
 * Input: byte 0 picks the format (modulo MMAREF_FORMAT_COUNT) and, with bit 7, the list form; the
 * rest is the text.
 * What the parser promises (cmodel/tools/cli.h): blanks around a value are dropped; "0x" + hex digits
 * are raw bits that must fit the format; anything else is a C99 strtod number that must be exactly
 * representable.  Invariants of an accepted value:
 *   - the bits fit the format (mmaref_format_valid_bits);
 *   - raw bits are the hex number written;
 *   - a number is a C99 strtod literal (sign, decimal or hex float, inf, infinity, nan, nan(chars)),
 *     and the bits decode to exactly its value: compared digit by digit with the exact expansion of
 *     the decoded value in the literal's base (this harness's own reading of the literal, no strtod),
 *     the sign of a zero kept where the format has -0; nan gives a NaN, inf an infinity of its sign;
 *   - the decoded value written back as a hex float ("%a") and as raw bits parses to the same bits.
 * A refusal is a non-empty one-line message naming the operand.  A list is its comma-separated items,
 * each parsed as a value. */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <strings.h>

#include "cli.h"
#include "fuzz.h"

/* ---- this harness's reading of a C99 strtod literal (the whole text, nothing left over) ---- */

typedef enum { LIT_FINITE, LIT_INF, LIT_NAN } lit_kind;

typedef struct {
    lit_kind kind;
    bool neg;
    int base;           /* 10, or 2 for a hex float (its hex digits written out as bits) */
    char digits[1200];  /* significant digits, no leading or trailing zeros ("" is zero) */
    long exp;           /* value = digits (as an integer in base) * base^exp */
} literal;

#define EXP_LIMIT 100000000L /* exponents beyond this are saturated: no double is that far out */

static void normalise(literal *l)
{
    size_t lead = strspn(l->digits, "0"), n = strlen(l->digits);
    memmove(l->digits, l->digits + lead, n - lead + 1);
    n -= lead;
    while (n && l->digits[n - 1] == '0')
        l->digits[--n] = 0, l->exp++;
    if (!n)
        l->exp = 0;
}

static int digit_value(int c, int base)
{
    int v = isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : 99;
    return v < base ? v : -1;
}

/* Appends one digit of the literal's base (hex digits as four bits). */
static bool append_digit(literal *l, int v, int radix)
{
    size_t n = strlen(l->digits);
    if (n + 5 >= sizeof l->digits)
        return false;
    if (radix == 10) {
        l->digits[n] = (char)('0' + v), l->digits[n + 1] = 0;
    } else {
        for (int b = 3; b >= 0; b--)
            l->digits[n++] = (char)('0' + ((v >> b) & 1));
        l->digits[n] = 0;
    }
    return true;
}

static bool parse_literal(const char *s, literal *l)
{
    memset(l, 0, sizeof *l);
    l->neg = *s == '-';
    if (*s == '-' || *s == '+')
        s++;
    if (!strcasecmp(s, "inf") || !strcasecmp(s, "infinity")) {
        l->kind = LIT_INF;
        return true;
    }
    if (!strncasecmp(s, "nan", 3)) {
        l->kind = LIT_NAN;
        s += 3;
        if (!*s)
            return true;
        if (*s++ != '(')
            return false;
        while (isalnum((unsigned char)*s) || *s == '_')
            s++;
        return s[0] == ')' && !s[1];
    }
    int radix = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        radix = 16, s += 2;
    l->base = radix == 16 ? 2 : 10;
    long frac = 0; /* digits after the point, in the literal's digits (a hex digit is 4 bits) */
    bool any = false, point = false;
    for (;; s++) {
        if (*s == '.' && !point) {
            point = true;
            continue;
        }
        int v = digit_value((unsigned char)*s, radix);
        if (v < 0)
            break;
        if (!append_digit(l, v, radix))
            return false;
        any = true;
        frac += point;
    }
    if (!any)
        return false;
    long e = 0;
    if ((radix == 10 && (*s == 'e' || *s == 'E')) || (radix == 16 && (*s == 'p' || *s == 'P'))) {
        s++;
        bool eneg = *s == '-';
        if (*s == '-' || *s == '+')
            s++;
        if (!isdigit((unsigned char)*s))
            return false;
        for (; isdigit((unsigned char)*s); s++)
            if (e < EXP_LIMIT)
                e = e * 10 + (*s - '0');
        e = eneg ? -e : e;
    }
    if (*s)
        return false;
    l->exp = e - (radix == 16 ? 4 * frac : frac);
    normalise(l);
    return true;
}

/* The exact value of a finite double in base 10 or 2, as a literal. */
static void literal_of_double(double v, int base, literal *l)
{
    memset(l, 0, sizeof *l);
    l->base = base;
    l->neg = signbit(v);
    v = fabs(v);
    if (v == 0)
        return;
    if (base == 10) {
        char buf[1200];
        snprintf(buf, sizeof buf, "%.1100e", v); /* glibc prints a double's decimal expansion exactly */
        char *e = strchr(buf, 'e');
        long x = strtol(e + 1, NULL, 10);
        size_t n = 0;
        for (char *p = buf; p < e; p++)
            if (isdigit((unsigned char)*p))
                l->digits[n++] = *p;
        l->exp = x - (long)(n - 1);
    } else {
        int e2;
        uint64_t m = (uint64_t)ldexp(frexp(v, &e2), 53); /* v = m * 2^(e2 - 53), m exact */
        for (int b = 52; b >= 0; b--)
            l->digits[52 - b] = (char)('0' + ((m >> b) & 1));
        l->exp = e2 - 53;
    }
    normalise(l);
}

/* ---- the invariants ---- */

static int format_has_negative_zero(mmaref_format f)
{
    mmaref_format_info info;
    return mmaref_format_get_info(f, &info) == MMAREF_OK && info.has_sign && info.specials != MMAREF_SPECIALS_FNUZ &&
           info.specials != MMAREF_SPECIALS_E8M0;
}

static void check_refusal(const char *text, const char *err)
{
    FUZZ_CHECK(err[0] && fuzz_one_line(err, text), "refusal message empty or of two lines: '%s'", err);
    FUZZ_CHECK(strstr(err, "op"), "refusal of '%s' does not name the operand: %s", text, err);
}

static bool is_raw_bits(const char *t)
{
    return t[0] == '0' && (t[1] == 'x' || t[1] == 'X') && t[2] && strspn(t + 2, "0123456789abcdefABCDEF") == strlen(t + 2);
}

static void check_value(mmaref_format f, const char *text)
{
    char err[512] = "";
    uint64_t bits = 0;
    if (cli_parse_value(f, text, "op", &bits, err, sizeof err)) {
        check_refusal(text, err);
        return;
    }
    const char *fname = mmaref_format_name(f);
    FUZZ_CHECK(mmaref_format_valid_bits(f, bits), "'%s' accepted as 0x%llx, which does not fit %s", text,
               (unsigned long long)bits, fname);
    /* a complex format (f32c) reads RE+IMi (cli_complex.c): the literal invariants below are for one value */
    if (mmaref_format_parts(f) > 1)
        return;

    /* the text as the parser reads it: blanks around it dropped */
    while (isspace((unsigned char)*text))
        text++;
    size_t n = strlen(text);
    while (n && isspace((unsigned char)text[n - 1]))
        n--;
    char *t = fuzz_string((const uint8_t *)text, n);
    if (is_raw_bits(t)) {
        FUZZ_CHECK(bits == strtoull(t + 2, NULL, 16), "raw bits '%s' accepted as 0x%llx", t, (unsigned long long)bits);
        free(t);
        return;
    }
    literal lit, val;
    FUZZ_CHECK(parse_literal(t, &lit), "%s: accepted '%s', which is not a C99 strtod literal", fname, t);
    double v = mmaref_format_to_double(f, bits);
    if (lit.kind == LIT_NAN) {
        FUZZ_CHECK(isnan(v), "%s: '%s' accepted as 0x%llx, not a NaN", fname, t, (unsigned long long)bits);
    } else if (lit.kind == LIT_INF) {
        FUZZ_CHECK(isinf(v) && !!signbit(v) == lit.neg, "%s: '%s' accepted as 0x%llx = %g", fname, t,
                   (unsigned long long)bits, v);
    } else {
        FUZZ_CHECK(isfinite(v), "%s: '%s' accepted as 0x%llx = %g", fname, t, (unsigned long long)bits, v);
        literal_of_double(v, lit.base, &val);
        bool zero = !lit.digits[0];
        bool same = !strcmp(lit.digits, val.digits) && lit.exp == val.exp &&
                    (zero ? !format_has_negative_zero(f) || lit.neg == val.neg : lit.neg == val.neg);
        FUZZ_CHECK(same, "%s: '%s' accepted as 0x%llx = %.17g, not its exact value", fname, t,
                   (unsigned long long)bits, v);
    }
    if (!isnan(v)) { /* written back as a hex float, the value parses to the same bits */
        char hex[64];
        uint64_t again = ~0ULL;
        snprintf(hex, sizeof hex, "%a", v);
        FUZZ_CHECK(!cli_parse_value(f, hex, "op", &again, err, sizeof err) && again == bits,
                   "%s: '%s' gave 0x%llx, its value %s gives 0x%llx (%s)", fname, t, (unsigned long long)bits, hex,
                   (unsigned long long)again, err);
    }
    char raw[32];
    uint64_t again = ~0ULL;
    snprintf(raw, sizeof raw, "0x%llx", (unsigned long long)bits);
    FUZZ_CHECK(!cli_parse_value(f, raw, "op", &again, err, sizeof err) && again == bits,
               "%s: bits %s of '%s' do not parse back (%s)", fname, raw, t, err);
    free(t);
}

static void check_list(mmaref_format f, const char *text)
{
    enum { MAX = 8 };
    uint64_t vals[MAX + 1], one;
    int n = -1;
    char err[512] = "", err1[512];
    if (cli_parse_list(f, text, "op", vals, MAX, &n, err, sizeof err)) {
        check_refusal(text, err);
        return;
    }
    int commas = 0;
    for (const char *p = text; *p; p++)
        commas += *p == ',';
    FUZZ_CHECK(n == commas + 1 && n <= MAX, "list '%s' of %d items gave %d values", text, commas + 1, n);
    const char *item = text;
    for (int i = 0; i < n; i++) {
        size_t len = strcspn(item, ",");
        char *s = fuzz_string((const uint8_t *)item, len);
        FUZZ_CHECK(!cli_parse_value(f, s, "op", &one, err1, sizeof err1) && one == vals[i],
                   "list '%s': item %d '%s' gave 0x%llx, alone 0x%llx (%s)", text, i, s, (unsigned long long)vals[i],
                   (unsigned long long)one, err1);
        free(s);
        item += len + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    mmaref_format f = (mmaref_format)((data[0] & 0x7f) % MMAREF_FORMAT_COUNT);
    char *text = fuzz_string(data + 1, size - 1);
    if (data[0] & 0x80)
        check_list(f, text);
    else
        check_value(f, text);
    free(text);
    return 0;
}
