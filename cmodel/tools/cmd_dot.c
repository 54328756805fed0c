/* mmaref dot ARCH INSTR -a LIST -b LIST -c VALUE [--scale-a LIST --scale-b LIST] */
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: mmaref dot ARCH INSTRUCTION -a LIST -b LIST -c VALUE [--scale-a LIST --scale-b LIST]\n"
    "  Computes d = c + sum_k a[k]*b[k] (times the block scales) as the instruction does and prints\n"
    "  D's bits (0x..., zero-padded to D's width) then its decimal value.\n"
    "  LIST is comma-separated.  A value is 0x<hex digits> (raw bits of the operand's format) or a\n"
    "  C99 number (1.5, 0x1p-24, -inf, nan) exactly representable in the operand's format; a complex\n"
    "  (f32c) value is 0x<16 hex digits> (imaginary part high) or RE+IMi (1.5-2i, 2i, -i, 0x1p-3+0.5i).\n"
    "  Fewer than K values: the rest are +0.  More than K: an error.\n";

int cmd_dot(int argc, char **argv)
{
    const char *pos[2] = {0, 0};
    cli_operand_text ops = {0};
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        int taken = cli_operand_option("dot", &ops, argc, argv, &i);
        if (taken < 0)
            return 2;
        if (taken)
            continue;
        if (o[0] == '-' && o[1] && !(o[1] >= '0' && o[1] <= '9') && o[1] != '.')
            return cli_error("dot: unknown option '%s' (see 'mmaref dot --help')", o);
        if (npos >= 2)
            return cli_error("dot: unexpected argument '%s'", o);
        pos[npos++] = o;
    }
    if (npos < 2)
        return cli_error("dot: needs ARCH and INSTRUCTION (see 'mmaref dot --help')");
    mmaref_instr in;
    if (cli_lookup(pos[0], pos[1], &in))
        return 2;
    cli_operands v;
    int rc = cli_operand_read("dot", &in, &ops, &v);
    if (rc)
        return rc;
    uint64_t d;
    char msg[512];
    if (mmaref_dot(&in, v.c, v.a, v.b, v.ns ? v.sa : NULL, v.ns ? v.sb : NULL, &d, msg, sizeof msg))
        return cli_error("dot: %s", msg);
    cli_print_value(stdout, in.d, d);
    return 0;
}
