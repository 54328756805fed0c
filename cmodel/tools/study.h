/* Shared pieces of the `mmaref study` commands (cmd_study.c: rounding-bias, cmd_study_m3xu.c: m3xu):
 * the parsed options, the output directory and the gnuplot run. */
#ifndef MMAREF_STUDY_H
#define MMAREF_STUDY_H

#include <stddef.h>
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

/* A path as a gnuplot single-quoted string: a quote inside is written twice. */
void study_gnuplot_string(char *out, size_t cap, const char *path);

/* Runs `gnuplot GP` from an argument vector (no shell sees the path) and reports PNG on stdout;
 * 0 on success, else 1 after a one-line error (gnuplot missing: how to install it and rerun). */
int study_run_gnuplot(const char *gp, const char *png, const char *csv);

/* mmaref study m3xu (cmd_study_m3xu.c) and its lines of `mmaref study --help`. */
int study_m3xu(const study_options *o);
extern const char study_m3xu_usage[];

#endif
