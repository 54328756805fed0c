/* mmaref list [ARCH] [--format F] [--algo A] [--grep TEXT] [--json] | mmaref list --schema [--json]: the
 * instruction table, one instruction per line (the filters keep the instructions that pass all of them), or
 * the schema (every code the table and the bit interfaces use). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "../src/kind_consts.h" /* the per-kind constants the hardware shares */

static const char usage[] =
    "usage: mmaref list [ARCH] [--format F] [--algo A] [--grep TEXT] [--json]\n"
    "       mmaref list --schema [--json]\n"
    "  One instruction per line: arch, name, MxNxK (/Nb: N concurrent blocks), a/b/c/d formats,\n"
    "  schedule (the paper's algorithm; Co = two passes over the halves of K) with its parameters (F\n"
    "  fractional bits, G group, ftz flushing, rd/rz alignment where not the kind's usual, scale\n"
    "  format/block, output rounding), SASS/ISA alias.  --json prints an array of objects with every\n"
    "  field, the passes of the schedule in \"schedule\".\n"
    "  Filters (each at most once; an instruction is listed when it passes all of them):\n"
    "  ARCH          the architecture (hopper, ada, ...)\n"
    "  --format F    F is one of the a, b, c, d formats (e4m3, f16, ...)\n"
    "  --algo A      the schedule is A, or one of its passes sums with A (FDA matches FDA and CoFDA;\n"
    "                CoFDA only CoFDA); case-insensitive\n"
    "  --grep TEXT   TEXT is part of the instruction's name (mma.m16n8k16, .e4m3.)\n"
    "  Filters that match nothing print nothing (--json: []) and exit 0.\n"
    "  --schema: every format (width, exponent and mantissa bits, bias, special values, canonical NaN;\n"
    "  a complex format's fields are its parts'),\n"
    "  output kind, rounding, summation kind and scaling with its numeric code, and the limits; --json\n"
    "  adds the per-kind constants the hardware shares (\"constants\") and the catalogue of RTL unit\n"
    "  kinds (\"units\": module, the summation kinds it runs, how it aligns, its parameters, input and\n"
    "  output ports).\n";

static void json_instr(const mmaref_instr *in, int last)
{
    char name[32];
    mmaref_schedule_name(in, name, sizeof name);
    printf("  {\"arch\": \"%s\", \"name\": \"%s\", \"sass\": \"%s\", \"m\": %d, \"n\": %d, \"k\": %d, "
           "\"blocks\": %d, \"a\": \"%s\", \"b\": \"%s\", \"c\": \"%s\", \"d\": \"%s\", \"scale\": \"%s\", "
           "\"block_size\": %d, \"algo\": \"%s\", \"c_last\": %d, \"schedule\": [",
           in->arch, in->name, in->sass, in->m, in->n, in->k, in->blocks, mmaref_format_name(in->a),
           mmaref_format_name(in->b), mmaref_format_name(in->c), mmaref_format_name(in->d),
           in->block_size ? mmaref_format_name(in->scale) : "", in->block_size, name, in->c_last);
    for (int i = 0; i < in->passes; i++) {
        const mmaref_pass *p = &in->pass[i];
        printf("%s", i ? ", " : "");
        cli_pass_json(stdout, p);
    }
    printf("]}%s\n", last ? "" : ",");
}

static void text_instr(const mmaref_instr *in)
{
    char shape[32], fmts[64], sched[192];
    /* concurrent independent products per instruction shown as "/4b" (HMMA.884, AMD _Nb) */
    int w = snprintf(shape, sizeof shape, "%dx%dx%d", in->m, in->n, in->k);
    if (in->blocks > 1)
        snprintf(shape + w, sizeof shape - w, "/%db", in->blocks);
    snprintf(fmts, sizeof fmts, "%s/%s/%s/%s", mmaref_format_name(in->a), mmaref_format_name(in->b),
             mmaref_format_name(in->c), mmaref_format_name(in->d));
    cli_schedule_text(sched, sizeof sched, in);
    printf("%-13s %-52s %-10s %-24s %-30s %s\n", in->arch, in->name, shape, fmts, sched,
           in->sass[0] ? in->sass : "-");
}

