/* batch_bench: the batched fast path (mmaref_dot_batch, docs/speed.md) beside today's one-at-a-time
 * mmaref_dot, in one run: dot-adds per second and cycles per product of every path on 1 thread, the
 * selected path on 2 threads, for the configurations with kernels.  Every path's D's are compared with
 * mmaref_dot's, bit for bit, before anything is timed.
 *
 * Operands: a pool of POOL dot-adds from the library's generator (the cluster kind: finite values near
 * one exponent, so that the fast path is what is timed), in mmaref_dot's row layout.  A figure is the
 * best of --repeats runs of about --seconds each.  Cycles per product = clock / (rate * K), the clock
 * read from /proc/cpuinfo ("cpu MHz", the nominal core clock; the VM gives no cycle counter), or
 * --clock-mhz.
 *
 * --paths LIST (comma-separated) times only those paths beside today's; --only TEXT only the
 * configurations whose label contains TEXT.  On a busy machine many short runs (--seconds 0.01
 * --repeats 60) find the quiet moments better than a few long ones.
 *
 * usage: batch_bench [--seconds S] [--repeats N] [--clock-mhz F] [--paths LIST] [--only TEXT] */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mmaref.h"

enum { POOL = 8192, THREADS = 2 };

typedef struct {
    const char *label, *arch, *name;
} bench_case;

static const bench_case cases[] = {
    {"FDA f16 (Hopper HMMA)", "hopper", "mma.m16n8k16.f32.f16.f16.f32"},
    {"CoFDA bf16 (Ampere HMMA)", "ampere", "mma.m16n8k16.f32.bf16.bf16.f32"},
    {"FDA e4m3 F=13 (Hopper QGMMA)", "hopper", "wgmma.m64n8k32.f32.e4m3.e4m3"},
    {"FDA e4m3 F=25 (RTX Blackwell QMMA)", "rtx-blackwell", "mma.m16n8k32.f32.e4m3.e4m3.f32"},
    {"GDFS e2m1 K=64 (RTX Blackwell OMMA)", "rtx-blackwell", "mma.m16n8k64.block16.f32.e2m1.e2m1.f32.ue4m3"},
    {"FDRDA f16 (CDNA3 MFMA)", "cdna3", "v_mfma_f32_32x32x8_f16"},
    {"GFDRDA e4m3fnuz (CDNA3 FP8 MFMA)", "cdna3", "v_mfma_f32_32x32x16_fp8_fp8"},
    {"SFMA f64 (Hopper DMMA)", "hopper", "mma.m16n8k16.f64.f64.f64.f64"},
    {"SFMA f32 (CDNA3 MFMA)", "cdna3", "v_mfma_f32_16x16x4_f32"},
    {"GPS f16 (CDNA2 MFMA)", "cdna2", "v_mfma_f32_32x32x8f16"},
};

static const char *const paths[] = {"reference", "generic", "avx2", "avx512"};
enum { NPATHS = 4 };

typedef struct {
    mmaref_instr in;
    uint64_t *c, *a, *b, *sa, *sb, *want, *got;
    int k, ns;
} pool;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "batch_bench: %s: %s\n", what, msg);
    exit(1);
}

static void fill(pool *p, const bench_case *bc)
{
    char msg[256];
    if (mmaref_lookup(bc->arch, bc->name, &p->in, msg, sizeof msg))
        die(bc->name, msg);
    p->k = p->in.k, p->ns = mmaref_scale_count(&p->in);
    size_t kk = (size_t)p->k, ss = (size_t)(p->ns ? p->ns : 1);
    p->c = calloc(POOL, 8), p->a = calloc(POOL * kk, 8), p->b = calloc(POOL * kk, 8);
    p->sa = calloc(POOL * ss, 8), p->sb = calloc(POOL * ss, 8);
    p->want = calloc(POOL, 8), p->got = calloc(POOL, 8);
    if (!p->c || !p->a || !p->b || !p->sa || !p->sb || !p->want || !p->got)
        die(bc->name, "out of memory");
    for (size_t j = 0; j < POOL; j++) {
        uint64_t *sa = p->sa + j * ss, *sb = p->sb + j * ss;
        if (mmaref_gen_vector(&p->in, MMAREF_GEN_CLUSTER, 1, j, &p->c[j], p->a + j * kk, p->b + j * kk, sa, sb) < 0 ||
            mmaref_dot(&p->in, p->c[j], p->a + j * kk, p->b + j * kk, p->ns ? sa : NULL, p->ns ? sb : NULL,
                       &p->want[j], msg, sizeof msg))
            die(bc->name, msg);
    }
}

