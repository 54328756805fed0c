/* mmaref_dot_batch: many dot-adds of one instruction, through its generated kernel on the selected
 * path (fast.h) where it has one, else one at a time through mmaref_dot; mmaref_mma, a whole tile as
 * one batch a row.  Also the path selection (MMAREF_SIMD, mmaref_simd_select). */
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

#include "fast.h"
#include "schedule.h"

static const char *const path_names[FAST_PATH_COUNT] = {"reference", "generic", "avx2", "avx512"};

static int cpu_has(fast_path p)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    switch (p) {
    case FAST_AVX2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case FAST_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
               __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("fma");
    default: return 1;
    }
#else
    return p == FAST_REFERENCE || p == FAST_GENERIC;
#endif
}

/* AMD family 19h (Zen 3, Zen 4) runs an AVX-512 instruction as two 256-bit halves: there the avx2
 * kernels are the faster ones (on a Zen 4 EPYC, `make bench`: 9 of 10 kinds, FDA f16 K = 16 3.8 against
 * 5.6 cycles a product, SFMA f64 1.0 against 4.0; docs/speed.md), so auto takes avx2.  Everywhere else
 * the widest path the CPU has. */
static int avx512_split_in_halves(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx))
        return 0;
    const int amd = ebx == 0x68747541 && edx == 0x69746e65 && ecx == 0x444d4163; /* "AuthenticAMD" */
    if (!amd || !__get_cpuid(1, &eax, &ebx, &ecx, &edx))
        return 0;
    unsigned family = (eax >> 8) & 0xf;
    if (family == 0xf)
        family += (eax >> 20) & 0xff; /* the extended family */
    return family == 0x19;
#else
    return 0;
#endif
}

/* The selected path; -1 until the first batch or mmaref_simd_select.  A bad MMAREF_SIMD leaves it -2
 * and every batch reports it. */
static int selected = -1;
static char env_error[160];

static mmaref_status select_path(const char *name, int *path, char *msg, size_t len)
{
    if (!name || !strcmp(name, "auto")) {
        int best = FAST_GENERIC;
        for (int p = FAST_AVX2; p < FAST_PATH_COUNT; p++)
            if (cpu_has((fast_path)p) && !(p == FAST_AVX512 && best == FAST_AVX2 && avx512_split_in_halves()))
                best = p;
        *path = best;
        return MMAREF_OK;
    }
    for (int p = 0; p < FAST_PATH_COUNT; p++)
        if (!strcmp(name, path_names[p])) {
            if (!cpu_has((fast_path)p)) {
                set_msg(msg, len, "SIMD path '%s': this CPU does not have it", name);
                return MMAREF_ERR_ARGUMENT;
            }
            *path = p;
            return MMAREF_OK;
        }
    set_msg(msg, len, "SIMD path '%s': expected auto, reference, generic, avx2 or avx512", name);
    return MMAREF_ERR_ARGUMENT;
}

mmaref_status mmaref_simd_select(const char *name, char *msg, size_t msglen)
{
    int p;
    if (!name) { /* the environment's choice, as the first batch makes it */
        const char *env = getenv("MMAREF_SIMD");
        char why[128];
        if (env && *env && select_path(env, &p, why, sizeof why)) {
            set_msg(msg, msglen, "MMAREF_SIMD=%s: %s", env, why);
            return MMAREF_ERR_ARGUMENT;
        }
        name = env && *env ? env : "auto";
    }
    mmaref_status st = select_path(name, &p, msg, msglen);
    if (!st)
        __atomic_store_n(&selected, p, __ATOMIC_RELAXED);
    return st;
}

/* The path now: on first use, MMAREF_SIMD's (or auto). */
static int current_path(void)
{
    int p = __atomic_load_n(&selected, __ATOMIC_RELAXED);
    if (p != -1)
        return p;
    const char *env = getenv("MMAREF_SIMD");
    char msg[128];
    if (select_path(env && *env ? env : NULL, &p, msg, sizeof msg)) {
        set_msg(env_error, sizeof env_error, "MMAREF_SIMD=%s: %s", env, msg);
        p = -2;
    }
    __atomic_store_n(&selected, p, __ATOMIC_RELAXED);
    return p;
}

