/* The operand options of one dot-add, shared by `mmaref dot` and `mmaref explain`:
 * -a LIST -b LIST -c VALUE [--scale-a LIST --scale-b LIST]. */
#include <string.h>

#include "cli.h"

int cli_operand_option(const char *cmd, cli_operand_text *o, int argc, char **argv, int *i)
{
    const char *opt = argv[*i];
    const char **slot = !strcmp(opt, "-a") ? &o->a : !strcmp(opt, "-b") ? &o->b : !strcmp(opt, "-c") ? &o->c
                      : !strcmp(opt, "--scale-a") ? &o->sa : !strcmp(opt, "--scale-b") ? &o->sb : NULL;
    if (!slot)
        return 0;
    if (*i + 1 >= argc)
        return cli_error("%s: %s needs a value", cmd, opt), -1;
    if (*slot)
        return cli_error("%s: %s given twice", cmd, opt), -1;
    *slot = argv[++*i];
    return 1;
}

int cli_operand_read(const char *cmd, const mmaref_instr *in, const cli_operand_text *o, cli_operands *v)
{
    if (!o->a || !o->b || !o->c)
        return cli_error("%s: %s needs %s (-a, -b and -c are all required)", cmd, in->name,
                         !o->a ? "-a LIST" : !o->b ? "-b LIST" : "-c VALUE");
    v->ns = mmaref_scale_count(in);
    if (v->ns && (!o->sa || !o->sb))
        return cli_error("%s: %s takes block scales: give --scale-a and --scale-b (%d %s values each)", cmd,
                         in->name, v->ns, mmaref_format_name(in->scale));
    if (!v->ns && (o->sa || o->sb))
        return cli_error("%s: %s has no block scales; drop --scale-a/--scale-b", cmd, in->name);
    memset(v->a, 0, sizeof v->a);
    memset(v->b, 0, sizeof v->b);
    int na, nb, nsa, nsb;
    char err[512];
    if (cli_parse_list(in->a, o->a, "a", v->a, in->k, &na, err, sizeof err) ||
        cli_parse_list(in->b, o->b, "b", v->b, in->k, &nb, err, sizeof err) ||
        cli_parse_value(in->c, o->c, "c", &v->c, err, sizeof err))
        return cli_error("%s: %s", cmd, err);
    if (v->ns) {
        /* missing scale factors default to 1.0 */
        uint64_t one;
        mmaref_format_from_double(in->scale, 1.0, &one);
        for (int i = 0; i < v->ns; i++)
            v->sa[i] = v->sb[i] = one;
        if (cli_parse_list(in->scale, o->sa, "scale-a", v->sa, v->ns, &nsa, err, sizeof err) ||
            cli_parse_list(in->scale, o->sb, "scale-b", v->sb, v->ns, &nsb, err, sizeof err))
            return cli_error("%s: %s", cmd, err);
    }
    return 0;
}
