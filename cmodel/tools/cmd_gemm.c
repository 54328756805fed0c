/* mmaref gemm: a whole GEMM D = A B + C of any M, N, K from NumPy files, computed with one instruction
 * as a kernel does (mmaref_gemm, docs/gemm.md).
 *   mmaref gemm ARCH INSTR --a A.npy --b B.npy [--c C.npy] -o D.npy [--accumulate serial|split-k:S|promote:N]
 *               [--threads T] [--scale-a SA.npy --scale-b SB.npy] [--d-dtype bits|float] */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
    "usage: mmaref gemm ARCH INSTRUCTION --a A.npy --b B.npy [--c C.npy] -o D.npy\n"
    "                   [--accumulate serial|split-k:S|promote:N] [--threads T]\n"
    "                   [--scale-a SA.npy --scale-b SB.npy] [--d-dtype bits|float]\n"
    "  Computes D = A*B + C for any M, N, K as a GPU kernel does with the instruction: output tiles of\n"
    "  the instruction's M x N; along K, chunks of the instruction's K (the last one padded with zeros\n"
    "  that change nothing), chained through the accumulator.  docs/gemm.md defines every step.\n"
    "  Shapes: A (M, K), B (K, N), C and D (M, N); block-scaled instructions also take SA (M, K/block)\n"
    "  and SB (K/block, N), K a multiple of the block.  The instruction's C and D formats must be equal.\n"
    "  Files and dtypes as 'mmaref mma --help' describes (raw bits as unsigned arrays, or floats).\n"
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
    "  --d-dtype bits|float D as raw bits (default) or floats, as 'mmaref mma'\n"
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
               mmaref_gemm_options *opt)
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
               *dtype = NULL, *acc = NULL, *threads = NULL;
    const char **opts[] = {&pa, &pb, &pc, &pd, &psa, &psb, &dtype, &acc, &threads};
    const char *names[][2] = {{"--a", "-a"},        {"--b", "-b"},        {"--c", "-c"},
                              {"-o", "--output"},   {"--scale-a", NULL},  {"--scale-b", NULL},
                              {"--d-dtype", NULL},  {"--accumulate", NULL}, {"--threads", NULL}};
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
    rc = run(&in, ops, nops, pd, d_float, &opt);
    for (int i = 0; i < nops; i++)
        npy_free(&ops[i].arr);
    return rc;
}
