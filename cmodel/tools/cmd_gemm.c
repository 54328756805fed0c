/* mmaref gemm: a whole GEMM D = A B + C of any M, N, K from NumPy files, computed with one instruction
 * as a kernel does (mmaref_gemm, docs/gemm.md).
 *   mmaref gemm ARCH INSTR --a A.npy --b B.npy [--c C.npy] -o D.npy [--accumulate serial|split-k:S|promote:N]
 *               [--threads T] [--scale-a SA.npy --scale-b SB.npy] [--d-dtype bits|float] [--max-memory BYTES] */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
    "usage: mmaref gemm ARCH INSTRUCTION --a A.npy --b B.npy [--c C.npy] -o D.npy\n"
    "                   [--accumulate serial|split-k:S|promote:N] [--threads T]\n"
    "                   [--scale-a SA.npy --scale-b SB.npy] [--d-dtype bits|float] [--max-memory BYTES]\n"
    "  Computes D = A*B + C for any M, N, K as a GPU kernel does with the instruction: output tiles of\n"
    "  the instruction's M x N; along K, chunks of the instruction's K (the last one padded with zeros\n"
    "  that change nothing), chained through the accumulator.  docs/gemm.md defines every step.\n"
    "  Shapes: A (M, K), B (K, N), C and D (M, N); block-scaled instructions also take SA (M, K/block)\n"
    "  and SB (K/block, N), K a multiple of the block.  The instruction's C and D formats must be equal.\n"
    "  Files and dtypes as 'mmaref mma --help' describes (raw bits as unsigned arrays, or floats).\n"
    "  D is raw bits by default, even from float inputs: compared with NumPy floats (A @ B + C) it is\n"
    "  equal only with --d-dtype float (or read as D.view(np.float32), float16 for an f16 D).\n"
    "  --c C.npy            C (default: +0 everywhere)\n"
    "  --accumulate serial  one chain: each instruction's D is the next one's C (default)\n"
    "  --accumulate split-k:S\n"
    "                       K's chunks in S contiguous slices, each chained from +0, then\n"
    "                       D = (((C + P_0) + P_1) + ... + P_{S-1}), IEEE FP32 adds (FP64 for f64 D)\n"
    "  --accumulate promote:N\n"
    "                       every N instructions the chain is added into an FP32 sum that starts at C\n"
    "                       (IEEE adds, round to nearest even) and restarts from +0 (DeepSeek-V3)\n"
    "  --threads T          worker threads (default: every core); D is the same for any T\n"
    "  -o, --output D.npy   where D goes (NPY 1.0); nothing is written on an error (replaced only once D is\n"
    "                       completely written; a link to nothing refused)\n"
    "  --d-dtype bits|float D as raw bits (the default, whatever the inputs' dtype) or floats, as\n"
    "                       'mmaref mma'\n"
    "  --max-memory BYTES   the most memory the GEMM may hold (default 1G; suffixes K, M, G, T are powers\n"
    "                       of 1024): A, B, C, D and the scales as 64-bit values, and the library's copies\n"
    "                       of A, B and the scales padded to whole chunks of K.  A larger GEMM is refused\n"
    "                       before D is allocated, with what it needs and its M*N*K multiply-adds\n"
    "  A progress line is shown on stderr when it is a terminal and the run takes over a second.\n";

/* --accumulate serial | split-k:S | promote:N */
static int parse_accumulate(const char *text, mmaref_gemm_options *opt)
{
    static const struct { const char *name; mmaref_accumulation kind; } kinds[] = {
        {"split-k:", MMAREF_ACC_SPLIT_K}, {"promote:", MMAREF_ACC_PROMOTE}};
    long v;
    if (!strcmp(text, "serial")) {
        opt->kind = MMAREF_ACC_SERIAL;
        return 0;
    }
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        size_t l = strlen(kinds[i].name);
        if (!strncmp(text, kinds[i].name, l)) {
            if (cli_parse_count(text + l, INT_MAX, &v) || v < 1)
                return cli_error("gemm: --accumulate %s needs a count of at least 1 after ':', not '%s'", kinds[i].name,
                                 text + l);
            opt->kind = kinds[i].kind;
            opt->param = (int)v;
            return 0;
        }
    }
    return cli_error("gemm: --accumulate is serial, split-k:S or promote:N, not '%s'", text);
}

/* --max-memory: a byte count, or one with a suffix K, M, G or T (powers of 1024). */
enum { MAX_MEMORY_DEFAULT_SHIFT = 30 }; /* 1 GiB */

static int parse_bytes(const char *text, uint64_t *bytes)
{
    static const char suffixes[] = "KMGT";
    char digits[32];
    size_t len = strlen(text);
    int shift = 0;
    const char *s = len ? strchr(suffixes, text[len - 1]) : NULL;
    if (s) {
        shift = 10 * (int)(s - suffixes + 1);
        len--;
    }
    long v;
    if (!len || len >= sizeof digits)
        return 1;
    memcpy(digits, text, len);
    digits[len] = 0;
    if (cli_parse_count(digits, LONG_MAX >> shift, &v) || v < 1)
        return 1;
    *bytes = (uint64_t)v << shift;
    return 0;
}

