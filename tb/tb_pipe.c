/* Pipe mode of the Verilated benches (+pipe): a unit driven by another tool, as `mmaref batch` is.  Each
 * line of stdin is one dot-add in `mmaref batch`'s format -- C A0..A(K-1) B0..B(K-1) [SA.. SB..], hex,
 * blank lines and '#' comments skipped -- and the unit's D goes to stdout, one per line, in order, in
 * batch's format (0x and the D format's hex digits).  `mmaref probe` drives a device this way.
 * A bad line stops the run: the D's before it are written, then a one-line error on stderr, exit 2. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svdpi.h"
#include "mmaref_dpi.h"
#include "tb_support.h"

static long pipe_line;

static void bad_line(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    fprintf(stderr, "pipe: stdin line %ld", pipe_line);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(2);
}

/* The next line's operands: A and B packed at lane_w bits a value (32: the 32-bit lanes of
 * mmaref_tb_gen; the format's width: a packed operand word), scales in 32-bit slots.  Returns 1, or 0 at
 * the end of stdin. */
int mmaref_tb_pipe_read(int h, int lane_w, unsigned long long *c, svBitVecVal *a, svBitVecVal *b,
                        svBitVecVal *sa, svBitVecVal *sb)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    if (!in || in->k * lane_w > 32 * DPI_MAX_K) {
        fprintf(stderr, "pipe: %s does not fit the bench's operand words\n", mmaref_dpi_label(h));
        exit(2);
    }
    int k = in->k, ns = mmaref_scale_count(in), fields = 1 + 2 * k + 2 * ns;
    static char line[1 << 16];
    uint64_t v[1 + 2 * DPI_MAX_K + 2 * DPI_MAX_SCALE];
    while (fgets(line, sizeof line, stdin)) {
        pipe_line++;
        if (strlen(line) == sizeof line - 1 && line[sizeof line - 2] != '\n')
            bad_line(" is longer than %zu characters", sizeof line - 2);
        char *p = line, *end;
        int n = 0;
        for (;;) {
            while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
                p++;
            if (!*p || *p == '#')
                break;
            if (n == fields)
                bad_line(": more than %d fields (c, %d a, %d b, %d sa, %d sb)", fields, k, k, ns, ns);
            v[n] = strtoull(p, &end, 16);
            if (end == p || (*end && !strchr(" \t\r\n#", *end)))
                bad_line(", field %d: not a hex number", n + 1);
            p = end;
            n++;
        }
        if (n == 0)
            continue;
        if (n != fields)
            bad_line(": %d fields, expected %d (c, %d a, %d b, %d sa, %d sb)", n, fields, k, k, ns, ns);
        /* every field must fit its format (silently dropping bits would drive another operand) */
        for (int i = 0; i < fields; i++) {
            mmaref_format f = i == 0 ? in->c : i <= k ? in->a : i <= 2 * k ? in->b : in->scale;
            if (!mmaref_format_valid_bits(f, v[i]))
                bad_line(", field %d: 0x%llx does not fit in %s", i + 1, (unsigned long long)v[i], mmaref_format_name(f));
        }
        *c = v[0];
        tb_pack(a, DPI_MAX_K, v + 1, k, lane_w);
        tb_pack(b, DPI_MAX_K, v + 1 + k, k, lane_w);
        tb_pack(sa, DPI_MAX_SCALE, v + 1 + 2 * k, ns, 32);
        tb_pack(sb, DPI_MAX_SCALE, v + 1 + 2 * k + ns, ns, 32);
        return 1;
    }
    return 0;
}

/* D in `mmaref batch`'s format */
void mmaref_tb_pipe_write(int h, unsigned long long d)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    printf("0x%0*llx\n", (mmaref_format_width(in->d) + 3) / 4, d);
}

void mmaref_tb_pipe_end(void) { fflush(stdout); }