/* The entry of in's configuration; each thread remembers the last one it found (a caller runs many
 * batches of one instruction). */
static const fast_entry *kernel_of(const mmaref_instr *in)
{
    static __thread fast_key last_key;
    static __thread const fast_entry *last;
    fast_key key;
    if (!fast_key_of(in, &key))
        return NULL;
    if (last && fast_key_equal(&last_key, &key))
        return last;
    for (size_t i = 0; i < fast_table_count; i++)
        if (fast_key_equal(&fast_table[i]->key, &key)) {
            last_key = key;
            return last = fast_table[i];
        }
    return NULL;
}

fast_kernel batch_kernel(const mmaref_instr *in)
{
    int path = current_path();
    const fast_entry *e = path > FAST_REFERENCE ? kernel_of(in) : NULL;
    return e ? e->run[path] : NULL;
}

void batch_run(const mmaref_instr *in, fast_kernel kernel, size_t n, const mmaref_dots *x, uint64_t *d)
{
    size_t done = 0;
    if (kernel) {
        uint64_t stray;
        done = n - n % FAST_LANES;
        kernel(in, x, done, d, &stray); /* the caller checked every operand: no stray bits */
    }
    for (size_t j = done; j < n; j++)
        d[j] = batch_reference_one(in, x, j);
}

const char *mmaref_simd_path(const mmaref_instr *in)
{
    int p = current_path();
    if (p < 0)
        return "invalid";
    return in && p != FAST_REFERENCE && schedule_usable(in, NULL, 0) == MMAREF_OK && kernel_of(in) &&
                   kernel_of(in)->run[p] ? path_names[p] : "reference";
}

/* Dot-add j's operands, gathered from the layout into mmaref_dot's arrays. */
typedef struct {
    uint64_t c, a[MMAREF_MAX_K], b[MMAREF_MAX_K], sa[MMAREF_MAX_SCALES], sb[MMAREF_MAX_SCALES];
    int ns;
} one_dot;

/* Dot-add j's operand arrays: in place where the layout keeps them contiguous (the row layout, a tile's
 * A), else gathered into o; *c its C. */
typedef struct {
    uint64_t c;
    const uint64_t *a, *b, *sa, *sb;
} dot_view;

static void gather(const mmaref_instr *in, const mmaref_dots *x, size_t j, one_dot *o);

static inline dot_view view(const mmaref_instr *in, const mmaref_dots *x, size_t j, one_dot *o)
{
    ptrdiff_t jj = (ptrdiff_t)j;
    int ns = mmaref_scale_count(in);
    if (x->a.step == 1 && x->b.step == 1 && (!ns || (x->sa.step == 1 && x->sb.step == 1)))
        return (dot_view){x->c.p ? x->c.p[jj * x->c.lane] : 0, x->a.p + jj * x->a.lane, x->b.p + jj * x->b.lane,
                          ns ? x->sa.p + jj * x->sa.lane : NULL, ns ? x->sb.p + jj * x->sb.lane : NULL};
    gather(in, x, j, o);
    return (dot_view){o->c, o->a, o->b, o->ns ? o->sa : NULL, o->ns ? o->sb : NULL};
}

static void gather(const mmaref_instr *in, const mmaref_dots *x, size_t j, one_dot *o)
{
    ptrdiff_t jj = (ptrdiff_t)j;
    o->c = x->c.p ? x->c.p[jj * x->c.lane] : 0;
    for (int i = 0; i < in->k; i++) {
        o->a[i] = x->a.p[jj * x->a.lane + i * x->a.step];
        o->b[i] = x->b.p[jj * x->b.lane + i * x->b.step];
    }
    o->ns = mmaref_scale_count(in);
    for (int s = 0; s < o->ns; s++) {
        o->sa[s] = x->sa.p[jj * x->sa.lane + s * x->sa.step];
        o->sb[s] = x->sb.p[jj * x->sb.lane + s * x->sb.step];
    }
}

