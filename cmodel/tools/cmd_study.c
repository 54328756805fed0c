/* mmaref study: the studies by name (rounding-bias, here; m3xu, cmd_study_m3xu.c) and rounding-bias, the
 * paper's Fig. 2 (MMA-Sim paper, section VI-C(b)).
 *
 * C ~ N(0,1) rounded to f32, A and B ~ 1000 N(0,1) rounded to f16, through CDNA3
 * v_mfma_f32_32x32x8_f16 (FDRDA: s_dot and c aligned to e_max rounding DOWN) and through the same
 * algorithm rounding toward zero there (the paper's hypothetical v_mfma_f32_32x32x8_f16_rz).  The
 * deviations delta = D - D_exact are exact in sign (D_exact is carried as a nonoverlapping expansion of
 * doubles) and correctly rounded to double in value. */
#include <errno.h>
#include <unistd.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>

#include "cli.h"
#include "expansion.h"
#include "outfile.h"
#include "study.h"

static const char usage[] =
    "usage: mmaref study rounding-bias [--samples N] [--seed S] [--out DIR] [--no-plot]\n"
    "  Reproduces the MMA-Sim paper's Fig. 2: C ~ N(0,1) (f32), A, B ~ 1000*N(0,1) (f16, rounded to nearest) through\n"
    "  cdna3 v_mfma_f32_32x32x8_f16 (FDRDA, round-down alignment) and the same algorithm with round-toward-\n"
    "  zero alignment; delta = D - exact.  Prints mean, median, standard deviation and the shares of\n"
    "  negative, zero and positive deltas; writes DIR/rounding-bias.csv (one dot-add per row) and\n"
    "  DIR/rounding-bias.png (histograms, drawn by gnuplot from DIR/rounding-bias.gp).\n"
    "  --samples N  dot-adds (K = 8 each), default 100000, at most 10000000; each costs about 100 bytes of\n"
    "               CSV and 44 bytes of memory (10^7: about 1 GB of CSV, 440 MB of memory, a minute)\n"
    "  --seed S     random seed, default 1\n"
    "  --out DIR    output directory, default build/study (no control characters); each file replaces the\n"
    "               previous one only when complete; the .gp script names its files relative to DIR\n"
    "  --no-plot    write the CSV and the gnuplot script but do not run gnuplot\n";

/* The files written below --out DIR. */
#define CSV_NAME "rounding-bias.csv"
#define GP_NAME "rounding-bias.gp"
#define PNG_NAME "rounding-bias.png"

/* ---- random numbers: the library's splitmix64 and Box-Muller ---- */

typedef struct {
    uint64_t s;
    int have_spare;
    double spare;
} rng;

static double rng_uniform(rng *r) { return ((mmaref_rand(&r->s) >> 11) + 0.5) * 0x1p-53; } /* (0, 1) */

static double rng_normal(rng *r)
{
    if (r->have_spare) {
        r->have_spare = 0;
        return r->spare;
    }
    double u = rng_uniform(r), v = rng_uniform(r), rad = sqrt(-2.0 * log(u));
    r->spare = rad * sin(2 * M_PI * v);
    r->have_spare = 1;
    return rad * cos(2 * M_PI * v);
}

/* x rounded to nearest even in format f (f16 and f32 hold every sign and class of a double). */
static uint64_t round_to(mmaref_format f, double x)
{
    uint64_t bits = 0;
    mmaref_format_round_double(f, x, &bits);
    return bits;
}

static double f32_value(uint64_t bits) { return mmaref_format_to_double(MMAREF_F32, bits); }

/* ---- statistics ---- */

typedef struct {
    double mean, median, sd, min, max, neg, zero, pos;
    double p001, p999;  /* 0.1% and 99.9% quantiles (the histogram's range) */
} stats;

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static stats summarize(const double *v, const int *sign, long n, double *scratch)
{
    stats s = {0};
    double sum = 0, sq = 0;
    long neg = 0, zero = 0;
    for (long i = 0; i < n; i++) {
        sum += v[i];
        neg += sign[i] < 0;
        zero += sign[i] == 0;
        scratch[i] = v[i];
    }
    s.mean = sum / n;
    for (long i = 0; i < n; i++)
        sq += (v[i] - s.mean) * (v[i] - s.mean);
    s.sd = n > 1 ? sqrt(sq / (n - 1)) : 0;
    qsort(scratch, (size_t)n, sizeof *scratch, cmp_double);
    s.median = n % 2 ? scratch[n / 2] : 0.5 * (scratch[n / 2 - 1] + scratch[n / 2]);
    s.p001 = scratch[(long)(0.001 * (n - 1))];
    s.p999 = scratch[(long)(0.999 * (n - 1))];
    s.min = scratch[0];
    s.max = scratch[n - 1];
    s.neg = (double)neg / n;
    s.zero = (double)zero / n;
    s.pos = 1.0 - s.neg - s.zero;
    return s;
}

