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
    const char *pos[2] = {0, 0}, *la = NULL, *lb = NULL, *lc = NULL, *lsa = NULL, *lsb = NULL;
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        const char **slot = !strcmp(o, "-a") ? &la : !strcmp(o, "-b") ? &lb : !strcmp(o, "-c") ? &lc
                          : !strcmp(o, "--scale-a") ? &lsa : !strcmp(o, "--scale-b") ? &lsb : NULL;
        if (slot) {
            if (i + 1 >= argc)
                return cli_error("dot: %s needs a value", o);
            if (*slot)
                return cli_error("dot: %s given twice", o);
            *slot = argv[++i];
        } else if (o[0] == '-' && o[1] && !(o[1] >= '0' && o[1] <= '9') && o[1] != '.') {
            return cli_error("dot: unknown option '%s' (see 'mmaref dot --help')", o);
        } else if (npos < 2) {
            pos[npos++] = o;
        } else {
            return cli_error("dot: unexpected argument '%s'", o);
        }
    }
    if (npos < 2)
        return cli_error("dot: needs ARCH and INSTRUCTION (see 'mmaref dot --help')");
    mmaref_instr in;
    if (cli_lookup(pos[0], pos[1], &in))
        return 2;
    if (!la || !lb || !lc)
        return cli_error("dot: %s needs %s (-a, -b and -c are all required)", in.name,
                         !la ? "-a LIST" : !lb ? "-b LIST" : "-c VALUE");
    int ns = mmaref_scale_count(&in);
    if (ns && (!lsa || !lsb))
        return cli_error("dot: %s takes block scales: give --scale-a and --scale-b (%d %s values each)", in.name,
                         ns, mmaref_format_name(in.scale));
    if (!ns && (lsa || lsb))
        return cli_error("dot: %s has no block scales; drop --scale-a/--scale-b", in.name);

    uint64_t a[256] = {0}, b[256] = {0}, c, sa[64], sb[64];
    int na, nb, nsa, nsb;
    char err[512];
    if (cli_parse_list(in.a, la, "a", a, in.k, &na, err, sizeof err) ||
        cli_parse_list(in.b, lb, "b", b, in.k, &nb, err, sizeof err) ||
        cli_parse_value(in.c, lc, "c", &c, err, sizeof err))
        return cli_error("dot: %s", err);
    if (ns) {
        /* missing scale factors default to 1.0 */
        uint64_t one;
        mmaref_format_from_double(in.scale, 1.0, &one);
        for (int i = 0; i < ns; i++)
            sa[i] = sb[i] = one;
        if (cli_parse_list(in.scale, lsa, "scale-a", sa, ns, &nsa, err, sizeof err) ||
            cli_parse_list(in.scale, lsb, "scale-b", sb, ns, &nsb, err, sizeof err))
            return cli_error("dot: %s", err);
    }
    uint64_t d;
    char msg[512];
    if (mmaref_dot(&in, c, a, b, ns ? sa : NULL, ns ? sb : NULL, &d, msg, sizeof msg))
        return cli_error("dot: %s", msg);
    cli_print_value(stdout, in.d, d);
    return 0;
}