static mmaref_dots rows(const pool *p, size_t first)
{
    size_t kk = (size_t)p->k, ss = (size_t)(p->ns ? p->ns : 1);
    return (mmaref_dots){{p->c + first, 1, 0},
                         {p->a + first * kk, p->k, 1},
                         {p->b + first * kk, p->k, 1},
                         {p->sa + first * ss, (ptrdiff_t)ss, 1},
                         {p->sb + first * ss, (ptrdiff_t)ss, 1}};
}

/* today's way: mmaref_dot, one dot-add at a time */
static void run_dot(const pool *p, size_t first, size_t n, uint64_t *d)
{
    size_t kk = (size_t)p->k, ss = (size_t)(p->ns ? p->ns : 1);
    for (size_t j = first; j < first + n; j++)
        mmaref_dot(&p->in, p->c[j], p->a + j * kk, p->b + j * kk, p->ns ? p->sa + j * ss : NULL,
                   p->ns ? p->sb + j * ss : NULL, &d[j], NULL, 0);
}

static void run_batch(const pool *p, size_t first, size_t n, uint64_t *d)
{
    mmaref_dots x = rows(p, first);
    char msg[256];
    if (mmaref_dot_batch(&p->in, n, &x, d + first, msg, sizeof msg))
        die(p->in.name, msg);
}

typedef struct {
    const pool *p;
    void (*run)(const pool *, size_t, size_t, uint64_t *);
    size_t first, n;
    double seconds, rate;
} timer_job;

/* Passes over [first, first + n) for about `seconds`: dot-adds per second. */
static void *timed(void *arg)
{
    timer_job *t = arg;
    long passes = 0;
    double start = now_s(), end;
    do {
        t->run(t->p, t->first, t->n, t->p->got);
        passes++;
    } while ((end = now_s()) - start < t->seconds);
    t->rate = (double)passes * (double)t->n / (end - start);
    return NULL;
}

/* The best of `repeats` runs on `threads` threads, each over its share of the pool. */
static double measure(const pool *p, void (*run)(const pool *, size_t, size_t, uint64_t *), int threads,
                      double seconds, int repeats)
{
    double best = 0;
    for (int r = 0; r < repeats; r++) {
        timer_job jobs[THREADS];
        pthread_t tid[THREADS];
        for (int t = 0; t < threads; t++) {
            jobs[t] = (timer_job){p, run, (size_t)t * POOL / threads, POOL / threads, seconds, 0};
            if (t && pthread_create(&tid[t], NULL, timed, &jobs[t]))
                die("pthread_create", "failed");
        }
        timed(&jobs[0]);
        double rate = jobs[0].rate;
        for (int t = 1; t < threads; t++) {
            pthread_join(tid[t], NULL);
            rate += jobs[t].rate;
        }
        if (rate > best)
            best = rate;
    }
    return best;
}

/* name is one of the comma-separated names of list */
static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == 0))
            return 1;
    return 0;
}

static double clock_mhz(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    double mhz = 0;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "cpu MHz", 7) && strchr(line, ':')) {
            mhz = strtod(strchr(line, ':') + 1, NULL);
            break;
        }
    if (f)
        fclose(f);
    return mhz;
}