static void print_stats(const char *label, stats s)
{
    printf("  %-34s mean %+.6g  median %+.6g  sd %.6g  min %+.6g  max %+.6g\n", label, s.mean, s.median, s.sd,
           s.min, s.max);
    printf("  %-34s negative %.2f%%  zero %.2f%%  positive %.2f%%\n", "", 100 * s.neg, 100 * s.zero, 100 * s.pos);
}

int study_rounding_bias_gp(FILE *f, const char *csv_name, const char *png_name, long n, double lo, double hi)
{
    char csv[2 * PATH_MAX + 3], png[2 * PATH_MAX + 3];
    if (study_gnuplot_string(csv, sizeof csv, csv_name) || study_gnuplot_string(png, sizeof png, png_name))
        return -1;
    double w = (hi - lo) / 120;
    if (!(w > 0))
        w = 1;
    fprintf(f,
            "# mmaref study rounding-bias: histograms of delta = D - exact (MMA-Sim paper, Fig. 2);\n"
            "# run in the directory of the CSV (mmaref study does)\n"
            "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size 1000,560 } "
            "else { set terminal png size 1000,560 }\n"
            "if (!exists(\"png\")) png = %s\nset output png\n"
            "set datafile separator ','\n"
            "set termoption noenhanced\n"
            "set title 'cdna3 v_mfma_f32_32x32x8_f16: C ~ N(0,1), A, B ~ 1000 N(0,1), %ld dot-adds'\n"
            "set xlabel 'delta = D - exact'\nset ylabel 'count'\n"
            "set style fill transparent solid 0.45 noborder\nset key top right\nset grid\n"
            "w = %.17g\nbin(x) = w * floor(x / w) + w / 2\n"
            "set xrange [%.17g:%.17g]\n"
            "plot %s every ::1 using (bin($6)):(1.0) smooth frequency with boxes lc rgb '#d62728' "
            "title 'RD (CDNA3 FDRDA)', \\\n"
            "     '' every ::1 using (bin($7)):(1.0) smooth frequency with boxes lc rgb '#1f77b4' "
            "title 'RZ (hypothetical _rz)'\n",
            png, n, w, lo - w, hi + w, csv);
    return ferror(f) ? -1 : 0;
}