/* "0x7fc00000" or null. */
static void json_bits(const char *key, int missing, uint64_t bits, int width)
{
    if (missing)
        printf("\"%s\": null", key);
    else
        printf("\"%s\": \"0x%0*llx\"", key, (width + 3) / 4, (unsigned long long)bits);
}

/* The code lists of the schema besides formats and outputs (whose JSON has more fields): text label,
 * JSON key (NULL: text only), count, name of a code. */
static const char *output_name(int i) { return mmaref_output_name((mmaref_output)i); }
static const char *rounding_name(int i) { return mmaref_rounding_name((mmaref_rounding)i); }
static const char *algo_name(int i) { return mmaref_algo_name((mmaref_algo)i); }
static const char *scaling_name(int i) { return mmaref_scaling_name((mmaref_scaling)i); }
static const struct {
    const char *text, *json;
    int count;
    const char *(*name)(int);
} code_lists[] = {
    {"outputs", NULL, MMAREF_OUT_COUNT, output_name},
    {"roundings", "roundings", MMAREF_ROUNDING_COUNT, rounding_name},
    {"summation kinds", "algos", MMAREF_ALGO_COUNT, algo_name},
    {"scales", "scales", MMAREF_SCALES_COUNT, scaling_name},
};

/* The per-kind constants the RTL shares with the model (kind_consts.h): name (the C and SystemVerilog
 * name), the summation kind it belongs to (NULL: every kind), value. */
static const struct {
    const char *name, *algo;
    int value;
} kind_consts[] = {
    {"FDRDA_DOT_F", "FDRDA", FDRDA_DOT_F},
    {"FDRDA_C_F", "FDRDA", FDRDA_C_F},
    {"GFDRDA_C_WINDOW", "GFDRDA", GFDRDA_C_WINDOW},
    {"AMD_PRODUCT_OVERFLOW_EXP", "FDRDA", AMD_PRODUCT_OVERFLOW_EXP},
    {"GDFS_GROUP", "GDFS", GDFS_GROUP},
    {"M3XU_PRODUCT_FRAC_BITS", "M3XU", M3XU_PRODUCT_FRAC_BITS},
    {"M3XU_HALF_BITS", "M3XU", M3XU_HALF_BITS},
    {"ZERO_OPERAND_EXP", NULL, ZERO_OPERAND_EXP},
};

/* The catalogue of RTL unit kinds (rtl/, docs/rtl.md), in the order of their codes: name, top module,
 * the summation kinds of the passes it runs, how it aligns (the rounding of the passes' align_products
 * and align_c it implements: MMAREF_RZ truncates, MMAREF_RNE rounds to nearest even; ALIGN_BY_PARAMS:
 * its parameters take the table's, ALIGN_DOT and ALIGN_C), the parameters a configuration sets
 * (tb/gen_configs.py; in the order units.txt lists them), input and output ports, space-separated.
 * synth/gen_formats.py checks each against the module's header and writes the codes as UNIT_KIND_*
 * localparams. */
