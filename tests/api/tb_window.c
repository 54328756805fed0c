/* The testbench's stimulus windows (tb/tb_support.c): the vector and D that mmaref_tb_gen and
 * mmaref_tb_gen_packed give -- D computed TB_WINDOW vectors at a time by mmaref_dot_batch -- must be
 * tb_vector_at's vector and mmaref_dot's D on it (a separate path), for every index of a sequential run
 * over more than 3 windows and for indices out of order: a jump back, one far ahead, the same index
 * twice, the index just before a window, another seed, two handles interleaved.  Prints
 * "tb window: N vectors, M disagreements".
 * --batch-error (run with MMAREF_SIMD naming no path, so that every batch fails): both must return -1
 * after printing the batch's message; prints "tb window: batch error reported".
 * Built with the sanitizers by tests/t_rtl_dpi.sh against the DPI library's sources. */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "svdpi.h"
#include "mmaref_dpi.h"
#include "tb_support.h"

/* The open-array accessors the bridge's dot_arr uses come from the simulator; not called here. */
int svSize(const svOpenArrayHandle h, int d) { (void)h, (void)d; abort(); }
int svLow(const svOpenArrayHandle h, int d) { (void)h, (void)d; abort(); }
void *svGetArrElemPtr1(const svOpenArrayHandle h, int i) { (void)h, (void)i; abort(); }
/* the bridge's run-time K (dpi/mmaref_dpi_pkg.sv; the naive M3XU unit's record) */
int mmaref_dpi_with_k(int h, int k);

/* one instruction of each unit family and operand layout: scales per block and per group (K = 64),
 * flushing GPS, 64-bit D (f64, f32c), packed at 4 to 64 bits, A and B of two widths (e2m1 beside e4m3:
 * packed in lanes of the wider) */
static const char *const instrs[][2] = {
    {"volta", "mma.m8n8k4.f32.f16.f16.f32"},
    {"hopper", "mma.m16n8k16.f32.f16.f16.f32"},
    {"ada", "mma.m16n8k32.f32.e4m3.e4m3.f32"},
    {"blackwell", "tcgen05.mma.m128n8k32.block32.f32.e4m3.e2m1.ue8m0"},
    {"blackwell", "tcgen05.mma.m128n8k64.block16.f32.e2m1.e2m1.ue4m3"},
    {"blackwell", "tcgen05.mma.m64n8k32.f32.e2m1.e4m3"},
    {"cdna2", "v_mfma_f32_32x32x8f16"},
    {"cdna3", "v_mfma_f32_16x16x32_fp8_fp8"},
    {"cdna3", "v_mfma_f32_32x32x4_xf32"},
    {"ampere", "mma.m8n8k4.f64.f64.f64.f64"},
    {"m3xu", "m3xu.m8n4k2.f32c.f32c.f32c.f32c"},
    {"m3xu", "m3xu.m8n4k4.f32.f32.f32.f32"},
};

static long checked, bad;

/* the lane of a packed operand word: the wider of A's and B's formats */
static int lane_width(const mmaref_instr *in)
{
    int wa = mmaref_format_width(in->a), wb = mmaref_format_width(in->b);
    return wa > wb ? wa : wb;
}

/* packed in lanes of that width (mmaref_tb_gen_packed): instructions without scales that fit */
static int packs(const mmaref_instr *in)
{
    return !mmaref_scale_count(in) && in->k * lane_width(in) <= 32 * DPI_MAX_K;
}

/* the packed entry for the same index against the expected vector and D (its D in *pd) */
static int packed_agrees(int h, uint64_t seed, uint64_t idx, int kind, uint64_t c, const uint64_t *a,
                         const uint64_t *b, uint64_t want, unsigned long long *pd)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    int w = lane_width(in);
    svBitVecVal pa[DPI_MAX_K], pb[DPI_MAX_K], xa[DPI_MAX_K], xb[DPI_MAX_K];
    unsigned long long pc = 0;
    int pk = mmaref_tb_gen_packed(h, w, seed, idx, &pc, pa, pb, pd);
    /* a lane narrower than either operand is refused, never filled with cut values */
    unsigned long long nc = 0, nd = 0;
    int narrow = mmaref_format_width(in->a) != mmaref_format_width(in->b)
              && mmaref_tb_gen_packed(h, w - 1, seed, idx, &nc, xa, xb, &nd) != -1;
    tb_pack(xa, DPI_MAX_K, a, in->k, w);
    tb_pack(xb, DPI_MAX_K, b, in->k, w);
    return !narrow && pk == kind && pc == c && *pd == want && !memcmp(pa, xa, sizeof xa) &&
           !memcmp(pb, xb, sizeof xb);
}

