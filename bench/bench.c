/* bench: single-thread dot-adds per second of the mmaref C model, beside a native dot loop of the same K.
 *
 * For each configuration: mmaref_lookup once, then mmaref_dot over a pre-generated pool of random finite
 * operands (input generation is not timed).  The native loop is a serial fmaf chain d = fmaf(a[k], b[k], d)
 * (fma for f64) over the same operands pre-converted to float (double for f64), block scales folded into
 * the operands.  The three loops take turns, --repeats runs of about --seconds each; a figure is the best
 * 1 ms window of its runs (the speed between preemptions on a shared machine), the whole-run average
 * is kept beside it.  A checksum (XOR of D bits) of each pool is printed at the end.
 *
 * Usage: bench [--seconds S] [--repeats N] [--csv] */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mmaref.h"

enum { POOL = 256, MAX_K = 64, MAX_SCALES = 8 };

/* Targets: the model at most 5x slower than native, FDA K=16 over 10 M dot-adds/s. */
#define TARGET_RATIO 5.0
#define TARGET_FDA16_RATE 10e6

typedef struct {
    const char *label;
    const char *arch, *name;
    int needs_rate; /* the FDA K=16 configuration also has the absolute-rate target */
} bench_case;

static const bench_case cases[] = {
    {"FDA f16 (Hopper HMMA)", "hopper", "mma.m16n8k16.f32.f16.f16.f32", 1},
    {"CoFDA bf16 (Ampere HMMA)", "ampere", "mma.m16n8k16.f32.bf16.bf16.f32", 0},
    {"FDA e4m3 F=13 (Hopper QGMMA)", "hopper", "wgmma.m64n8k32.f32.e4m3.e4m3", 0},
    {"FDA e4m3 F=25 (RTX Blackwell QMMA)", "rtx-blackwell", "mma.m16n8k32.f32.e4m3.e4m3.f32", 0},
    {"GDFS e2m1+ue4m3 (RTX Blackwell OMMA)", "rtx-blackwell",
     "mma.m16n8k64.block16.f32.e2m1.e2m1.f32.ue4m3", 0},
    {"SFMA f64 (Hopper DMMA)", "hopper", "mma.m16n8k4.f64.f64.f64.f64", 0},
};

/* The pool of one configuration: raw bits for the model, the same values as float/double for native. */
typedef struct {
    mmaref_instr in;
    int k, ns, wide; /* wide: native loop in double (f64 operands) */
    uint64_t a[POOL][MAX_K], b[POOL][MAX_K], c[POOL], sa[POOL][MAX_SCALES], sb[POOL][MAX_SCALES];
    float fa[POOL][MAX_K], fb[POOL][MAX_K], fc[POOL];
    double da[POOL][MAX_K], db[POOL][MAX_K], dc[POOL];
} bench_pool;

/* ---- random operands ---- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rng_next(void) /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

static uint64_t rng_bits(int n) { return n ? rng_next() >> (64 - n) : 0; }

/* A biased exponent within +-spread of the bias: values of magnitude about 2^-spread .. 2^(spread+1). */
static uint64_t rng_exp(int bias, int spread)
{
    return (uint64_t)(bias - spread + (int)(rng_next() % (2 * spread + 1)));
}

/* A random finite value of f near 1 (normal numbers, random sign and mantissa; e2m1 any of its 16 codes);
 * never NaN or inf, so the model's fast path is what is timed. */