#define ALIGN_BY_PARAMS (-1)
static const struct {
    const char *name, *module, *algos;
    int align;
    const char *params, *inputs, *outputs;
} unit_kinds[] = {
    {"FDA", "fda_unit", "FDA", MMAREF_RZ,
     "K F CHAIN BLOCK AB_MASK C_MASK OUT_MASK ZERO_EXP K_RUN AB_F16 C_LAST",
     "clk rst_n in_valid fmt_a fmt_b fmt_c out_kind c a b sa sb out_ready", "in_ready out_valid d"},
    {"GDFS", "gdfs_unit", "GDFS", MMAREF_RZ, "K F", "clk rst_n in_valid fmt_s block32 c a b sa sb out_ready",
     "in_ready out_valid d"},
    {"M3XU", "m3xu_unit", "FDA M3XU", MMAREF_RZ, "L MUL_W AB_MASK F_LO F_HI OUT_LO OUT_HI PIPE",
     "clk rst_n in_valid fmt c a b out_ready", "in_ready out_valid d busy"},
    {"NAIVE_FP32", "naive_fp32_unit", "FDA M3XU", MMAREF_RZ, "L AB_MASK F_LO F_HI OUT_LO OUT_HI",
     "clk rst_n in_valid fmt c a b out_ready", "in_ready out_valid d busy"},
    {"FDRDA", "fdrda_unit", "FDRDA GFDRDA", ALIGN_BY_PARAMS, "K F CHAIN ALGO AB_MASK ALIGN_DOT ALIGN_C OUT",
     "clk rst_n in_valid fmt_a fmt_b c a b out_ready", "in_ready out_valid d"},
    {"GPS", "gps_unit", "GPS", MMAREF_RNE, "K G FLUSH AB_MASK OUT",
     "clk rst_n in_valid fmt_a fmt_b c a b out_ready", "in_ready out_valid d"},
    {"SFMA", "sfma_unit", "SFMA", MMAREF_RNE, "K OUT_MASK", "clk rst_n in_valid out_kind c a b out_ready",
     "in_ready out_valid d"},
};

/* A space-separated list as a JSON array of strings. */
static void json_words(const char *key, const char *words)
{
    printf("\"%s\": [", key);
    for (int n = 0; *words;) {
        size_t len = strcspn(words, " ");
        if (len)
            printf("%s\"%.*s\"", n++ ? ", " : "", (int)len, words);
        words += len + (words[len] == ' ');
    }
    printf("]");
}

