/* mmaref_dot_batch on every path against mmaref_dot, one dot-add at a time (tests/t_model_batch.sh).
 * Every distinct configuration of the instruction tables (config_key.h), every one of its directed
 * vectors and random ones from the library's generator (the mixed stream, in batches of at most MAX_N
 * dot-adds), in three layouts (rows; structure of
 * arrays; a tile's columns with one row of A for all, as mmaref_mma reads them), on every path the CPU
 * has.  mmaref_dot is the scalar model (algo_*.c); the kernels (fast_kernel.h, lanes.h) share none of its
 * arithmetic.  Prints one "ok" / "not ok" line per path and layout, and the first mismatches decoded.
 * usage: batch_paths [RANDOM_PER_CONFIG] [--errors | --kernels-only]
 *   --errors        only the bad-input checks
 *   --kernels-only  only the configurations the generic path has a kernel for (a build of one mutant
 *                   kernel: every other configuration runs the scalar model on every path) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_key.h"
#include "mmaref.h"

enum { MAX_N = 4096 };
static const char *const paths[] = {"reference", "generic", "avx2", "avx512"};

typedef struct {
    size_t n;
    uint64_t c[MAX_N], a[MAX_N][MMAREF_MAX_K], b[MAX_N][MMAREF_MAX_K], sa[MAX_N][MMAREF_MAX_SCALES],
        sb[MAX_N][MMAREF_MAX_SCALES], want[MAX_N], got[MAX_N];
    /* structure of arrays: operand i of dot j at [i * n + j] */
    uint64_t soa_a[MMAREF_MAX_K * MAX_N], soa_b[MMAREF_MAX_K * MAX_N], soa_sa[MMAREF_MAX_SCALES * MAX_N],
        soa_sb[MMAREF_MAX_SCALES * MAX_N];
} vectors;

static vectors v;

/* Bad input on every path: a value too wide for its format, in the part the kernels run (dot-add 13)
 * and in the tail (the last dot-add), named in the message; a missing argument. */
static void check_errors(const int *have)
{
    mmaref_instr in;
    char msg[512];
    if (mmaref_lookup("hopper", "mma.m16n8k16.f32.f16.f16.f32", &in, msg, sizeof msg)) {
        printf("not ok - batch errors: %s\n", msg);
        return;
    }
    enum { N = 19 };
    static uint64_t c[N], a[N][16], b[N][16], d[N];
    for (int j = 0; j < N; j++)
        for (int i = 0; i < 16; i++)
            a[j][i] = b[j][i] = 0x3c00; /* 1.0 */
    for (int p = 0; p < 4; p++) {
        if (!have[p])
            continue;
        mmaref_simd_select(paths[p], NULL, 0);
        mmaref_dots x = mmaref_dots_rows(&in, c, &a[0][0], &b[0][0], NULL, NULL);
        struct { int j, i; const char *want; } cases[] = {
            {13, 2, "dot-add 13: a[2] = 0x13c00 does not fit in f16 (16 bits)"},
            {N - 1, 15, "dot-add 18: a[15] = 0x13c00 does not fit in f16 (16 bits)"},
        };
        for (int t = 0; t < 2; t++) {
            a[cases[t].j][cases[t].i] = 0x13c00;
            mmaref_status st = mmaref_dot_batch(&in, N, &x, d, msg, sizeof msg);
            a[cases[t].j][cases[t].i] = 0x3c00;
            printf("%s - batch errors (%s): a value too wide for f16 at dot-add %d: %s\n",
                   st == MMAREF_ERR_VALUE && strstr(msg, cases[t].want) ? "ok" : "not ok", paths[p], cases[t].j,
                   st ? msg : "accepted");
        }
        mmaref_status st = mmaref_dot_batch(&in, N, NULL, d, msg, sizeof msg);
        printf("%s - batch errors (%s): no operands: %s\n",
               st == MMAREF_ERR_ARGUMENT && strstr(msg, "null argument") ? "ok" : "not ok", paths[p], msg);
        st = mmaref_dot_batch(&in, N, &x, d, msg, sizeof msg);
        printf("%s - batch errors (%s): the same batch without the bad value computes (D = 16)\n",
               st == MMAREF_OK && d[0] == 0x41800000 && d[N - 1] == 0x41800000 ? "ok" : "not ok", paths[p]);
    }
    if (mmaref_lookup("rtx-blackwell", "mma.m16n8k32.block32.f32.e4m3.e4m3.f32.ue8m0", &in, msg, sizeof msg) == 0) {
        mmaref_dots x = mmaref_dots_rows(&in, c, &a[0][0], &b[0][0], NULL, NULL);
        mmaref_status st = mmaref_dot_batch(&in, 1, &x, d, msg, sizeof msg);
        printf("%s - batch errors: a scaled instruction without scales: %s\n",
               st == MMAREF_ERR_ARGUMENT && strstr(msg, "block scale factors") ? "ok" : "not ok", msg);
    } else
        printf("not ok - batch errors: %s\n", msg);
}

