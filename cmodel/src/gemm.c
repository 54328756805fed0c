/* Whole GEMMs from instruction tiles (docs/gemm.md): D = A B + C for any M, N, K, computed as a GPU kernel
 * does with one instruction.  The output is cut into tiles of the instruction's M x N; along K the
 * operands are cut into instruction-sized chunks, and each D element is a chain of dot-adds (mmaref_dot's
 * computation) through the accumulator, in one of three ways:
 *   serial     acc = C; acc = dot(acc, chunk) for every chunk in K order (a CUTLASS main loop);
 *   split-k:S  the chunks cut into S contiguous slices, each chained from +0; then, in FP32 (IEEE, round to
 *              nearest even): R = C + P_0, R = R + P_1, ..., R + P_{S-1};
 *   promote:N  every N chunks the chain's value is added into an FP32 accumulator R (R = C first) and the
 *              chain restarts from +0 (DeepSeek-V3's promotion of Hopper FP8 accumulation).
 * Each output tile is computed by exactly one thread with a fixed K order, so D does not depend on the
 * thread count. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format.h"
#include "ieee_arith.h"
#include "fast.h"
#include "schedule.h"

/* One GEMM, laid out for the dot-adds: A's rows and B's columns contiguous, K padded to a whole number
 * of chunks (docs/gemm.md, "Padding"). */
typedef struct {
    const mmaref_instr *in;
    int m, n, chunks;            /* chunks: ceil(K / instruction K) */
    size_t kp, sp;               /* padded K; scales per row of SA (per column of SB) after padding */
    uint64_t *a, *bt, *sa, *sbt; /* A (M x kp), B transposed (N x kp), SA (M x sp), SB transposed (N x sp) */
    const uint64_t *c;           /* C (M x N) or NULL: +0 */
    uint64_t *d;
    mmaref_accumulation kind;
    int param;
    /* work sharing: the next tile to take, tiles finished */
    uint64_t tiles_m, tiles, next, done;
    const mmaref_gemm_options *opt;
} gemm_job;

/* The format one part of D is: f32 for the complex f32c, else D's own. */
static const fmt_desc *part_format(const fmt_desc *f) { return f->parts ? fmt_of(f->part) : f; }

/* The format the split-k and promote reductions add in: FP32, or FP64 for an f64 accumulator (docs/gemm.md,
 * "The FP32 additions"). */
static const fmt_desc *reduction_format(const fmt_desc *part)
{
    return part == fmt_of(MMAREF_F64) ? part : fmt_of(MMAREF_F32);
}

/* The chains of dot-adds over chunks first .. last - 1 of row i, columns j0 .. j0 + nj - 1, each from its
 * acc[]: one batch per chunk (A's row for every column, B's columns in rows of bt; batch.c). */
static void chain_row(const gemm_job *g, fast_kernel kernel, int i, int j0, int nj, int first, int last,
                      uint64_t *acc)
{
    const mmaref_instr *in = g->in;
    int ns = mmaref_scale_count(in);
    const uint64_t *a = g->a + (size_t)i * g->kp, *b = g->bt + (size_t)j0 * g->kp;
    const uint64_t *sa = ns ? g->sa + (size_t)i * g->sp : NULL, *sb = ns ? g->sbt + (size_t)j0 * g->sp : NULL;
    for (int q = first; q < last; q++) {
        size_t k0 = (size_t)q * in->k, s0 = (size_t)q * ns;
        mmaref_dots x = {{acc, 1, 0}, {a + k0, 0, 1}, {b + k0, (ptrdiff_t)g->kp, 1},
                         {ns ? sa + s0 : NULL, 0, 1}, {ns ? sb + s0 : NULL, (ptrdiff_t)g->sp, 1}};
        /* the record and every operand's bits were checked once, before any thread started */
        batch_run(in, kernel, (size_t)nj, &x, acc);
    }
}

/* Columns a row() call takes at most (the widest instruction has N = 256). */
enum { ROW_SLICE = 256 };