static int rounding_bias(long samples, uint64_t seed, const char *dir, int plot)
{
    mmaref_instr in;
    if (cli_lookup("cdna3", "v_mfma_f32_32x32x8_f16", &in))
        return 2;
    /* The paper's hypothetical v_mfma_f32_32x32x8_f16_rz: the same schedule, aligning toward zero. */
    mmaref_instr in_rz = in;
    for (int i = 0; i < in_rz.passes; i++)
        in_rz.pass[i].align_products = in_rz.pass[i].align_c = MMAREF_RZ;
    /* the longest file name written below DIR, with its temporary's suffix (outfile.c) */
    if (strlen(dir) + sizeof "/" CSV_NAME ".tmpXXXXXX" > PATH_MAX)
        return cli_error("study: --out '%.40s...' is longer than a path can be (%d bytes with the file name)", dir,
                         PATH_MAX);
    if (study_mkdir_p(dir))
        return cli_error("study: cannot create directory '%s': %s", dir, strerror(errno));
    char csv[PATH_MAX], gp[PATH_MAX], png[PATH_MAX], err[300];
    snprintf(csv, sizeof csv, "%s/" CSV_NAME, dir);
    snprintf(gp, sizeof gp, "%s/" GP_NAME, dir);
    snprintf(png, sizeof png, "%s/" PNG_NAME, dir);
    /* the CSV and the script replace what was there only when both are complete (outfile.h) */
    out_file csv_out, gp_out;
    if (out_file_open(&csv_out, csv, err, sizeof err))
        return cli_error("study: cannot write '%s': %s", csv, err);
    FILE *out = csv_out.f;
    double *d_rd = malloc(samples * sizeof *d_rd), *d_rz = malloc(samples * sizeof *d_rz);
    double *scratch = malloc(samples * sizeof *scratch);
    int *s_rd = malloc(samples * sizeof *s_rd), *s_rz = malloc(samples * sizeof *s_rz);
    if (!d_rd || !d_rz || !scratch || !s_rd || !s_rz) {
        out_file_abandon(&csv_out);
        free(d_rd), free(d_rz), free(scratch), free(s_rd), free(s_rz);
        return cli_error("study: out of memory for %ld samples", samples);
    }
    rng r = {seed, 0, 0};
    fprintf(out, "i,c,exact,d_rd,d_rz,delta_rd,delta_rz\n");
    for (long i = 0; i < samples; i++) {
        uint64_t a[8], b[8], c = round_to(MMAREF_F32, rng_normal(&r));
        expansion exact = {{0}, 0};
        for (int k = 0; k < in.k; k++) {
            a[k] = round_to(MMAREF_F16, 1000 * rng_normal(&r));
            b[k] = round_to(MMAREF_F16, 1000 * rng_normal(&r));
            /* f16 x f16 has at most 22 significant bits: exact in binary64 */
            expansion_add(&exact, mmaref_format_to_double(MMAREF_F16, a[k]) * mmaref_format_to_double(MMAREF_F16, b[k]));
        }
        expansion_add(&exact, f32_value(c));
        uint64_t rd, rz;
        char msg[256];
        if (mmaref_dot(&in, c, a, b, NULL, NULL, &rd, msg, sizeof msg) ||
            mmaref_dot(&in_rz, c, a, b, NULL, NULL, &rz, msg, sizeof msg)) {
            out_file_abandon(&csv_out);
            free(d_rd), free(d_rz), free(scratch), free(s_rd), free(s_rz);
            return cli_error("study: %s", msg);
        }
        expansion e_rd = exact, e_rz = exact;
        expansion_add(&e_rd, -f32_value(rd));
        expansion_add(&e_rz, -f32_value(rz));
        /* delta = D - exact: the negated expansions */
        d_rd[i] = -expansion_value(&e_rd);
        d_rz[i] = -expansion_value(&e_rz);
        s_rd[i] = (d_rd[i] > 0) - (d_rd[i] < 0);
        s_rz[i] = (d_rz[i] > 0) - (d_rz[i] < 0);
        errno = 0;
        if (fprintf(out, "%ld,%.9g,%.17g,%.17g,%.17g,%.17g,%.17g\n", i, f32_value(c), expansion_value(&exact),
                    f32_value(rd), f32_value(rz), d_rd[i], d_rz[i]) < 0) { /* a full disk, a file-size limit */
            int saved = errno;
            out_file_abandon(&csv_out);
            free(d_rd), free(d_rz), free(scratch), free(s_rd), free(s_rz);
            return cli_error("study: cannot write '%s': write error: %s", csv, saved ? strerror(saved) : "write failed");
        }
    }
    stats rd = summarize(d_rd, s_rd, samples, scratch), rz = summarize(d_rz, s_rz, samples, scratch);
    free(d_rd), free(d_rz), free(scratch), free(s_rd), free(s_rz);
    /* the histogram spans the 0.1%..99.9% quantiles of both deltas */
    if (out_file_open(&gp_out, gp, err, sizeof err)) {
        out_file_abandon(&csv_out);
        return cli_error("study: cannot write '%s': %s", gp, err);
    }
    if (study_rounding_bias_gp(gp_out.f, CSV_NAME, PNG_NAME, samples, fmin(rd.p001, rz.p001), fmax(rd.p999, rz.p999))) {
        out_file_abandon(&csv_out), out_file_abandon(&gp_out);
        return cli_error("study: cannot write '%s'", gp);
    }
    if (out_file_commit(&csv_out, err, sizeof err)) {
        out_file_abandon(&gp_out);
        return cli_error("study: cannot write '%s': %s", csv, err);
    }
    if (out_file_commit(&gp_out, err, sizeof err))
        return cli_error("study: cannot write '%s': %s", gp, err);

    printf("rounding-bias: %ld dot-adds of cdna3 %s (K = %d), seed %llu\n", samples, in.name, in.k,
           (unsigned long long)seed);
    printf("  C ~ N(0,1) as f32, A, B ~ 1000*N(0,1) as f16; delta = D - exact\n");
    print_stats("RD (CDNA3 FDRDA):", rd);
    print_stats("RZ (same algorithm, RZ alignment):", rz);
    printf("  csv: %s\n", csv);
    if (!plot) {
        printf("  gnuplot script: %s (not run: --no-plot)\n", gp);
        return 0;
    }
    return study_run_gnuplot(dir, GP_NAME, png, csv);
}