/* Vectors first .. of the mixed stream of seed 17 (directed: its directed count; total: how far the check
 * goes), fewer than MAX_N of them, on every path and layout; returns how many, 0 where one could not be
 * made or computed (reported). */
static size_t check_batch(const mmaref_instr *in, uint64_t first, uint64_t total, uint64_t directed, const int *have,
                          unsigned long long vecs[4][3], unsigned long long bad[4][3])
{
    char msg[256];
    int k = in->k, ns = mmaref_scale_count(in);
    v.n = total - first < MAX_N ? (size_t)(total - first) : MAX_N - 1;
    v.n -= v.n % 8 == 0; /* never a whole number of lane groups: the tail is tested too */
    for (size_t j = 0; j < v.n; j++) {
        uint64_t index = first + j; /* the two kinds of the mixed stream asked for directly */
        if (mmaref_gen_vector(in, index < directed ? MMAREF_GEN_DIRECTED : MMAREF_GEN_RANDOM, 17, index,
                              &v.c[j], v.a[j], v.b[j], v.sa[j], v.sb[j]) < 0 ||
            mmaref_dot(in, v.c[j], v.a[j], v.b[j], ns ? v.sa[j] : NULL, ns ? v.sb[j] : NULL, &v.want[j], msg,
                       sizeof msg)) {
            printf("not ok - batch paths: %s %s vector %llu: %s\n", in->arch, in->name,
                   (unsigned long long)index, msg);
            return 0;
        }
        for (int i = 0; i < k; i++)
            v.soa_a[i * v.n + j] = v.a[j][i], v.soa_b[i * v.n + j] = v.b[j][i];
        for (int s = 0; s < ns; s++)
            v.soa_sa[s * v.n + j] = v.sa[j][s], v.soa_sb[s * v.n + j] = v.sb[j][s];
    }
    ptrdiff_t n = (ptrdiff_t)v.n;
    mmaref_dots layouts[3] = {
        {{v.c, 1, 0}, {&v.a[0][0], MMAREF_MAX_K, 1}, {&v.b[0][0], MMAREF_MAX_K, 1},
         {&v.sa[0][0], MMAREF_MAX_SCALES, 1}, {&v.sb[0][0], MMAREF_MAX_SCALES, 1}},
        {{v.c, 1, 0}, {v.soa_a, 1, n}, {v.soa_b, 1, n}, {v.soa_sa, 1, n}, {v.soa_sb, 1, n}},
        /* mmaref_mma's reading of a 1 x n tile: A's one row for every column, B's columns */
        {{v.c, 1, 0}, {&v.a[0][0], 0, 1}, {v.soa_b, 1, n}, {&v.sa[0][0], 0, 1}, {v.soa_sb, 1, n}},
    };
    for (int p = 0; p < 4; p++) {
        if (!have[p])
            continue;
        mmaref_simd_select(paths[p], NULL, 0);
        for (int l = 0; l < 3; l++) {
            size_t n_here = v.n;
            uint64_t want_row[MAX_N];
            const uint64_t *want = v.want;
            if (l == 2) { /* one row of A: dot j = row 0 of A with column j of B */
                for (size_t j = 0; j < v.n; j++)
                    mmaref_dot(in, v.c[j], v.a[0], v.b[j], ns ? v.sa[0] : NULL, ns ? v.sb[j] : NULL,
                               &want_row[j], NULL, 0);
                want = want_row;
            }
            memset(v.got, 0xA5, sizeof v.got);
            if (mmaref_dot_batch(in, n_here, &layouts[l], v.got, msg, sizeof msg)) {
                printf("not ok - batch paths: %s %s on %s, layout %d: %s\n", in->arch, in->name, paths[p], l, msg);
                bad[p][l]++;
                continue;
            }
            vecs[p][l] += n_here;
            for (size_t j = 0; j < n_here; j++)
                if (v.got[j] != want[j] && bad[p][l]++ < 3)
                    printf("# %s %s on %s, layout %d, vector %zu (mixed stream, seed 17, index %llu): batch 0x%llx, "
                           "mmaref_dot 0x%llx\n", in->arch, in->name, paths[p], l, j,
                           (unsigned long long)(first + j), (unsigned long long)v.got[j],
                           (unsigned long long)want[j]);
        }
    }
    return v.n;
}

