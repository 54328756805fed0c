/* gemm_bench: one whole GEMM through mmaref_gemm (what `mmaref gemm` runs, without the .npy I/O) on 1 and
 * on 2 threads in the same run: seconds (wall and CPU), multiply-adds per second, the 2-thread speed-up,
 * and that both runs give the same bits (1024 x 1024 x 1024 f16 on Hopper
 * wgmma.m64n8k16, target >= 1.8x from 1 to 2 threads and under 5 s on 2 cores).
 *
 * Operands: A, B f16 and C f32 with random signs and mantissas and exponents within 2^-4 .. 2^4 (normal
 * numbers), from a fixed xorshift seed; their generation is not timed.
 *
 * Usage: gemm_bench [--size N] [--repeats R] [--arch A --instr I]
 *   N: M = N = K (default 1024); R: runs per thread count, the best (shortest) wall time reported, which
 *   on a machine shared with other jobs is the closest to the unloaded figure (default 1). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mmaref.h"

#define TARGET_SPEEDUP 1.8
#define TARGET_SECONDS_2T 5.0

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t next(void) /* xorshift64* */
{
    rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1DULL;
}

/* A random normal number of an IEEE format near 1: exponent field bias - 4 .. bias + 4. */
static uint64_t near_one(mmaref_format f)
{
    mmaref_format_info fi;
    mmaref_format_get_info(f, &fi);
    uint64_t sign = next() & 1, e = (uint64_t)(fi.bias - 4 + (int)(next() % 9)), man = next() >> (64 - fi.man_bits);
    return sign << (fi.width - 1) | e << fi.man_bits | man;
}

static double now(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    int size = 1024, repeats = 1;
    const char *arch = "hopper", *name = "wgmma.m64n8k16.f32.f16.f16";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc)
            size = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--repeats") && i + 1 < argc)
            repeats = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--arch") && i + 1 < argc)
            arch = argv[++i];
        else if (!strcmp(argv[i], "--instr") && i + 1 < argc)
            name = argv[++i];
        else {
            fprintf(stderr, "usage: gemm_bench [--size N] [--repeats R] [--arch A --instr I]\n");
            return 2;
        }
    }
    if (size < 1 || size > 16384 || repeats < 1 || repeats > 100) {
        fprintf(stderr, "gemm_bench: --size is 1 .. 16384, --repeats 1 .. 100\n");
        return 2;
    }
    mmaref_instr in;
    char msg[512];
    if (mmaref_lookup(arch, name, &in, msg, sizeof msg)) {
        fprintf(stderr, "gemm_bench: %s\n", msg);
        return 2;
    }
    if (mmaref_scale_count(&in)) {
        fprintf(stderr, "gemm_bench: block-scaled instructions are not benchmarked here\n");
        return 2;
    }
    size_t nn = (size_t)size * size;
    uint64_t *A = malloc(nn * sizeof *A), *B = malloc(nn * sizeof *B), *C = malloc(nn * sizeof *C);
    uint64_t *D[2] = {malloc(nn * sizeof(uint64_t)), malloc(nn * sizeof(uint64_t))};
    if (!A || !B || !C || !D[0] || !D[1]) {
        fprintf(stderr, "gemm_bench: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < nn; i++)
        A[i] = near_one(in.a), B[i] = near_one(in.b), C[i] = near_one(in.c);

    double load[3] = {0, 0, 0};
    FILE *la = fopen("/proc/loadavg", "r");
    if (la) {
        if (fscanf(la, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
            load[0] = -1;
        fclose(la);
    }
    printf("\nGEMM %d x %d x %d, %s %s (load average %.2f before the run; best of %d)\n", size, size, size, arch,
           in.name, load[0], repeats);
    double wall[2], cpu[2], macs = (double)size * size * size;
    for (int t = 0; t < 2; t++) {
        mmaref_gemm_options opt = {.kind = MMAREF_ACC_SERIAL, .threads = t + 1};
        for (int r = 0; r < repeats; r++) {
            double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
            if (mmaref_gemm(&in, size, size, size, A, B, C, NULL, NULL, D[t], &opt, msg, sizeof msg)) {
                fprintf(stderr, "gemm_bench: %s\n", msg);
                return 1;
            }
            double w = now(CLOCK_MONOTONIC) - w0, c = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
            if (!r || w < wall[t])
                wall[t] = w, cpu[t] = c;
        }
        printf("  %d thread%s %7.2f s wall (%7.2f s CPU)  %8.1f M multiply-adds/s  %6.2f M dot-adds/s\n", t + 1,
               t ? "s" : " ", wall[t], cpu[t], macs / wall[t] / 1e6, macs / in.k / wall[t] / 1e6);
    }
    int same = !memcmp(D[0], D[1], nn * sizeof(uint64_t));
    double speedup = wall[0] / wall[1];
    printf("  speed-up 1 -> 2 threads: %.2fx (target >= %.1fx); 2 threads %.2f s (target < %.0f s); D %s\n", speedup,
           TARGET_SPEEDUP, wall[1], TARGET_SECONDS_2T, same ? "identical on 1 and 2 threads" : "DIFFERS");
    printf("  %s\n", speedup >= TARGET_SPEEDUP && wall[1] < TARGET_SECONDS_2T ? "GEMM targets met"
                     : "GEMM targets missed (on a loaded machine, compare the CPU seconds)");
    free(A), free(B), free(C), free(D[0]), free(D[1]);
    return same ? 0 : 1;
}