/* vector idx of (h, seed) through the window against tb_vector_at and mmaref_dot */
static void check(int h, uint64_t seed, uint64_t idx)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    int ns = mmaref_scale_count(in);
    uint64_t c, a[DPI_MAX_K], b[DPI_MAX_K], sa[DPI_MAX_SCALE], sb[DPI_MAX_SCALE], want = 0;
    char msg[256] = "";
    int kind = tb_vector_at(h, seed, idx, &c, a, b, sa, sb);
    if (kind < 0 || mmaref_dot(in, c, a, b, ns ? sa : NULL, ns ? sb : NULL, &want, msg, sizeof msg))
        kind = -2; /* no expected vector: a disagreement */
    unsigned int gc = 0;
    svBitVecVal ga[DPI_MAX_K], gb[DPI_MAX_K], gsa[DPI_MAX_SCALE], gsb[DPI_MAX_SCALE];
    unsigned long long gd = 0;
    int gk = mmaref_tb_gen(h, seed, idx, &gc, ga, gb, gsa, gsb, &gd);
    /* 32-bit lanes and C: the low halves of 64-bit values; D whole */
    int same = gk == kind && gc == (uint32_t)c && gd == want;
    for (int i = 0; i < in->k; i++)
        same &= ga[i] == (uint32_t)a[i] && gb[i] == (uint32_t)b[i];
    for (int j = 0; j < ns; j++)
        same &= gsa[j] == (uint32_t)sa[j] && gsb[j] == (uint32_t)sb[j];
    unsigned long long pd = gd;
    if (packs(in))
        same &= packed_agrees(h, seed, idx, kind, c, a, b, want, &pd);
    checked++;
    if (!same && bad++ < 5)
        printf("  %s seed %llu index %llu: mmaref_tb_gen kind %d D 0x%llx (packed D 0x%llx), tb_vector_at + "
               "mmaref_dot kind %d D 0x%llx %s\n", mmaref_dpi_label(h), (unsigned long long)seed,
               (unsigned long long)idx, gk, gd, pd, kind, (unsigned long long)want, msg);
}

/* a run over more than 3 windows, then out of order, another seed and another handle in between */
static void check_stream(int h, int other, uint64_t seed)
{
    for (uint64_t i = 0; i < 3 * TB_WINDOW + TB_WINDOW / 2; i++)
        check(h, seed, i);
    const uint64_t jumps[] = {TB_WINDOW + 7,        /* back into a window left behind */
                              TB_WINDOW + 7,        /* the same index again */
                              TB_WINDOW + 6,        /* just before the window now held */
                              TB_WINDOW + 6 + TB_WINDOW, /* just past it */
                              5,                    /* far back, among the directed vectors */
                              1000000007,           /* far ahead */
                              1000000007 + TB_WINDOW - 1, 1000000007 + TB_WINDOW, 1000000006,
                              (uint64_t)1 << 62,    /* near the top of the index range */
                              3, 3};
    for (size_t j = 0; j < sizeof jumps / sizeof jumps[0]; j++)
        check(h, seed, jumps[j]);
    /* another seed at the same index (a random one: the directed vectors are every seed's) */
    check(h, seed, 1000000000);
    check(h, seed + 1, 1000000000);
    check(h, seed, 1000000001);
    for (uint64_t i = 2 * TB_WINDOW; i < 3 * TB_WINDOW + 10; i++) { /* two handles, same seed and index */
        check(h, seed, i);
        check(other, seed, i);
    }
}

static int lookup(const char *arch, const char *name)
{
    int h = mmaref_dpi_lookup(arch, name);
    if (h < 0)
        printf("tb window: %s:%s is not in the table\n", arch, name);
    return h;
}

/* every batch fails (MMAREF_SIMD names no path): both entries print the message and return -1 */
static int batch_error(void)
{
    int h = lookup("hopper", "mma.m16n8k16.f32.f16.f16.f32");
    unsigned int gc;
    unsigned long long c, d;
    svBitVecVal a[DPI_MAX_K], b[DPI_MAX_K], sa[DPI_MAX_SCALE], sb[DPI_MAX_SCALE];
    if (h < 0 || mmaref_tb_gen(h, 1, 0, &gc, a, b, sa, sb, &d) != -1 ||
        mmaref_tb_gen_packed(h, 16, 1, 0, &c, a, b, &d) != -1)
        return 1;
    printf("tb window: batch error reported\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--batch-error"))
        return batch_error();
    int n = (int)(sizeof instrs / sizeof instrs[0]), hs[sizeof instrs / sizeof instrs[0] + 1];
    for (int i = 0; i < n; i++)
        if ((hs[i] = lookup(instrs[i][0], instrs[i][1])) < 0)
            return 1;
    /* the naive M3XU unit's record: the f32 mode with K = 8, built at run time */
    if ((hs[n] = mmaref_dpi_with_k(hs[n - 1], 8)) < 0)
        return 1;
    n++;
    for (int i = 0; i < n; i++)
        check_stream(hs[i], hs[(i + 1) % n], 11 + (uint64_t)i);
    printf("tb window: %ld vectors, %ld disagreements\n", checked, bad);
    return bad != 0;
}