int main(int argc, char **argv)
{
    size_t random_n = argc > 1 ? strtoul(argv[1], NULL, 10) : 600;
    size_t count = mmaref_list(NULL, NULL, 0);
    mmaref_instr *all = calloc(count, sizeof *all);
    config_key *seen = calloc(count, sizeof *seen);
    size_t configs = 0, with_kernel = 0, auto_kernel = 0;
    const char *auto_path = "reference";
    if (!all || !seen || mmaref_list(NULL, all, count) != count)
        return 2;
    unsigned long long vecs[4][3] = {{0}}, bad[4][3] = {{0}};
    int have[4];
    char msg[256];
    for (int p = 0; p < 4; p++)
        have[p] = mmaref_simd_select(paths[p], msg, sizeof msg) == MMAREF_OK;
    if (argc > 2 && !strcmp(argv[2], "--errors")) {
        check_errors(have);
        free(all), free(seen);
        return 0;
    }
    int kernels_only = argc > 2 && !strcmp(argv[2], "--kernels-only");
    for (size_t t = 0; t < count; t++) {
        const mmaref_instr *in = &all[t];
        if (!config_first_seen(seen, &configs, in))
            continue;
        /* a kernel on the generic path (every build with kernels; FAST_SIMD=0 builds have no others), and
         * on the path chosen by default (t_model_batch checks the count where the build has every path) */
        mmaref_simd_select("generic", NULL, 0);
        int kernel = strcmp(mmaref_simd_path(in), "reference") != 0;
        with_kernel += kernel;
        if (kernels_only && !kernel)
            continue;
        mmaref_simd_select("auto", NULL, 0);
        if (strcmp(mmaref_simd_path(in), "reference"))
            auto_kernel++, auto_path = mmaref_simd_path(in);
        /* the mixed stream's first directed + random_n vectors (every directed vector, then random ones),
         * in batches of fewer than MAX_N, never a whole number of lane groups: each has a tail */
        uint64_t directed = mmaref_gen_directed_count(in), total = directed + random_n;
        for (uint64_t first = 0, done; first < total; first += done)
            if (!(done = check_batch(in, first, total, directed, have, vecs, bad))) {
                free(all), free(seen);
                return 1;
            }
    }
    static const char *const layout_names[] = {"rows", "structure of arrays", "tile columns"};
    int failed = 0;
    for (int p = 0; p < 4; p++) {
        if (!have[p]) {
            printf("# path %s: this CPU does not have it\n", paths[p]);
            continue;
        }
        for (int l = 0; l < 3; l++) {
            failed |= bad[p][l] != 0;
            printf("%s - batch paths: %s, %s: %zu configurations (%zu with a kernel), %llu vectors, %llu mismatches\n",
                   bad[p][l] || !vecs[p][l] ? "not ok" : "ok", paths[p], layout_names[l], configs, with_kernel,
                   vecs[p][l], bad[p][l]);
        }
    }
    /* a build that lost its kernels would pass every line above on the reference path alone */
    printf("%s - batch paths: the generated kernels serve %zu of the %zu configurations\n",
           with_kernel ? "ok" : "not ok", with_kernel, configs);
    printf("# auto path: %s, kernels for %zu configurations\n", auto_path, auto_kernel);
    free(all), free(seen);
    return failed || !with_kernel;
}
