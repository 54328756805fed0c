/* Complex operands (f32c) on the command line.  A value is raw bits (0x + up to 16 hex digits: the
 * imaginary part's bits above the real part's, handled by cli_parse_real) or "RE+IMi": RE and IM are
 * operands of the part format (f32) as cli_parse_real reads them (numbers exactly representable, or
 * a part's raw 0x bits), written as C writes complex literals: "1.5-2i", "0x1p-3+0.5i", "-i", "2i"
 * (pure imaginary), "1.5" (real), "nan+infi".  Printed the same way: "1.5-2i". */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One part's text into bits; "what" names the operand and the part in a message.  unit: the text stood
 * before an 'i', where nothing or a lone sign is the imaginary unit ("i", "+i", "-i"); elsewhere a lone
 * sign has no digits and is refused. */
static int parse_part(mmaref_format part, const char *text, const char *what, const char *which, int unit,
                      uint64_t *bits, char *err, size_t errlen)
{
    char name[96];
    snprintf(name, sizeof name, "%s (%s part)", what, which);
    const char *t = !unit ? text : !*text || !strcmp(text, "+") ? "1" : !strcmp(text, "-") ? "-1" : text;
    return cli_parse_real(part, t, name, bits, err, errlen);
}

int cli_parse_complex(mmaref_format f, const char *text, const char *what, uint64_t *bits, char *err, size_t errlen)
{
    mmaref_format part = mmaref_format_part(f);
    char re[128] = "0", im[128] = "0";
    int imaginary_written = 0;
    size_t n = strlen(text);
    if (n >= sizeof re) {
        snprintf(err, errlen, "%s is longer than %zu characters", what, sizeof re - 1);
        return 1;
    }
    if (n && text[n - 1] == 'i') {
        imaginary_written = 1;
        /* the real part is the longest number strtod reads at the start; the rest, signed, is IM */
        char body[128];
        memcpy(body, text, n - 1);
        body[n - 1] = 0;
        char *end;
        strtod(body, &end);
        if (end == body || !*end) { /* no real part: "2i", "-i", "i" */
            snprintf(im, sizeof im, "%s", body);
        } else if (*end == '+' || *end == '-') {
            snprintf(im, sizeof im, "%s", end);
            *end = 0;
            snprintf(re, sizeof re, "%s", body);
        } else {
            snprintf(err, errlen, "%s = '%s' is not a complex number (write RE+IMi, e.g. 1.5-2i, or 0x<hex bits>)",
                     what, text);
            return 1;
        }
    } else {
        snprintf(re, sizeof re, "%s", text);
    }
    uint64_t parts[2];
    if (parse_part(part, re, what, "real", 0, &parts[0], err, errlen) ||
        parse_part(part, im, what, "imaginary", imaginary_written, &parts[1], err, errlen))
        return 1;
    *bits = mmaref_format_join_parts(f, parts);
    return 0;
}

void cli_format_complex(char *buf, size_t cap, mmaref_format f, uint64_t bits)
{
    mmaref_format part = mmaref_format_part(f);
    char re[64], im[64];
    cli_format_real(re, sizeof re, part, mmaref_format_part_bits(f, bits, 0));
    cli_format_real(im, sizeof im, part, mmaref_format_part_bits(f, bits, 1));
    snprintf(buf, cap, "%s%s%si", re, im[0] == '-' ? "" : "+", im);
}