/* D[i][j0 .. j0 + nj - 1] (nj <= ROW_SLICE) by the job's accumulation strategy. */
static void row(const gemm_job *g, fast_kernel kernel, int i, int j0, int nj)
{
    const mmaref_instr *in = g->in;
    uint64_t *d = &g->d[(size_t)i * g->n + j0];
    for (int j = 0; j < nj; j++)
        d[j] = g->c ? g->c[(size_t)i * g->n + j0 + j] : 0;
    if (g->kind == MMAREF_ACC_SERIAL) {
        chain_row(g, kernel, i, j0, nj, 0, g->chunks, d);
        return;
    }
    /* split-k: slice s takes chunks s*chunks/S .. (s+1)*chunks/S - 1; promote: groups of N chunks.  Each
     * part of a complex D (f32c) is reduced on its own. */
    const fmt_desc *df = fmt_of(in->d), *pf = part_format(df), *rf = reduction_format(pf), *r_fmt = pf;
    const int parts = fmt_parts(df), split = g->kind == MMAREF_ACC_SPLIT_K;
    const int groups = split ? g->param : g->chunks / g->param + (g->chunks % g->param != 0); /* no overflow at
                                                                                                 * INT_MAX */
    uint64_t r[ROW_SLICE][2], acc[ROW_SLICE];
    for (int j = 0; j < nj; j++)
        for (int p = 0; p < parts; p++)
            r[j][p] = fmt_part_bits(df, d[j], p); /* R starts as C (in D's format: checked) */
    for (int s = 0; s < groups; s++) {
        int first = split ? (int)((int64_t)s * g->chunks / groups) : s * g->param;
        int last = split ? (int)((int64_t)(s + 1) * g->chunks / groups)
                         : (first + g->param < g->chunks ? first + g->param : g->chunks);
        memset(acc, 0, sizeof acc); /* +0 in every accumulator format */
        chain_row(g, kernel, i, j0, nj, first, last, acc);
        for (int j = 0; j < nj; j++)
            for (int p = 0; p < parts; p++) /* R = R + P: one IEEE addition, round to nearest even */
                r[j][p] = ieee_add(rf, ieee_decode(r_fmt, r[j][p]), ieee_decode(pf, fmt_part_bits(df, acc[j], p)));
        r_fmt = rf;
    }
    /* R into D's format: R + (-0), rounded once to nearest even (exact unless D is narrower: f16) */
    static const ieee_value minus_zero = {1, CLS_ZERO, 0, 0};
    for (int j = 0; j < nj; j++) {
        d[j] = 0;
        for (int p = 0; p < parts; p++)
            d[j] |= fmt_join_part(df, ieee_add(pf, ieee_decode(r_fmt, r[j][p]), minus_zero), p);
    }
}

/* One thread's share: tiles taken one at a time from the shared counter until none is left.  The caller's
 * own thread (the one that called mmaref_gemm) reports progress after each of its tiles; mmaref_gemm
 * reports the end (done == total) once, after every thread has finished. */
typedef struct {
    gemm_job *g;
    int reports;
} gemm_worker;

static void *worker(void *p)
{
    gemm_worker *w = p;
    gemm_job *g = w->g;
    const mmaref_instr *in = g->in;
    fast_kernel kernel = batch_kernel(in);
    for (;;) {
        uint64_t t = __atomic_fetch_add(&g->next, 1, __ATOMIC_RELAXED);
        if (t >= g->tiles)
            break;
        /* tile t: rows from i0, columns from j0 (64-bit: i0 + in->m may pass INT_MAX) */
        int64_t i0 = (int64_t)(t % g->tiles_m) * in->m, j0 = (int64_t)(t / g->tiles_m) * in->n;
        int nj = (int)(j0 + in->n <= g->n ? in->n : g->n - j0);
        for (int64_t i = i0; i < i0 + in->m && i < g->m; i++)
            for (int js = 0; js < nj; js += ROW_SLICE)
                row(g, kernel, (int)i, (int)j0 + js, nj - js < ROW_SLICE ? nj - js : ROW_SLICE);
        uint64_t done = __atomic_add_fetch(&g->done, 1, __ATOMIC_RELAXED);
        if (w->reports && done < g->tiles && g->opt && g->opt->progress)
            g->opt->progress(g->opt->progress_ctx, done, g->tiles);
    }
    return NULL;
}