static int schema(int json)
{
    if (!json) {
        printf("%-4s %-9s %5s %4s %4s %5s %4s %-5s %-18s %s\n", "code", "format", "width", "exp", "man", "bias",
               "sign", "spec", "canonical-nan", "ignored");
        for (int f = 0; f < MMAREF_FORMAT_COUNT; f++) {
            mmaref_format_info info, *x = &info;
            mmaref_format_get_info((mmaref_format)f, &info);
            char nan_text[24] = "-";
            if (x->has_nan)
                snprintf(nan_text, sizeof nan_text, "0x%0*llx", (x->width + 3) / 4, (unsigned long long)x->nan);
            printf("%-4d %-9s %5d %4d %4d %5d %4d %-5s %-18s 0x%llx\n", f, x->name, x->width, x->exp_bits,
                   x->man_bits, x->bias, x->has_sign, mmaref_specials_name(x->specials), nan_text,
                   (unsigned long long)x->ignored);
        }
        for (size_t t = 0; t < sizeof code_lists / sizeof code_lists[0]; t++) {
            printf("\n%s:", code_lists[t].text);
            for (int i = 0; i < code_lists[t].count; i++)
                printf(" %d=%s", i, code_lists[t].name(i));
        }
        printf("\nlimits: max_k=%d max_scales=%d max_passes=%d max_mn=%d max_blocks=%d\n", MMAREF_MAX_K,
               MMAREF_MAX_SCALES, MMAREF_MAX_PASSES, MMAREF_MAX_MN, MMAREF_MAX_BLOCKS);
        return 0;
    }
    printf("{\"formats\": [\n");
    for (int f = 0; f < MMAREF_FORMAT_COUNT; f++) {
        mmaref_format_info info, *x = &info;
        mmaref_format_get_info((mmaref_format)f, &info);
        printf("  {\"name\": \"%s\", \"code\": %d, \"width\": %d, \"exp_bits\": %d, \"man_bits\": %d, "
               "\"precision\": %d, \"bias\": %d, \"signed\": %d, \"specials\": \"%s\", \"ignored\": \"0x%llx\", ",
               x->name, f, x->width, x->exp_bits, x->man_bits, mmaref_format_precision((mmaref_format)f), x->bias,
               x->has_sign, mmaref_specials_name(x->specials), (unsigned long long)x->ignored);
        json_bits("canonical_nan", !x->has_nan, x->nan, x->width);
        printf(", ");
        json_bits("inf", !x->has_inf, x->inf, x->width);
        printf(", ");
        json_bits("max_finite", 0, x->max_finite, x->width);
        printf(", \"parts\": %d, \"part\": \"%s\"}%s\n", x->parts, mmaref_format_name(x->part),
               f + 1 < MMAREF_FORMAT_COUNT ? "," : "");
    }
    printf("],\n\"outputs\": [\n");
    for (int o = 0; o < MMAREF_OUT_COUNT; o++) {
        mmaref_output k = (mmaref_output)o;
        printf("  {\"name\": \"%s\", \"code\": %d, \"format\": \"%s\", \"rounding\": \"%s\", \"man_bits\": %d, "
               "\"signed_zero\": %d}%s\n",
               mmaref_output_name(k), o, mmaref_format_name(mmaref_output_format(k)),
               mmaref_rounding_name(mmaref_output_rounding(k)), mmaref_output_precision(k),
               mmaref_output_signed_zero(k), o + 1 < MMAREF_OUT_COUNT ? "," : "");
    }
    printf("]");
    for (size_t t = 0; t < sizeof code_lists / sizeof code_lists[0]; t++) {
        if (!code_lists[t].json)
            continue;
        printf(",\n\"%s\": [", code_lists[t].json);
        for (int i = 0; i < code_lists[t].count; i++)
            printf("%s{\"name\": \"%s\", \"code\": %d}", i ? ", " : "", code_lists[t].name(i), i);
        printf("]");
    }
    printf(",\n\"limits\": {\"max_k\": %d, \"max_scales\": %d, \"max_passes\": %d, \"max_mn\": %d, "
           "\"max_blocks\": %d}", MMAREF_MAX_K, MMAREF_MAX_SCALES, MMAREF_MAX_PASSES, MMAREF_MAX_MN, MMAREF_MAX_BLOCKS);
    printf(",\n\"constants\": [\n");
    for (size_t i = 0; i < sizeof kind_consts / sizeof kind_consts[0]; i++) {
        const char *algo = kind_consts[i].algo;
        printf("  {\"name\": \"%s\", \"algo\": %s%s%s", kind_consts[i].name, algo ? "\"" : "", algo ? algo : "null",
               algo ? "\"" : "");
        printf(", \"value\": %d}%s\n", kind_consts[i].value, i + 1 < sizeof kind_consts / sizeof kind_consts[0] ? "," : "");
    }
    printf("],\n\"units\": [\n");
    for (size_t i = 0; i < sizeof unit_kinds / sizeof unit_kinds[0]; i++) {
        printf("  {\"name\": \"%s\", \"code\": %d, \"module\": \"%s\", ", unit_kinds[i].name, (int)i,
               unit_kinds[i].module);
        json_words("algos", unit_kinds[i].algos);
        if (unit_kinds[i].align == ALIGN_BY_PARAMS)
            printf(", \"align\": null, ");
        else
            printf(", \"align\": \"%s\", ", mmaref_rounding_name((mmaref_rounding)unit_kinds[i].align));
        json_words("params", unit_kinds[i].params);
        printf(", ");
        json_words("inputs", unit_kinds[i].inputs);
        printf(", ");
        json_words("outputs", unit_kinds[i].outputs);
        printf("}%s\n", i + 1 < sizeof unit_kinds / sizeof unit_kinds[0] ? "," : "");
    }
    printf("]}\n");
    return 0;
}

/* The filters of a listing; NULL (or MMAREF_FORMAT_COUNT) where not given. */
typedef struct {
    mmaref_format format;
    const char *algo, *grep;
} list_filter;

/* The schedule is named algo ("CoFDA"), or one of its passes sums with it ("FDA"). */
static int runs_algo(const mmaref_instr *in, const char *algo)
{
    char name[32];
    mmaref_schedule_name(in, name, sizeof name);
    if (!strcasecmp(name, algo))
        return 1;
    for (int i = 0; i < in->passes; i++)
        if (!strcasecmp(mmaref_algo_name(in->pass[i].algo), algo))
            return 1;
    return 0;
}

