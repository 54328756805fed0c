/* Shared pieces of the `mmaref study` commands (cmd_study.c: rounding-bias, cmd_study_m3xu.c: m3xu):
 * the parsed options, the output directory and the gnuplot run. */
#ifndef MMAREF_STUDY_H
#define MMAREF_STUDY_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* The most samples a study takes: 10^7 rows are about 1 GB of rounding-bias CSV. */
enum { STUDY_MAX_SAMPLES = 10000000 };

typedef struct {
    const char *dir; /* --out DIR */
    long samples;    /* --samples N; 0 when not given (each study has its own default) */
    uint64_t seed;   /* --seed S */
    int plot;        /* 0 with --no-plot */
} study_options;

/* mkdir -p; 0 on success, -1 with errno set. */
int study_mkdir_p(const char *path);

/* text as a gnuplot single-quoted string, quotes included, into out: a quote inside is written twice, and
 * nothing else is special there (no backslash escapes, no backquote command substitution, unlike a
 * double-quoted string).  A control byte cannot be written in one (a newline would end the command and
 * start another), nor a string that does not fit: then nonzero, and out is ''. */
int study_gnuplot_string(char *out, size_t cap, const char *text);

/* The gnuplot scripts.  They name their CSV and PNG relative to the output directory (gnuplot runs
 * there: study_run_gnuplot), so no byte of --out is ever in a script; the names go through
 * study_gnuplot_string.  The PNG is the variable png when set (gnuplot -e), else png_name.  Nonzero if
 * a name is refused or a write fails. */
int study_rounding_bias_gp(FILE *f, const char *csv, const char *png, long samples, double lo, double hi);
int study_m3xu_gp(FILE *f, const char *csv, const char *png, long samples, int top);

/* Runs `gnuplot -e "png = '<temporary>'" GP` in directory dir from an argument vector (no shell sees a
 * path) and renames the temporary over png when gnuplot succeeds (outfile.h), then reports png on
 * stdout; 0 on success, else 1 after a one-line error (gnuplot missing: how to install it and rerun).
 * png and csv are the full paths. */
int study_run_gnuplot(const char *dir, const char *gp, const char *png, const char *csv);

/* mmaref study m3xu (cmd_study_m3xu.c) and its lines of `mmaref study --help`. */
int study_m3xu(const study_options *o);
extern const char study_m3xu_usage[];

#endif