/* Every element of a row-major rows x cols array of format f fits the format; else a message naming it. */
static int check_bits(const char *what, const uint64_t *x, size_t rows, size_t cols, mmaref_format f,
                      char *msg, size_t len)
{
    for (size_t e = 0; e < rows * cols; e++)
        if (!mmaref_format_valid_bits(f, x[e])) {
            set_msg(msg, len, "mmaref_gemm: %s[%zu][%zu] = 0x%llx does not fit in %s", what, e / cols, e % cols,
                    (unsigned long long)x[e], mmaref_format_name(f));
            return -1;
        }
    return 0;
}

/* dst (rows x dst_cols) = src (rows x cols), or its transpose when transpose is set (src is cols x rows),
 * the columns from cols on filled with pad. */
static void lay_out(uint64_t *dst, const uint64_t *src, size_t rows, size_t cols, size_t dst_cols, int transpose,
                    uint64_t pad)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t q = 0; q < dst_cols; q++)
            dst[r * dst_cols + q] = q >= cols ? pad : transpose ? src[q * rows + r] : src[r * cols + q];
}

/* The padding of a ragged last K chunk (docs/gemm.md, "Padding"): a = +0 and b = -0, whose product, a
 * zero of exponent -252 (or of the pass's zero_term_exp, which a zero C takes too), never raises e_max
 * (C's exponent is at least -126, or that of a zero term) and adds -0, which leaves
 * every IEEE sum as it is; b = +0 where the format has no -0 (fnuz: that pattern is NaN).  Padded block
 * scales are the pattern 0: the smallest scale (ue8m0 2^-127, ue4m3 zero). */
static uint64_t pad_b(mmaref_format f)
{
    const fmt_desc *fd = fmt_of(f), *pf = part_format(fd);
    uint64_t minus_zero = 0; /* -0 in every part (f32c: -0 - 0i) */
    for (int p = 0; p < fmt_parts(fd); p++)
        minus_zero |= fmt_join_part(fd, 1ULL << (pf->width - 1), p);
    return fmt_has_neg_zero(fd) ? minus_zero : 0;
}

