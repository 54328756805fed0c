/* mmaref list [ARCH] [--json]: the instruction table, one instruction per line. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: mmaref list [ARCH] [--json]\n"
    "  One instruction per line: arch, name, MxNxK (/Nb: N concurrent blocks), a/b/c/d formats,\n"
    "  algorithm with its parameters (F fractional bits, G group, ftz flushing, scale format/block,\n"
    "  output rounding), SASS/ISA alias.  --json prints an array of objects with every table field.\n";

/* "CoFDA(F=24,f32-rz)", "GDFS(F=35,G=16,ue4m3/16,f32-rz)", "SFMA(f64-rne)" */
static void algo_text(char *buf, size_t cap, const mmaref_instr *in)
{
    const char *co = in->chain == 2 ? "Co" : "";
    int n = snprintf(buf, cap, "%s%s(", co, mmaref_algo_name(in->algo));
    if (in->algo != MMAREF_ALGO_SFMA && in->algo != MMAREF_ALGO_GPS)
        n += snprintf(buf + n, cap - n, "F=%d,", in->frac_bits);
    if (in->group)
        n += snprintf(buf + n, cap - n, "G=%d,", in->group);
    if (in->flush)
        n += snprintf(buf + n, cap - n, "ftz,");
    if (in->block_size)
        n += snprintf(buf + n, cap - n, "%s/%d,", mmaref_format_name(in->scale), in->block_size);
    snprintf(buf + n, cap - n, "%s)", mmaref_output_name(in->out));
}

int cmd_list(int argc, char **argv)
{
    const char *arch = NULL;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (argv[i][0] == '-')
            return cli_error("list: unknown option '%s'", argv[i]);
        else if (arch)
            return cli_error("list: more than one architecture given ('%s', '%s')", arch, argv[i]);
        else
            arch = argv[i];
    }
    if (arch && !mmaref_arch_canonical(arch)) {
        char msg[512];
        mmaref_instr unused;
        mmaref_lookup(arch, "", &unused, msg, sizeof msg); /* the library's message for an unknown arch */
        return cli_error("list: %s", msg);
    }
    size_t n = mmaref_list(arch, NULL, 0);
    mmaref_instr *all = calloc(n ? n : 1, sizeof *all);
    if (!all)
        return cli_error("list: out of memory");
    mmaref_list(arch, all, n);
    if (json)
        fputs("[\n", stdout);
    for (size_t i = 0; i < n; i++) {
        const mmaref_instr *in = &all[i];
        char algo[96];
        algo_text(algo, sizeof algo, in);
        if (json) {
            printf("  {\"arch\": \"%s\", \"name\": \"%s\", \"sass\": \"%s\", \"m\": %d, \"n\": %d, \"k\": %d, "
                   "\"blocks\": %d, \"a\": \"%s\", \"b\": \"%s\", \"c\": \"%s\", \"d\": \"%s\", "
                   "\"scale\": \"%s\", \"block_size\": %d, \"algo\": \"%s\", \"frac_bits\": %d, "
                   "\"group\": %d, \"chain\": %d, \"flush\": %d, \"out\": \"%s\"}%s\n",
                   in->arch, in->name, in->sass, in->m, in->n, in->k, in->blocks, mmaref_format_name(in->a),
                   mmaref_format_name(in->b), mmaref_format_name(in->c), mmaref_format_name(in->d),
                   in->block_size ? mmaref_format_name(in->scale) : "", in->block_size,
                   mmaref_algo_name(in->algo), in->frac_bits, in->group, in->chain, in->flush,
                   mmaref_output_name(in->out), i + 1 < n ? "," : "");
        } else {
            char shape[32], fmts[64];
            /* concurrent independent products per instruction shown as "/4b" (HMMA.884, AMD _Nb) */
            int w = snprintf(shape, sizeof shape, "%dx%dx%d", in->m, in->n, in->k);
            if (in->blocks > 1)
                snprintf(shape + w, sizeof shape - w, "/%db", in->blocks);
            snprintf(fmts, sizeof fmts, "%s/%s/%s/%s", mmaref_format_name(in->a), mmaref_format_name(in->b),
                     mmaref_format_name(in->c), mmaref_format_name(in->d));
            printf("%-13s %-52s %-10s %-24s %-30s %s\n", in->arch, in->name, shape, fmts, algo,
                   in->sass[0] ? in->sass : "-");
        }
    }
    if (json)
        fputs("]\n", stdout);
    free(all);
    return 0;
}
