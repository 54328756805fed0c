/* DPI-C wrappers over the public mmaref API: look an instruction up once (arch + name -> handle),
 * compute a dot-add from raw bits (packed vectors or open arrays), return the instruction's parameters.
 * Built with gcc into build/rtl/libmmaref_dpi.a so that the symbols keep C linkage.
 *
 * Safe under a multi-threaded Verilator model (--threads): the handle table only grows, under a mutex;
 * an entry is written before the count that publishes it (release/acquire), so a reader never sees a
 * half-written record; the label buffer is per thread.  The library itself keeps no shared state. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "svdpi.h"
#include "mmaref_dpi.h"

static mmaref_instr handles[DPI_MAX_HANDLES];
static atomic_int handle_count;
static pthread_mutex_t handles_lock = PTHREAD_MUTEX_INITIALIZER;

const mmaref_instr *mmaref_dpi_instr(int h)
{
    return h >= 0 && h < atomic_load_explicit(&handle_count, memory_order_acquire) ? &handles[h] : NULL;
}

/* The handle of a record: the one already held under its (arch, name), or a new one (under the lock;
 * the count is published after the entry is written). */
static int remember(const mmaref_instr *in, const char *who)
{
    pthread_mutex_lock(&handles_lock);
    int n = atomic_load_explicit(&handle_count, memory_order_relaxed), h = -1;
    for (int i = 0; i < n && h < 0; i++)
        if (handles[i].arch == in->arch && !strcmp(handles[i].name, in->name))
            h = i;
    if (h < 0 && n < DPI_MAX_HANDLES) {
        handles[n] = *in;
        atomic_store_explicit(&handle_count, n + 1, memory_order_release);
        h = n;
    } else if (h < 0) {
        fprintf(stderr, "%s: more than %d instructions looked up\n", who, DPI_MAX_HANDLES);
    }
    pthread_mutex_unlock(&handles_lock);
    return h;
}

int mmaref_dpi_lookup(const char *arch, const char *name)
{
    mmaref_instr in;
    char msg[512];
    if (mmaref_lookup(arch, name, &in, msg, sizeof msg) != MMAREF_OK) {
        fprintf(stderr, "mmaref_dpi_lookup: %s\n", msg);
        return -1;
    }
    return remember(&in, "mmaref_dpi_lookup");
}

int mmaref_dpi_with_k(int h, int k)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    if (!in || k > DPI_MAX_K) { /* the DPI's own bound: its vectors hold DPI_MAX_K lanes */
        fprintf(stderr, "mmaref_dpi_with_k: handle %d (%s) is not an instruction, or k = %d is over the DPI's %d lanes\n",
                h, mmaref_dpi_label(h), k, DPI_MAX_K);
        return -1;
    }
    mmaref_instr w;
    char msg[512];
    if (mmaref_with_k(in, k, &w, msg, sizeof msg) != MMAREF_OK) { /* a multi-pass instruction, K < 1, ... */
        fprintf(stderr, "mmaref_dpi_with_k: %s\n", msg);
        return -1;
    }
    return remember(&w, "mmaref_dpi_with_k");
}

int mmaref_dpi_param(int h, const char *key)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    if (!in || !key)
        return -1;
    /* the schedule's parameters are those of its first pass (every pass of a table entry shares
     * them), "out" is D's (the last pass's) */
    const mmaref_pass *p0 = &in->pass[0];
    static const char *const keys[] = {"k", "m", "n", "frac_bits", "passes", "block_size", "group",
                                       "a", "b", "c", "d", "scale", "out", "algo", "blocks", "flush",
                                       "align_products", "align_c", "scales", "k_count", "k_run", "k_stride",
                                       "ab_f16", "c_last", "zero_term_exp"};
    const int vals[] = {in->k, in->m, in->n, p0->frac_bits, in->passes, in->block_size, p0->group,
                        in->a, in->b, in->c, in->d, in->scale, in->pass[in->passes - 1].out, p0->algo,
                        in->blocks, p0->flush, p0->align_products, p0->align_c, p0->scales, p0->k_count,
                        p0->k_run, p0->k_stride, p0->ab_f16, in->c_last, p0->zero_term_exp};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcmp(key, keys[i]))
            return vals[i];
    return -1;
}

const char *mmaref_dpi_label(int h)
{
    static _Thread_local char label[160];
    const mmaref_instr *in = mmaref_dpi_instr(h);
    if (!in)
        return "?";
    snprintf(label, sizeof label, "%s:%s", in->arch, in->name);
    return label;
}

/* lane i of a packed vector of 32-bit lanes */
static inline uint64_t lane(const svBitVecVal *v, int i) { return v[i]; }

int mmaref_dpi_dot(int h, unsigned int c, const svBitVecVal *a, const svBitVecVal *b,
                   const svBitVecVal *sa, const svBitVecVal *sb, unsigned int *d)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    if (!in || in->k > DPI_MAX_K)
        return MMAREF_ERR_ARGUMENT;
    uint64_t av[DPI_MAX_K], bv[DPI_MAX_K], sav[DPI_MAX_SCALE], sbv[DPI_MAX_SCALE], dv = 0;
    for (int i = 0; i < in->k; i++) {
        av[i] = lane(a, i);
        bv[i] = lane(b, i);
    }
    int ns = mmaref_scale_count(in);
    for (int i = 0; i < ns && i < DPI_MAX_SCALE; i++) {
        sav[i] = lane(sa, i);
        sbv[i] = lane(sb, i);
    }
    char msg[256];
    mmaref_status st = mmaref_dot(in, c, av, bv, ns ? sav : NULL, ns ? sbv : NULL, &dv, msg, sizeof msg);
    if (st != MMAREF_OK)
        fprintf(stderr, "mmaref_dpi_dot: %s\n", msg);
    *d = (unsigned int)dv;
    return st;
}

int mmaref_dpi_dot_arr(int h, unsigned long long c, const svOpenArrayHandle a, const svOpenArrayHandle b,
                       const svOpenArrayHandle sa, const svOpenArrayHandle sb, unsigned long long *d)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    if (!in || in->k > DPI_MAX_K || svSize(a, 1) < in->k || svSize(b, 1) < in->k)
        return MMAREF_ERR_ARGUMENT;
    uint64_t av[DPI_MAX_K], bv[DPI_MAX_K], sav[DPI_MAX_SCALE], sbv[DPI_MAX_SCALE], dv = 0;
    int la = svLow(a, 1), lb = svLow(b, 1);
    for (int i = 0; i < in->k; i++) {
        av[i] = *(const uint64_t *)svGetArrElemPtr1(a, la + i);
        bv[i] = *(const uint64_t *)svGetArrElemPtr1(b, lb + i);
    }
    int ns = mmaref_scale_count(in);
    if (ns && (svSize(sa, 1) < ns || svSize(sb, 1) < ns || ns > DPI_MAX_SCALE))
        return MMAREF_ERR_ARGUMENT;
    for (int i = 0; i < ns; i++) {
        sav[i] = *(const uint64_t *)svGetArrElemPtr1(sa, svLow(sa, 1) + i);
        sbv[i] = *(const uint64_t *)svGetArrElemPtr1(sb, svLow(sb, 1) + i);
    }
    char msg[256];
    mmaref_status st = mmaref_dot(in, c, av, bv, ns ? sav : NULL, ns ? sbv : NULL, &dv, msg, sizeof msg);
    if (st != MMAREF_OK)
        fprintf(stderr, "mmaref_dpi_dot_arr: %s\n", msg);
    *d = dv;
    return st;
}