mmaref_status mmaref_gemm(const mmaref_instr *in, int m, int n, int k, const uint64_t *A, const uint64_t *B,
                          const uint64_t *C, const uint64_t *SA, const uint64_t *SB, uint64_t *D,
                          const mmaref_gemm_options *opt, char *msg, size_t msglen)
{
    if (!in || !A || !B || !D) {
        set_msg(msg, msglen, "mmaref_gemm: null argument");
        return MMAREF_ERR_ARGUMENT;
    }
    mmaref_status st = mmaref_check_schedule(in, msg, msglen);
    if (st)
        return st;
    mmaref_accumulation kind = opt ? opt->kind : MMAREF_ACC_SERIAL;
    int param = opt ? opt->param : 0, ns = mmaref_scale_count(in);
    if (m < 1 || n < 1 || k < 1) {
        set_msg(msg, msglen, "mmaref_gemm: M, N and K must be at least 1 (got %d, %d, %d)", m, n, k);
        return MMAREF_ERR_ARGUMENT;
    }
    int chunks = (int)(((int64_t)k + in->k - 1) / in->k);
    if (in->c != in->d) {
        set_msg(msg, msglen, "mmaref_gemm: %s has C in %s and D in %s; chaining D into the next instruction's C "
                "needs the two formats equal", in->name, mmaref_format_name(in->c), mmaref_format_name(in->d));
        return MMAREF_ERR_INSTRUCTION;
    }
    if ((unsigned)kind >= MMAREF_ACC_COUNT) {
        set_msg(msg, msglen, "mmaref_gemm: unknown accumulation kind %d", (int)kind);
        return MMAREF_ERR_ARGUMENT;
    }
    if (kind == MMAREF_ACC_SPLIT_K && (param < 1 || param > chunks)) {
        set_msg(msg, msglen, "mmaref_gemm: split-k:%d needs 1 .. %d slices (K = %d is %d chunks of %d)", param, chunks,
                k, chunks, in->k);
        return MMAREF_ERR_ARGUMENT;
    }
    if (kind == MMAREF_ACC_PROMOTE && param < 1) {
        set_msg(msg, msglen, "mmaref_gemm: promote:%d needs at least 1 instruction per promotion", param);
        return MMAREF_ERR_ARGUMENT;
    }
    if (kind != MMAREF_ACC_SERIAL && fmt_of(in->d)->specials != MMAREF_SPECIALS_IEEE) {
        set_msg(msg, msglen, "mmaref_gemm: %s: D in %s has no IEEE addition to reduce in", in->name,
                mmaref_format_name(in->d));
        return MMAREF_ERR_INSTRUCTION;
    }
    if (ns && (!SA || !SB)) {
        set_msg(msg, msglen, "mmaref_gemm: %s takes block scales SA (M x K/%d) and SB (K/%d x N)", in->name,
                in->block_size, in->block_size);
        return MMAREF_ERR_ARGUMENT;
    }
    if (ns && k % in->block_size) {
        set_msg(msg, msglen, "mmaref_gemm: K = %d is not a multiple of %s's scale block of %d", k, in->name,
                in->block_size);
        return MMAREF_ERR_ARGUMENT;
    }
    size_t kp = (size_t)chunks * in->k, sk = ns ? (size_t)k / in->block_size : 0, sp = (size_t)chunks * ns;
    if (check_bits("A", A, m, k, in->a, msg, msglen) || check_bits("B", B, k, n, in->b, msg, msglen) ||
        (C && check_bits("C", C, m, n, in->c, msg, msglen)) ||
        (ns && (check_bits("SA", SA, m, sk, in->scale, msg, msglen) ||
                check_bits("SB", SB, sk, n, in->scale, msg, msglen))))
        return MMAREF_ERR_VALUE;

    gemm_job g = {.in = in, .m = m, .n = n, .chunks = chunks, .kp = kp, .sp = sp, .c = C, .d = D, .kind = kind,
                  .param = param, .opt = opt};
    g.tiles_m = ((uint64_t)m + in->m - 1) / in->m;
    g.tiles = g.tiles_m * (((uint64_t)n + in->n - 1) / in->n);
    g.a = malloc((size_t)m * kp * sizeof *g.a);
    g.bt = malloc((size_t)n * kp * sizeof *g.bt);
    g.sa = ns ? malloc((size_t)m * sp * sizeof *g.sa) : NULL;
    g.sbt = ns ? malloc((size_t)n * sp * sizeof *g.sbt) : NULL;
    if (!g.a || !g.bt || (ns && (!g.sa || !g.sbt))) {
        set_msg(msg, msglen, "mmaref_gemm: out of memory for a %d x %d x %d GEMM", m, n, k);
        st = MMAREF_ERR_ARGUMENT;
        goto out;
    }
    lay_out(g.a, A, m, k, kp, 0, 0);
    lay_out(g.bt, B, n, k, kp, 1, pad_b(in->b));
    if (ns) {
        lay_out(g.sa, SA, m, sk, sp, 0, 0);
        lay_out(g.sbt, SB, n, sk, sp, 1, 0);
    }

    /* threads: as asked, or one per online core; never more than there are tiles */
    long want = opt && opt->threads > 0 ? opt->threads : sysconf(_SC_NPROCESSORS_ONLN);
    int threads = (int)(want < 1 ? 1 : want > 1024 ? 1024 : want);
    if ((uint64_t)threads > g.tiles)
        threads = (int)g.tiles;
    pthread_t tid[1024];
    gemm_worker others = {&g, 0}, caller = {&g, 1};
    int started = 0;
    while (started < threads - 1 && !pthread_create(&tid[started], NULL, worker, &others))
        started++; /* a thread that cannot start leaves its tiles to the others */
    worker(&caller);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    if (opt && opt->progress)
        opt->progress(opt->progress_ctx, g.tiles, g.tiles);
out:
    free(g.a);
    free(g.bt);
    free(g.sa);
    free(g.sbt);
    return st;
}