int main(int argc, char **argv)
{
    double seconds = 0.3, mhz = 0;
    int repeats = 3;
    const char *only = NULL, *path_list = NULL;
    for (int i = 1; i < argc; i++) {
        char *end = NULL;
        if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = strtod(argv[++i], &end);
        else if (!strcmp(argv[i], "--repeats") && i + 1 < argc)
            repeats = (int)strtol(argv[++i], &end, 10);
        else if (!strcmp(argv[i], "--clock-mhz") && i + 1 < argc)
            mhz = strtod(argv[++i], &end);
        else if (!strcmp(argv[i], "--paths") && i + 1 < argc) {
            path_list = argv[++i];
            continue;
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = argv[++i];
            continue;
        } else {
            fprintf(stderr, "usage: batch_bench [--seconds S] [--repeats N] [--clock-mhz F] [--paths LIST] "
                            "[--only TEXT]\n");
            return 2;
        }
        if (*end || !(seconds > 0 && seconds <= 60) || repeats < 1 || repeats > 100 || mhz < 0) {
            fprintf(stderr, "batch_bench: %s %s: not a valid value\n", argv[i - 1], argv[i]);
            return 2;
        }
    }
    int given = mhz > 0;
    if (!given)
        mhz = clock_mhz();
    printf("batched fast path (mmaref_dot_batch) beside mmaref_dot; pool of %d dot-adds (cluster kind, row "
           "layout);\nbest of %d runs of %.2f s; cycles/product at %.0f MHz (%s); 'auto' = the path "
           "mmaref_dot_batch takes by default\n\n",
           POOL, repeats, seconds, mhz, given ? "--clock-mhz" : "/proc/cpuinfo");
    printf("%-36s %3s %-10s %12s %8s %9s\n", "configuration", "K", "path", "dot-adds/s", "cyc/prod", "vs today");
    int all_ok = 1, fda16_ok = 0, scale_ok = 1, none_slower = 1, auto_fastest = 1;
    double worst_auto_cycles = 0; /* the default path's slowest kind, cycles per product */
    const char *default_path = "?";
    int goals_measured = 1; /* the goals need the default path of every configuration */
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        if (only && !strstr(cases[c].label, only)) {
            goals_measured = 0;
            continue;
        }
        pool p;
        fill(&p, &cases[c]);
        mmaref_simd_select("auto", NULL, 0);
        const char *auto_path = mmaref_simd_path(&p.in);
        /* bits first: every path against mmaref_dot */
        for (int q = 0; q < NPATHS; q++) {
            if (mmaref_simd_select(paths[q], NULL, 0))
                continue;
            memset(p.got, 0, POOL * 8);
            run_batch(&p, 0, POOL, p.got);
            if (memcmp(p.got, p.want, POOL * 8)) {
                printf("%s: path %s differs from mmaref_dot: FAIL\n", cases[c].label, paths[q]);
                all_ok = 0;
            }
        }
        double today = measure(&p, run_dot, 1, seconds, repeats), fastest = 0;
        double cyc = mhz * 1e6 / (today * p.k);
        printf("%-36s %3d %-10s %12.3e %8.2f %9s\n", cases[c].label, p.k, "today", today, cyc, "1.00x");
        double one_auto = 0;
        for (int q = 0; q < NPATHS; q++) {
            if (mmaref_simd_select(paths[q], NULL, 0) || (path_list && !listed(path_list, paths[q])))
                continue;
            if (q > 0 && !strcmp(mmaref_simd_path(&p.in), "reference")) {
                printf("%-36s %3s %-10s %12s (no kernel: the summation kind runs on the reference path)\n", "", "",
                       paths[q], "-");
                continue;
            }
            double r = measure(&p, run_batch, 1, seconds, repeats);
            if (r > fastest)
                fastest = r;
            char label[24];
            snprintf(label, sizeof label, "%s%s", paths[q], !strcmp(paths[q], auto_path) ? "*" : "");
            printf("%-36s %3s %-10s %12.3e %8.2f %8.2fx\n", "", "", label, r, mhz * 1e6 / (r * p.k), r / today);
            if (!strcmp(paths[q], auto_path))
                one_auto = r;
        }
        mmaref_simd_select("auto", NULL, 0);
        if (!one_auto) { /* the default path not timed (--paths) */
            goals_measured = 0;
            continue;
        }
        double two = measure(&p, run_batch, THREADS, seconds, repeats);
        printf("%-36s %3s %-10s %12.3e %8.2f %8.2fx  (2 threads: %.2fx of 1 thread)\n", "", "", "auto x2", two,
               mhz * 1e6 / (two * p.k) * THREADS, two / today, two / one_auto);
        const double auto_cycles = mhz * 1e6 / (one_auto * p.k);
        if (c == 0) {
            fda16_ok = auto_cycles <= 3.0;
            default_path = auto_path;
        }
        if (auto_cycles > worst_auto_cycles)
            worst_auto_cycles = auto_cycles;
        auto_fastest &= one_auto >= 0.97 * fastest; /* the default path is the fastest, within noise */
        scale_ok &= two / one_auto >= 1.9;
        none_slower &= one_auto >= 0.97 * today; /* within noise of today's figure */
    }
    if (!goals_measured) {
        printf("\n* = the path taken by default on this CPU; goals not judged (--paths or --only left some "
               "out); every path timed bit-identical to mmaref_dot: %s\n", all_ok ? "yes" : "NO");
        return all_ok ? 0 : 1;
    }
    printf("\n* = the path taken by default on this CPU; 'auto x2' cycles/product are per core.\n"
           "goals, on the default path (%s): FDA f16 K=16 <= 3 cycles/product on 1 thread: %s; every kind <= 6 "
           "(slowest %.2f): %s; the fastest path of each kind, within 3%%: %s; 2 threads >= 1.9x of 1: %s; no "
           "configuration slower than today: %s; every path bit-identical to mmaref_dot: %s\n",
           default_path, fda16_ok ? "met" : "NOT met", worst_auto_cycles, worst_auto_cycles <= 6.0 ? "met" : "NOT met",
           auto_fastest ? "met" : "NOT met", scale_ok ? "met" : "NOT met", none_slower ? "met" : "NOT met",
           all_ok ? "yes" : "NO");
    return all_ok ? 0 : 1;
}
