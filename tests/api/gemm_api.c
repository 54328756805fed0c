/* mmaref_gemm through the C API (run by tests/t_cli_gemm.sh): the defaults (opt NULL, C NULL), the
 * progress callback's contract, every refusal as a status plus a one-line message, and D independent of
 * the host's rounding mode.  Prints "ok - ..." / "not ok - ..." lines. */
#include <fenv.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmaref.h"

static int failures;
static void check(int good, const char *what, const char *detail)
{
    printf("%s - gemm api: %s%s%s\n", good ? "ok" : "not ok", what, good ? "" : ": ", good ? "" : detail);
    failures += !good;
}

static uint64_t state = 12345;
/* f16 normal numbers near 1 with random signs and mantissas, or an f32 of the same kind */
static uint64_t f16_near_one(void) { uint64_t r = mmaref_rand(&state); return (r & 0x83ff) | (uint64_t)(13 + r % 5) << 10; }
static uint64_t f32_near_one(void)
{
    uint64_t r = mmaref_rand(&state);
    return (r & 0x807fffff) | (uint64_t)(125 + (r >> 32) % 5) << 23;
}

typedef struct {
    pthread_t caller;
    int calls, last_done, monotone, on_caller, ends;
} progress_log;

static void progress(void *ctx, uint64_t done, uint64_t total)
{
    progress_log *p = ctx;
    p->calls++;
    p->monotone &= (int)done >= p->last_done && done <= total;
    p->last_done = (int)done;
    p->on_caller &= pthread_equal(pthread_self(), p->caller) != 0;
    p->ends += done == total;
}

/* status st with a one-line message containing want */
static void refused(mmaref_status st, const char *msg, const char *want, const char *what)
{
    char detail[600];
    snprintf(detail, sizeof detail, "status %d, message '%s' (wanted '%s')", (int)st, msg, want);
    check(st != MMAREF_OK && strstr(msg, want) && !strchr(msg, '\n'), what, detail);
}

int main(void)
{
    enum { M = 70, N = 19, K = 45 };
    mmaref_instr in, volta, scaled;
    char msg[512] = "";
    if (mmaref_lookup("hopper", "wgmma.m64n8k16.f32.f16.f16", &in, msg, sizeof msg) ||
        mmaref_lookup("volta", "mma.m8n8k4.f32.f16.f16.f16", &volta, msg, sizeof msg) ||
        mmaref_lookup("blackwell", "tcgen05.mma.m128n8k32.block32.f32.e4m3.e4m3.ue8m0", &scaled, msg, sizeof msg)) {
        printf("not ok - gemm api: lookup: %s\n", msg);
        return 1;
    }
    static uint64_t A[M * K], B[K * N], C[M * N], zero[M * N], D1[M * N], D2[M * N], D3[M * N];
    for (int i = 0; i < M * K; i++)
        A[i] = f16_near_one();
    for (int i = 0; i < K * N; i++)
        B[i] = f16_near_one();
    for (int i = 0; i < M * N; i++)
        C[i] = f32_near_one();

    /* defaults: opt NULL is serial on every core; C NULL is +0 */
    mmaref_gemm_options serial1 = {.kind = MMAREF_ACC_SERIAL, .threads = 1};
    mmaref_status s1 = mmaref_gemm(&in, M, N, K, A, B, NULL, NULL, NULL, D1, NULL, msg, sizeof msg);
    mmaref_status s2 = mmaref_gemm(&in, M, N, K, A, B, zero, NULL, NULL, D2, &serial1, msg, sizeof msg);
    check(!s1 && !s2 && !memcmp(D1, D2, sizeof D1), "opt NULL and C NULL equal serial, 1 thread, C = +0", msg);

    /* progress: from the calling thread, done never decreasing, the end (done == total) reported once */
    progress_log log = {.caller = pthread_self(), .monotone = 1, .on_caller = 1};
    mmaref_gemm_options withprog = {.kind = MMAREF_ACC_PROMOTE, .param = 2, .threads = 3, .progress = progress,
                                    .progress_ctx = &log};
    s1 = mmaref_gemm(&in, M, N, K, A, B, C, NULL, NULL, D1, &withprog, msg, sizeof msg);
    /* 2 x 3 = 6 tiles of 64 x 8 */
    check(!s1 && log.calls >= 1 && log.monotone && log.on_caller && log.ends == 1 && log.last_done == 6,
          "progress from the calling thread, ends once at 6 of 6 tiles", "");

    /* the host's rounding mode changes nothing (the FP32 adds are the library's integer IEEE ones) */
    mmaref_gemm_options promote = {.kind = MMAREF_ACC_PROMOTE, .param = 2, .threads = 2};
    fesetround(FE_UPWARD);
    s2 = mmaref_gemm(&in, M, N, K, A, B, C, NULL, NULL, D2, &promote, msg, sizeof msg);
    fesetround(FE_TOWARDZERO);
    mmaref_status s3 = mmaref_gemm(&in, M, N, K, A, B, C, NULL, NULL, D3, &promote, msg, sizeof msg);
    fesetround(FE_TONEAREST);
    check(!s2 && !s3 && !memcmp(D1, D2, sizeof D1) && !memcmp(D1, D3, sizeof D1),
          "promote:2 identical under round-upward and round-toward-zero host modes", msg);

    /* refusals */
    mmaref_gemm_options o = {.kind = MMAREF_ACC_SERIAL};
    refused(mmaref_gemm(&in, M, N, K, NULL, B, C, NULL, NULL, D1, &o, msg, sizeof msg), msg, "null argument",
            "A NULL");
    refused(mmaref_gemm(&in, 0, N, K, A, B, C, NULL, NULL, D1, &o, msg, sizeof msg), msg, "at least 1", "M = 0");
    o.kind = (mmaref_accumulation)7;
    refused(mmaref_gemm(&in, M, N, K, A, B, C, NULL, NULL, D1, &o, msg, sizeof msg), msg, "unknown accumulation",
            "unknown accumulation kind");
    o.kind = MMAREF_ACC_SPLIT_K, o.param = 4; /* K = 45 is 3 chunks of 16 */
    refused(mmaref_gemm(&in, M, N, K, A, B, C, NULL, NULL, D1, &o, msg, sizeof msg), msg, "needs 1 .. 3 slices",
            "split-k:4 over 3 chunks");
    o.kind = MMAREF_ACC_PROMOTE, o.param = 0;
    refused(mmaref_gemm(&in, M, N, K, A, B, C, NULL, NULL, D1, &o, msg, sizeof msg), msg, "promote:0",
            "promote:0");
    o.kind = MMAREF_ACC_SERIAL;
    refused(mmaref_gemm(&volta, M, N, K, A, B, NULL, NULL, NULL, D1, &o, msg, sizeof msg), msg,
            "C in f16 and D in f32", "C and D formats differ");
    refused(mmaref_gemm(&scaled, 4, 4, 32, A, B, NULL, NULL, NULL, D1, &o, msg, sizeof msg), msg,
            "takes block scales", "scaled instruction without scales");
    uint64_t keep = A[1 * K + 2];
    A[1 * K + 2] = 0x10000;
    refused(mmaref_gemm(&in, M, N, K, A, B, C, NULL, NULL, D1, &o, msg, sizeof msg), msg,
            "A[1][2] = 0x10000 does not fit in f16", "operand bits named by matrix, row and column");
    A[1 * K + 2] = keep;
    return failures != 0;
}