uint64_t batch_reference_one(const mmaref_instr *in, const mmaref_dots *x, size_t j)
{
    one_dot o;
    dot_view v = view(in, x, j, &o);
    return schedule_run(in, v.c, v.a, v.b, v.sa, v.sb);
}

/* Dot-add j through mmaref_dot, its checks included; an error names the dot-add. */
static mmaref_status checked_one(const mmaref_instr *in, const mmaref_dots *x, size_t j, uint64_t *d, char *msg,
                                 size_t len)
{
    one_dot o;
    dot_view v = view(in, x, j, &o);
    mmaref_status st = mmaref_dot(in, v.c, v.a, v.b, v.sa, v.sb, &d[j], NULL, 0);
    if (st) { /* again for the message (the common case formats none) */
        char why[256];
        mmaref_dot(in, v.c, v.a, v.b, v.sa, v.sb, &d[j], why, sizeof why);
        set_msg(msg, len, "dot-add %zu: %s", j, why);
    }
    return st;
}

mmaref_status mmaref_dot_batch(const mmaref_instr *in, size_t n, const mmaref_dots *x, uint64_t *d, char *msg,
                               size_t msglen)
{
    if (!in || !x || (n && (!d || !x->a.p || !x->b.p))) {
        set_msg(msg, msglen, "mmaref_dot_batch: null argument");
        return MMAREF_ERR_ARGUMENT;
    }
    mmaref_status st = mmaref_check_schedule(in, msg, msglen);
    if (st || n == 0)
        return st;
    int ns = mmaref_scale_count(in);
    if (ns && (!x->sa.p || !x->sb.p)) {
        set_msg(msg, msglen, "%s takes %d block scale factors per operand (%s)", in->name, ns,
                mmaref_format_name(in->scale));
        return MMAREF_ERR_ARGUMENT;
    }
    int path = current_path();
    if (path < 0) {
        set_msg(msg, msglen, "%s", env_error);
        return MMAREF_ERR_ARGUMENT;
    }
    const fast_entry *kernel = path != FAST_REFERENCE ? kernel_of(in) : NULL;
    size_t done = 0;
    if (kernel && kernel->run[path]) {
        uint64_t stray = 0;
        done = n - n % FAST_LANES;
        kernel->run[path](in, x, done, d, &stray);
        if (stray) /* a value with bits above its format's width: find and name it */
            for (size_t j = 0; j < done; j++)
                if ((st = checked_one(in, x, j, d, msg, msglen)))
                    return st;
    }
    for (size_t j = done; j < n; j++)
        if ((st = checked_one(in, x, j, d, msg, msglen)))
            return st;
    return MMAREF_OK;
}

/* The whole tile: row i of D is the N dot-adds of A's row i (one for every column of B), one batch. */
mmaref_status mmaref_mma(const mmaref_instr *in, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                         const uint64_t *SA, const uint64_t *SB, uint64_t *D, char *msg, size_t msglen)
{
    if (!in || !A || !B || !C || !D) {
        set_msg(msg, msglen, "mmaref_mma: null argument");
        return MMAREF_ERR_ARGUMENT;
    }
    mmaref_status st = mmaref_check_schedule(in, msg, msglen);
    if (st)
        return st;
    /* row i of D: the N dot-adds of A's row i (one for every column) with B's columns */
    int M = in->m, N = in->n, K = in->k, ns = mmaref_scale_count(in);
    for (int i = 0; i < M; i++) {
        mmaref_dots x = {{C + (size_t)i * N, 1, 0}, {A + (size_t)i * K, 0, 1}, {B, 1, N},
                         {SA ? SA + (size_t)i * ns : NULL, 0, 1}, {SB, 1, N}};
        char why[400];
        st = mmaref_dot_batch(in, (size_t)N, &x, D + (size_t)i * N, why, sizeof why);
        if (st) {
            set_msg(msg, msglen, "row %d, %s", i, why); /* "row i, dot-add j: ..." names D[i][j] */
            return st;
        }
    }
    return MMAREF_OK;
}