/* The bytes a GEMM holds at once, as 64-bit values: A, B, C (when given), D, the scales, and mmaref_gemm's
 * copies of A and B (and the scales) padded to whole chunks of the instruction's K.  128 bits: M, N and K
 * each reach INT_MAX. */
static unsigned __int128 gemm_bytes(const mmaref_instr *in, uint64_t m, uint64_t n, uint64_t k, int with_c)
{
    typedef unsigned __int128 u128;
    uint64_t kp = (k + (uint64_t)in->k - 1) / (uint64_t)in->k * (uint64_t)in->k;
    uint64_t block = in->block_size > 0 ? (uint64_t)in->block_size : 0;
    uint64_t sk = block ? k / block : 0, sp = block ? kp / block : 0;
    u128 values = (u128)m * k + (u128)k * n + (u128)m * n * (with_c ? 2 : 1) + (u128)m * kp + (u128)n * kp +
                  (u128)(m + n) * (sk + sp);
    return values * sizeof(uint64_t);
}

/* A byte count for a message: "2.98 GiB", "77.3 KiB", "512 B". */
static const char *shown_bytes(char *buf, size_t cap, double bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    size_t u = 0;
    while (bytes >= 1024 && u + 1 < sizeof units / sizeof units[0])
        bytes /= 1024, u++;
    snprintf(buf, cap, "%.3g %s", bytes, units[u]);
    return buf;
}

/* The progress line: tiles done of total, shown once the run has taken a second, at most 4 times a
 * second, on stderr only when it is a terminal. */
typedef struct {
    struct timespec start, last;
    int shown;
} progress_state;

static double seconds_between(struct timespec a, struct timespec b)
{
    return (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
}

static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
    progress_state *p = ctx;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double run = seconds_between(p->start, now);
    if (done < total && (run < 1.0 || (p->shown && seconds_between(p->last, now) < 0.25)))
        return;
    if (!p->shown && done == total)
        return;
    p->last = now;
    p->shown = 1;
    fprintf(stderr, "\rmmaref gemm: %llu of %llu tiles (%.0f %%), %.1f s", (unsigned long long)done,
            (unsigned long long)total, 100.0 * (double)done / (double)total, run);
    if (done == total)
        fputc('\n', stderr);
    fflush(stderr);
}

static int run(const mmaref_instr *in, operand *ops, int nops, const char *out_path, int d_float,
               mmaref_gemm_options *opt, uint64_t max_memory)
{
    for (int i = 0; i < 2; i++) /* A and B: their shapes give M, K and N */
        if (load_operand(&ops[i], in->name))
            return 2;
    operand *A = &ops[0], *B = &ops[1], *C = &ops[2];
    if (B->rows != A->cols)
        return cli_error("gemm: --b '%s': shape (%llu, %llu), but A '%s' has K = %llu columns", B->path,
                         (unsigned long long)B->rows, (unsigned long long)B->cols, A->path,
                         (unsigned long long)A->cols);
    if (A->rows > INT_MAX || A->cols > INT_MAX || B->cols > INT_MAX || !A->rows || !A->cols || !B->cols)
        return cli_error("gemm: shape M = %llu, N = %llu, K = %llu: each must be 1 .. %d",
                         (unsigned long long)A->rows, (unsigned long long)B->cols, (unsigned long long)A->cols,
                         INT_MAX);
    int m = (int)A->rows, n = (int)B->cols, k = (int)A->cols, ns = mmaref_scale_count(in);
    unsigned __int128 need = gemm_bytes(in, (uint64_t)m, (uint64_t)n, (uint64_t)k, ops[2].path != NULL);
    if (need > max_memory) {
        char want[32], cap[32];
        return cli_error("gemm: M = %d, N = %d, K = %d (%.3g multiply-adds) needs %s, above --max-memory %s; give a "
                         "larger --max-memory to run it", m, n, k, (double)m * n * k,
                         shown_bytes(want, sizeof want, (double)need),
                         shown_bytes(cap, sizeof cap, (double)max_memory));
    }
    if (ns && k % in->block_size)
        return cli_error("gemm: K = %d is not a multiple of %s's scale block of %d", k, in->name, in->block_size);
    C->rows = (uint64_t)m, C->cols = (uint64_t)n;
    if (ns) {
        ops[3].rows = (uint64_t)m, ops[3].cols = (uint64_t)(k / in->block_size);
        ops[4].rows = (uint64_t)(k / in->block_size), ops[4].cols = (uint64_t)n;
    }
    for (int i = 2; i < nops; i++)
        if (ops[i].path && load_operand(&ops[i], in->name))
            return 2;
    uint64_t *D = malloc((size_t)m * (size_t)n * sizeof *D);
    if (!D)
        return cli_error("gemm: out of memory for D (%d x %d)", m, n);
    progress_state prog = {.shown = 0};
    clock_gettime(CLOCK_MONOTONIC, &prog.start);
    if (isatty(STDERR_FILENO)) {
        opt->progress = show_progress;
        opt->progress_ctx = &prog;
    }
    char msg[512];
    mmaref_status st = mmaref_gemm(in, m, n, k, A->arr.data, B->arr.data, C->path ? C->arr.data : NULL,
                                   ns ? ops[3].arr.data : NULL, ns ? ops[4].arr.data : NULL, D, opt, msg, sizeof msg);
    if (st != MMAREF_OK) {
        free(D);
        return cli_error("gemm: %s", msg);
    }
    uint64_t shape[2] = {(uint64_t)m, (uint64_t)n};
    int bytes = d_float ? float_bytes(in->d) : bits_bytes(in->d);
    int bad = npy_write(out_path, d_float ? float_kind(in->d) : 'u', bytes, 2, shape, D, msg, sizeof msg);
    free(D);
    if (bad)
        return cli_error("gemm: -o '%s': %s", out_path, msg);
    return 0;
}