static int rand_value(mmaref_format f, uint64_t *raw)
{
    switch (f) {
    case MMAREF_F64: *raw = rng_bits(1) << 63 | rng_exp(1023, 4) << 52 | rng_bits(52); return 0;
    case MMAREF_F32: *raw = rng_bits(1) << 31 | rng_exp(127, 4) << 23 | rng_bits(23); return 0;
    case MMAREF_F16: *raw = rng_bits(1) << 15 | rng_exp(15, 4) << 10 | rng_bits(10); return 0;
    case MMAREF_BF16: *raw = rng_bits(1) << 15 | rng_exp(127, 4) << 7 | rng_bits(7); return 0;
    case MMAREF_E4M3: *raw = rng_bits(1) << 7 | rng_exp(7, 4) << 3 | rng_bits(3); return 0;
    case MMAREF_E2M1: *raw = rng_bits(4); return 0; /* all 16 codes are finite */
    case MMAREF_UE4M3: *raw = rng_exp(7, 3) << 3 | rng_bits(3); return 0;
    default: return -1;
    }
}

/* One random operand: raw bits plus its exact value; fails on a format this bench cannot generate. */
static int rand_operand(mmaref_format f, uint64_t *raw, double *value)
{
    if (rand_value(f, raw)) {
        fprintf(stderr, "bench: no random generator for format %s\n", mmaref_format_name(f));
        return -1;
    }
    *value = mmaref_format_to_double(f, *raw);
    if (!mmaref_format_valid_bits(f, *raw) || !isfinite(*value)) {
        fprintf(stderr, "bench: generated a bad %s value 0x%llx\n", mmaref_format_name(f),
                (unsigned long long)*raw);
        return -1;
    }
    return 0;
}

static int fill_pool(bench_pool *p, const bench_case *bc)
{
    char msg[256];
    if (mmaref_lookup(bc->arch, bc->name, &p->in, msg, sizeof msg) != MMAREF_OK) {
        fprintf(stderr, "bench: %s\n", msg);
        return -1;
    }
    p->k = p->in.k;
    p->ns = mmaref_scale_count(&p->in);
    p->wide = p->in.a == MMAREF_F64;
    if (p->k > MAX_K || p->ns > MAX_SCALES) {
        fprintf(stderr, "bench: %s %s: K = %d is larger than this bench handles\n", bc->arch, bc->name, p->k);
        return -1;
    }
    for (int i = 0; i < POOL; i++) {
        double sa[MAX_SCALES], sb[MAX_SCALES], v, w;
        for (int j = 0; j < p->ns; j++)
            if (rand_operand(p->in.scale, &p->sa[i][j], &sa[j]) || rand_operand(p->in.scale, &p->sb[i][j], &sb[j]))
                return -1;
        for (int k = 0; k < p->k; k++) {
            if (rand_operand(p->in.a, &p->a[i][k], &v) || rand_operand(p->in.b, &p->b[i][k], &w))
                return -1;
            if (p->ns) { /* fold the block scales into the native operands (exact: few significant bits) */
                v *= sa[k / p->in.block_size];
                w *= sb[k / p->in.block_size];
            }
            p->da[i][k] = v, p->db[i][k] = w;
            p->fa[i][k] = (float)v, p->fb[i][k] = (float)w;
        }
        if (rand_operand(p->in.c, &p->c[i], &v))
            return -1;
        p->dc[i] = v, p->fc[i] = (float)v;
    }
    return 0;
}

/* ---- the timed loops: one pass over the pool each, returning an XOR of the results' bits ---- */

static uint64_t model_pass(const bench_pool *p)
{
    uint64_t x = 0, d;
    char msg[256];
    for (int i = 0; i < POOL; i++) {
        if (mmaref_dot(&p->in, p->c[i], p->a[i], p->b[i], p->ns ? p->sa[i] : NULL, p->ns ? p->sb[i] : NULL, &d,
                       msg, sizeof msg) != MMAREF_OK) {
            fprintf(stderr, "bench: %s\n", msg);
            exit(1);
        }
        x ^= d;
    }
    return x;
}

/* The compiler barrier after each dot keeps every dot a serial chain of K fmas (no hoisting or
 * vectorization across pool entries); the CPU still overlaps independent chains, as native code would. */