static int passes_filter(const mmaref_instr *in, const list_filter *f)
{
    if (f->format != MMAREF_FORMAT_COUNT && in->a != f->format && in->b != f->format && in->c != f->format &&
        in->d != f->format)
        return 0;
    if (f->algo && !runs_algo(in, f->algo))
        return 0;
    return !f->grep || strstr(in->name, f->grep);
}

/* --algo names a summation kind, or a schedule some instruction of the table (any architecture) has. */
static int known_algo(const char *algo)
{
    for (int a = 0; a < MMAREF_ALGO_COUNT; a++)
        if (!strcasecmp(mmaref_algo_name((mmaref_algo)a), algo))
            return 1;
    size_t n = mmaref_list(NULL, NULL, 0);
    mmaref_instr *all = calloc(n ? n : 1, sizeof *all);
    int known = 0;
    if (all) {
        mmaref_list(NULL, all, n);
        for (size_t i = 0; i < n && !known; i++)
            known = runs_algo(&all[i], algo);
        free(all);
    }
    return known;
}

/* The value of option argv[*i] into *v, once. */
static int filter_value(int argc, char **argv, int *i, const char **v)
{
    if (*i + 1 >= argc)
        return cli_error("list: %s needs a value", argv[*i]);
    if (*v)
        return cli_error("list: %s given twice", argv[*i]);
    *v = argv[++*i];
    if (!**v)
        return cli_error("list: %s needs a value, not ''", argv[*i - 1]);
    return 0;
}

int cmd_list(int argc, char **argv)
{
    const char *arch = NULL, *format = NULL;
    list_filter filter = {MMAREF_FORMAT_COUNT, NULL, NULL};
    int json = 0, want_schema = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--format")) {
            if (filter_value(argc, argv, &i, &format))
                return 2;
        } else if (!strcmp(argv[i], "--algo")) {
            if (filter_value(argc, argv, &i, &filter.algo))
                return 2;
        } else if (!strcmp(argv[i], "--grep")) {
            if (filter_value(argc, argv, &i, &filter.grep))
                return 2;
        } else if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "--schema"))
            want_schema = 1;
        else if (argv[i][0] == '-')
            return cli_error("list: unknown option '%s'", argv[i]);
        else if (arch)
            return cli_error("list: more than one architecture given ('%s', '%s')", arch, argv[i]);
        else
            arch = argv[i];
    }
    if (want_schema && arch)
        return cli_error("list: --schema takes no architecture ('%s' given)", arch);
    if (want_schema && (format || filter.algo || filter.grep))
        return cli_error("list: --schema takes no filter (--format, --algo, --grep)");
    if (want_schema)
        return schema(json);
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
    /* every record of the table must be a schedule the model can run, within MMAREF_MAX_K */
    for (size_t i = 0; i < n; i++) {
        char msg[256];
        if (mmaref_check_schedule(&all[i], msg, sizeof msg)) {
            int rc = cli_error("list: the instruction table has a bad entry (%s): %s", all[i].arch, msg);
            free(all);
            return rc;
        }
    }
    if (format) {
        filter.format = mmaref_format_by_name(format);
        if (filter.format == MMAREF_FORMAT_COUNT) {
            free(all);
            return cli_error("list: --format: unknown format '%s' (mmaref list --schema lists them)", format);
        }
    }
    if (filter.algo && !known_algo(filter.algo)) {
        char names[256] = "";
        for (int a = 0, w = 0; a < MMAREF_ALGO_COUNT && w < (int)sizeof names; a++)
            w += snprintf(names + w, sizeof names - (size_t)w, "%s%s", a ? ", " : "", mmaref_algo_name((mmaref_algo)a));
        free(all);
        return cli_error("list: --algo: unknown algorithm '%s' (%s, or a schedule such as CoFDA)", filter.algo,
                         names);
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (passes_filter(&all[i], &filter))
            all[kept++] = all[i];
    n = kept;
    if (json)
        fputs("[\n", stdout);
    for (size_t i = 0; i < n; i++) {
        if (json)
            json_instr(&all[i], i + 1 == n);
        else
            text_instr(&all[i]);
    }
    if (json)
        fputs("]\n", stdout);
    free(all);
    return 0;
}