int cmd_gemm(int argc, char **argv)
{
    const char *pos[2] = {0, 0}, *pa = NULL, *pb = NULL, *pc = NULL, *pd = NULL, *psa = NULL, *psb = NULL,
               *dtype = NULL, *acc = NULL, *threads = NULL, *memory = NULL;
    const char **opts[] = {&pa, &pb, &pc, &pd, &psa, &psb, &dtype, &acc, &threads, &memory};
    const char *names[][2] = {{"--a", "-a"},        {"--b", "-b"},        {"--c", "-c"},
                              {"-o", "--output"},   {"--scale-a", NULL},  {"--scale-b", NULL},
                              {"--d-dtype", NULL},  {"--accumulate", NULL}, {"--threads", NULL},
                              {"--max-memory", NULL}};
    int rc = parse_matrix_options("gemm", usage, argc, argv, opts, names, sizeof opts / sizeof *opts, pos);
    if (rc >= 0)
        return rc;
    int d_float = 0;
    if (dtype && strcmp(dtype, "bits") && !(d_float = !strcmp(dtype, "float")))
        return cli_error("gemm: --d-dtype is 'bits' or 'float', not '%s'", dtype);
    mmaref_gemm_options opt = {.kind = MMAREF_ACC_SERIAL};
    if (acc && parse_accumulate(acc, &opt))
        return 2;
    long t = 0;
    if (threads && (cli_parse_count(threads, 1024, &t) || t < 1))
        return cli_error("gemm: --threads is a count 1 .. 1024, not '%s'", threads);
    opt.threads = (int)t;
    uint64_t max_memory = (uint64_t)1 << MAX_MEMORY_DEFAULT_SHIFT;
    if (memory && parse_bytes(memory, &max_memory))
        return cli_error("gemm: --max-memory is a count of bytes, with K, M, G or T for powers of 1024 (e.g. 4G), "
                         "not '%s'", memory);
    mmaref_instr in;
    if (cli_lookup(pos[0], pos[1], &in))
        return 2;
    if (!pa || !pb || !pd)
        return cli_error("gemm: %s needs %s (see 'mmaref gemm --help')", in.name,
                         !pa ? "--a A.npy" : !pb ? "--b B.npy" : "-o D.npy");
    if (cli_check_path("gemm", "-o", pd))
        return 2;
    if (in.c != in.d)
        return cli_error("gemm: %s has C in %s and D in %s; chaining D into the next instruction's C needs "
                         "the two formats equal", in.name, mmaref_format_name(in.c), mmaref_format_name(in.d));
    int ns = mmaref_scale_count(&in);
    if (ns && (!psa || !psb))
        return cli_error("gemm: %s takes block scales: give --scale-a SA.npy (M, K/%d) and --scale-b SB.npy "
                         "(K/%d, N)", in.name, in.block_size, in.block_size);
    if (!ns && (psa || psb))
        return cli_error("gemm: %s has no block scales; drop --scale-a/--scale-b", in.name);
    if (d_float && !float_bytes(in.d))
        return cli_error("gemm: --d-dtype float: %s has no float dtype", mmaref_format_name(in.d));

    operand ops[5] = {{.opt = "--a", .path = pa, .fmt = in.a, .cmd = "gemm", .any_shape = 1},
                      {.opt = "--b", .path = pb, .fmt = in.b, .cmd = "gemm", .any_shape = 1},
                      {.opt = "--c", .path = pc, .fmt = in.c, .cmd = "gemm"},
                      {.opt = "--scale-a", .path = psa, .fmt = in.scale, .cmd = "gemm"},
                      {.opt = "--scale-b", .path = psb, .fmt = in.scale, .cmd = "gemm"}};
    int nops = ns ? 5 : 3;
    rc = run(&in, ops, nops, pd, d_float, &opt, max_memory);
    for (int i = 0; i < nops; i++)
        npy_free(&ops[i].arr);
    return rc;
}