#define NATIVE_PASS_BODY(T, FMA, BITS_T)                                                                   \
    for (int i = 0; i < POOL; i++) {                                                                       \
        T d = c[i];                                                                                        \
        const T *ai = a + (size_t)i * MAX_K, *bi = b + (size_t)i * MAX_K;                                  \
        for (int kk = 0; kk < k; kk++)                                                                     \
            d = FMA(ai[kk], bi[kk], d);                                                                    \
        BITS_T bits;                                                                                       \
        memcpy(&bits, &d, sizeof bits);                                                                    \
        x ^= bits;                                                                                         \
        __asm__ volatile("" ::: "memory");                                                                 \
    }

#if defined(__x86_64__) || defined(__i386__)
/* Hardware FMA where the CPU has it (plain -O2 would call libm's fmaf); the generic version otherwise. */
__attribute__((target("fma"))) static uint64_t native_pass_f32_hw(const float *a, const float *b, const float *c,
                                                                  int k)
{
    uint64_t x = 0;
    NATIVE_PASS_BODY(float, __builtin_fmaf, uint32_t)
    return x;
}
__attribute__((target("fma"))) static uint64_t native_pass_f64_hw(const double *a, const double *b,
                                                                  const double *c, int k)
{
    uint64_t x = 0;
    NATIVE_PASS_BODY(double, __builtin_fma, uint64_t)
    return x;
}
static int have_hw_fma(void) { return __builtin_cpu_supports("fma"); }
#else
static int have_hw_fma(void) { return 0; }
#endif

static uint64_t native_pass_f32(const float *a, const float *b, const float *c, int k)
{
    uint64_t x = 0;
    NATIVE_PASS_BODY(float, fmaf, uint32_t)
    return x;
}
static uint64_t native_pass_f64(const double *a, const double *b, const double *c, int k)
{
    uint64_t x = 0;
    NATIVE_PASS_BODY(double, fma, uint64_t)
    return x;
}

/* The native loop as gcc -O2 compiles fmaf/fma for a generic x86-64: a call into libm. */
static uint64_t native_pass_libm(const bench_pool *p)
{
    return p->wide ? native_pass_f64(&p->da[0][0], &p->db[0][0], p->dc, p->k)
                   : native_pass_f32(&p->fa[0][0], &p->fb[0][0], p->fc, p->k);
}

/* The native loop on the hardware fma instruction where the CPU has one (the reference of the target). */
static uint64_t native_pass_hw(const bench_pool *p)
{
#if defined(__x86_64__) || defined(__i386__)
    if (have_hw_fma())
        return p->wide ? native_pass_f64_hw(&p->da[0][0], &p->db[0][0], p->dc, p->k)
                       : native_pass_f32_hw(&p->fa[0][0], &p->fb[0][0], p->fc, p->k);
#endif
    return native_pass_libm(p);
}

/* ---- timing ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t sink; /* every timed result lands here, so no pass can be optimized out */

/* Rates in dot-adds/s: the best whole-run average, and the best ~1 ms window of any run.  On a quiet
 * machine the two agree; on a shared one the window is the single-thread speed between preemptions. */
typedef struct {
    double run, window;
} bench_rate;

enum { CHECK_EVERY_NS = 20000, WINDOW_NS = 1000000 };

/* One run of about `seconds`. */
static bench_rate measure(uint64_t (*pass)(const bench_pool *), const bench_pool *p, double seconds)
{
    /* read the clock about every 20 us, so its cost stays out of even the fastest loop's figure */
    double t0 = now_s();
    sink = (sink << 1 | sink >> 63) ^ pass(p);
    double one = now_s() - t0;
    long per_check = one > 0 ? (long)(CHECK_EVERY_NS * 1e-9 / one) : 1;
    if (per_check < 1)
        per_check = 1;

    bench_rate best = {0, 0};
    long passes = 0, window_passes = 0;
    double start = now_s(), window_start = start, t;
    do {
        for (long i = 0; i < per_check; i++)
            sink = (sink << 1 | sink >> 63) ^ pass(p);
        passes += per_check, window_passes += per_check;
        t = now_s();
        if (t - window_start >= WINDOW_NS * 1e-9) {
            double rate = (double)window_passes * POOL / (t - window_start);
            if (rate > best.window)
                best.window = rate;
            window_start = t, window_passes = 0;
        }
    } while (t - start < seconds);
    best.run = (double)passes * POOL / (t - start);
    return best;
}