static int run_rounding_bias(const study_options *o)
{
    return rounding_bias(o->samples ? o->samples : 100000, o->seed, o->dir, o->plot);
}

/* Every study: its name, what it is in one line, its usage and its run. */
static const struct {
    const char *name, *summary, *usage;
    int (*run)(const study_options *);
} studies[] = {
    {"rounding-bias", "the MMA-Sim paper's Fig. 2: CDNA3's round-down alignment bias against RZ", usage,
     run_rounding_bias},
    {"m3xu", "M3XU's FP32 and FP32C accuracy against CUDA cores' FMA chain, 3xTF32 and 3xBF16",
     study_m3xu_usage, study_m3xu},
};
enum { STUDIES = sizeof studies / sizeof studies[0] };

static int study_index(const char *name)
{
    for (int i = 0; i < STUDIES; i++)
        if (!strcmp(studies[i].name, name))
            return i;
    return -1;
}

/* "rounding-bias, m3xu" */
static const char *study_names(char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < STUDIES; i++)
        n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%s", i ? ", " : "", studies[i].name);
    return buf;
}

/* `mmaref study --help`: every study in one line each, then each one's usage. */
static void print_overview(void)
{
    printf("usage: mmaref study STUDY [--samples N] [--seed S] [--out DIR] [--no-plot]\n"
           "  STUDY is one of:\n");
    for (int i = 0; i < STUDIES; i++)
        printf("    %-14s %s\n", studies[i].name, studies[i].summary);
    printf("  'mmaref study STUDY --help' describes one; each in turn:\n");
    for (int i = 0; i < STUDIES; i++)
        printf("\n%s", studies[i].usage);
}

int cmd_study(int argc, char **argv)
{
    const char *name = NULL;
    int help = 0;
    char names[128];
    study_options opt = {"build/study", 0, 1, 1};
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            help = 1;
        } else if (!strcmp(o, "--samples") || !strcmp(o, "--seed") || !strcmp(o, "--out")) {
            if (i + 1 >= argc)
                return cli_error("study: %s needs a value", o);
            const char *v = argv[++i];
            if (!strcmp(o, "--out")) {
                if (cli_check_path("study", "--out", v))
                    return 2;
                opt.dir = v;
            } else if (!strcmp(o, "--seed")) {
                uint64_t u;
                if (cli_parse_u64(v, &u))
                    return cli_error("study: --seed '%s' is not a non-negative integer (decimal or 0x hex)", v);
                opt.seed = u;
            } else if (cli_parse_count(v, STUDY_MAX_SAMPLES, &opt.samples) || opt.samples < 1) {
                return cli_error("study: --samples '%s' is not a decimal count from 1 to %d (about 100 bytes of "
                                 "CSV each in rounding-bias, 10 us each in m3xu)", v, STUDY_MAX_SAMPLES);
            }
        } else if (!strcmp(o, "--no-plot")) {
            opt.plot = 0;
        } else if (o[0] == '-') {
            return cli_error("study: unknown option '%s' (see 'mmaref study --help')", o);
        } else if (!name) {
            name = o;
        } else {
            return cli_error("study: unexpected argument '%s'", o);
        }
    }
    int which = name ? study_index(name) : -1;
    if (name && which < 0)
        return cli_error("study: unknown study '%s' (available: %s)", name, study_names(names, sizeof names));
    if (help) {
        if (which < 0)
            print_overview();
        else
            fputs(studies[which].usage, stdout);
        return 0;
    }
    if (!name)
        return cli_error("study: which study? (available: %s; see 'mmaref study --help')",
                         study_names(names, sizeof names));
    return studies[which].run(&opt);
}