static void keep_best(bench_rate *best, bench_rate r)
{
    if (r.run > best->run)
        best->run = r.run;
    if (r.window > best->window)
        best->window = r.window;
}

/* ---- report ---- */

static void cpu_model(char *out, size_t len)
{
    snprintf(out, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (colon && (!strncmp(line, "model name", 10) || !strncmp(line, "Processor", 9) ||
                      !strncmp(line, "cpu model", 9))) {
            colon++;
            colon += strspn(colon, " \t");
            colon[strcspn(colon, "\n")] = 0;
            snprintf(out, len, "%s", colon);
            break;
        }
    }
    fclose(f);
}

/* The 1-minute load average: other work on the machine shows in the whole-run averages. */
static void load_average(char *out, size_t len)
{
    snprintf(out, len, "unknown");
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return;
    char line[128];
    if (fgets(line, sizeof line, f))
        snprintf(out, len, "%.*s", (int)strcspn(line, " \n"), line);
    fclose(f);
}

typedef struct {
    double model, native, libm; /* dot-adds/s (best window): the model, native on hardware fma, through libm */
    bench_rate model_r, native_r, libm_r;
    uint64_t model_xor, native_xor;
} bench_result;

/* The target (ratio <= 5; FDA f16 K=16 also > 10 M/s) is judged against both native loops: the fmaf
 * call a portable gcc -O2 build makes (libm), and the fma instruction (hw), the stricter reference. */
static int meets_rate(const bench_case *bc, const bench_result *r)
{
    return !bc->needs_rate || r->model > TARGET_FDA16_RATE;
}

static int meets(const bench_case *bc, const bench_result *r, double native)
{
    return native / r->model <= TARGET_RATIO && meets_rate(bc, r);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: bench [--seconds S] [--repeats N] [--csv]\n"
               "  --seconds S  length of one timed run (default 0.5)\n"
               "  --repeats N  timed runs per figure (default 3); a figure is the best 1 ms window of\n"
               "               its runs, the model's best whole-run average shown beside it\n"
               "  --csv        machine-readable output\n");
}

int main(int argc, char **argv)
{
    double seconds = 0.5;
    int repeats = 3, csv = 0;
    for (int i = 1; i < argc; i++) {
        char *end;
        if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
            seconds = strtod(argv[++i], &end);
            if (*end || !(seconds > 0 && seconds <= 60)) {
                fprintf(stderr, "bench: --seconds %s: want a number in (0, 60]\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--repeats") && i + 1 < argc) {
            long n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > 100) {
                fprintf(stderr, "bench: --repeats %s: want an integer in [1, 100]\n", argv[i]);
                return 2;
            }
            repeats = (int)n;
        } else if (!strcmp(argv[i], "--csv")) {
            csv = 1;
        } else if (!strcmp(argv[i], "--seconds") || !strcmp(argv[i], "--repeats")) {
            fprintf(stderr, "bench: %s needs a value\n", argv[i]);
            return 2;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "bench: unknown argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }

    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    enum { NCASES = sizeof cases / sizeof cases[0] };
    bench_result res[NCASES];
    static bench_pool pool;
    int all_ok = 1;
    const char *hw = have_hw_fma() ? "fma instruction" : "no fma instruction: libm";
    char load[64];
    load_average(load, sizeof load);

    if (csv)
        printf("config,arch,instruction,algo,K,model_dot_adds_per_s,native_dot_adds_per_s,ratio,"
               "native_libm_dot_adds_per_s,ratio_libm,meets_target,model_run_avg,native_run_avg,"
               "native_libm_run_avg,model_xor,native_xor\n");
    else
        printf("CPU: %s (load average %s)\n"
               "single thread; %d runs of %.2f s each per figure; pool of %d random finite operand vectors\n"
               "figures: best 1 ms window of the runs (the model's best whole-run average in brackets)\n"
               "native: serial chain d = fma(a[k], b[k], d) over the same values as float (double for f64),\n"
               "        hw = %s, libm = call to fmaf/fma (gcc -O2 for generic x86-64)\n"
               "ratio = native dot-adds/s / model dot-adds/s (times slower than native)\n\n"
               "%-37s %3s %21s %11s %6s %11s %6s  %s\n",
               cpu, load, repeats, seconds, POOL, hw, "configuration", "K", "model", "native hw", "ratio",
               "native libm", "ratio", "target (ratio <= 5)");
    for (int c = 0; c < NCASES; c++) {
        const bench_case *bc = &cases[c];
        if (fill_pool(&pool, bc))
            return 1;
        bench_result *r = &res[c];
        r->model_xor = model_pass(&pool); /* one checked pass: also the checksum printed below */
        r->native_xor = native_pass_hw(&pool);
        /* the three loops take turns, so that other load on the machine falls on all of them alike */
        r->model_r = r->native_r = r->libm_r = (bench_rate){0, 0};
        for (int rep = 0; rep < repeats; rep++) {
            keep_best(&r->model_r, measure(model_pass, &pool, seconds));
            keep_best(&r->native_r, measure(native_pass_hw, &pool, seconds));
            keep_best(&r->libm_r, measure(native_pass_libm, &pool, seconds));
        }
        r->model = r->model_r.window, r->native = r->native_r.window, r->libm = r->libm_r.window;
        int ok = meets(bc, r, r->native), ok_libm = meets(bc, r, r->libm);
        all_ok &= ok;
        if (csv)
            printf("\"%s\",%s,%s,%s,%d,%.0f,%.0f,%.2f,%.0f,%.2f,%s,%.0f,%.0f,%.0f,%016llx,%016llx\n", bc->label,
                   bc->arch, bc->name, mmaref_algo_name(pool.in.pass[0].algo), pool.k, r->model, r->native,
                   r->native / r->model, r->libm, r->libm / r->model, ok ? "yes" : "no", r->model_r.run,
                   r->native_r.run, r->libm_r.run, (unsigned long long)r->model_xor,
                   (unsigned long long)r->native_xor);
        else
            printf("%-37s %3d %8.2f M (%6.2f M) %9.2f M %5.1fx %9.2f M %5.1fx  libm %s, hw %s%s\n", bc->label,
                   pool.k,
                   r->model / 1e6, r->model_r.run / 1e6, r->native / 1e6, r->native / r->model, r->libm / 1e6,
                   r->libm / r->model,
                   ok_libm ? "met" : "MISSED", ok ? "met" : "MISSED",
                   meets_rate(bc, r) ? "" : " (< 10 M/s)");
        fflush(stdout);
    }
    if (!csv) {
        printf("\ntarget: ratio <= %.0f against each native loop; FDA f16 K=16 also > %.0f M dot-adds/s\n",
               TARGET_RATIO, TARGET_FDA16_RATE / 1e6);
        printf("checksums (XOR of D bits over one pass of each pool; model / native hw):\n");
        for (int c = 0; c < NCASES; c++)
            printf("  %-37s %016llx / %016llx\n", cases[c].label, (unsigned long long)res[c].model_xor,
                   (unsigned long long)res[c].native_xor);
        printf("timing sink: %016llx\n", (unsigned long long)sink);
        printf("%s\n", all_ok ? "all targets met against both native loops"
                             : "some targets missed against the hardware-fma loop (see the hw column)");
    }
    return 0;
}
