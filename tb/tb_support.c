/* Testbench support for the RTL co-simulation: stimulus from the library's generator (the mixed stream of
 * mmaref_gen_vector -- directed vectors, then random ones -- addressed by (instruction, seed, index), so any
 * vector is regenerated for a report or a waveform re-run), vectors per kind, mismatch reports, timing.
 * (The corners of M3XU-style units, f32 significands split into halves, are among the library's
 * directed vectors of every f32 and f32c instruction, the IEEE FMA corners among an SFMA instruction's,
 * the FDRDA / GPS corners among an AMD instruction's: cmodel/src/gen_ieee.c, gen_amd.c.)  Operands reach a unit
 * either as 32-bit lanes (mmaref_tb_gen) or packed at their format's width (mmaref_tb_gen_packed: an
 * M3XU operand word, 8 f16, 4 f32 or 2 f32c in 128 bits).
 * Compiled by gcc into the DPI library next to the bridge (dpi/mmaref_dpi.c); the SystemVerilog
 * declarations are in tb/tb_support_pkg.sv.  Its counters and report state belong to one testbench and
 * are called from its single initial process: unlike the bridge, they are not for several threads. */
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "svdpi.h"
#include "mmaref_dpi.h"
#include "tb_support.h"

/* ---- stimulus ---- */

/* Directed vectors per handle, counted once (a count costs about as much as 1000 random vectors). */
static long long directed[DPI_MAX_HANDLES];
static char counted[DPI_MAX_HANDLES];

static uint64_t directed_count(int h)
{
    if (!counted[h]) {
        directed[h] = (long long)mmaref_gen_directed_count(mmaref_dpi_instr(h));
        counted[h] = 1;
    }
    return (uint64_t)directed[h];
}

/* Vector idx of the mixed stream: the library's directed vectors while there are (the IEEE and AMD
 * corner sets among them), then random ones.  Returns its kind. */
int tb_vector_at(int h, uint64_t seed, uint64_t idx, uint64_t *c, uint64_t *a, uint64_t *b, uint64_t *sa,
                     uint64_t *sb)
{
    mmaref_gen_kind kind = idx < directed_count(h) ? MMAREF_GEN_DIRECTED : MMAREF_GEN_RANDOM;
    return mmaref_gen_vector(mmaref_dpi_instr(h), kind, seed, idx, c, a, b, sa, sb);
}

/* Vectors of each kind offered to the unit; a repeated index (the open-array check's first vector, then
 * the driver's) counts once. */
static long long per_kind[MMAREF_GEN_KIND_COUNT];
static unsigned long long last_counted = ~0ULL;

static void put_lanes(svBitVecVal *dst, const uint64_t *src, int n)
{
    for (int i = 0; i < n; i++)
        dst[i] = (svBitVecVal)src[i];
}

/* vector_at, counting the vector's kind */
static int next_vector(int h, uint64_t seed, uint64_t idx, uint64_t *c, uint64_t *a, uint64_t *b, uint64_t *sa,
                       uint64_t *sb)
{
    int kind = tb_vector_at(h, seed, idx, c, a, b, sa, sb);
    if (kind < 0)
        return -1;
    if (idx != last_counted)
        per_kind[kind]++;
    last_counted = idx;
    return kind;
}

int mmaref_tb_gen(int h, unsigned long long seed, unsigned long long idx, unsigned int *c, svBitVecVal *a,
                  svBitVecVal *b, svBitVecVal *sa, svBitVecVal *sb)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    if (!in || in->k > DPI_MAX_K)
        return -1;
    uint64_t vc, va[DPI_MAX_K], vb[DPI_MAX_K], vsa[DPI_MAX_SCALE], vsb[DPI_MAX_SCALE];
    int kind = next_vector(h, seed, idx, &vc, va, vb, vsa, vsb), ns = mmaref_scale_count(in);
    if (kind < 0)
        return -1;
    *c = (unsigned int)vc;
    put_lanes(a, va, in->k); /* lanes beyond K are left as they were: the benches never read them */
    put_lanes(b, vb, in->k);
    /* unused scale slots carry junk (NaN included): the unit must not read them */
    for (int j = ns; j < DPI_MAX_SCALE; j++)
        vsa[j] = vsb[j] = ns ? 0xFF : 0;
    put_lanes(sa, vsa, DPI_MAX_SCALE);
    put_lanes(sb, vsb, DPI_MAX_SCALE);
    return kind;
}

void tb_pack(svBitVecVal *dst, int words, const uint64_t *v, int k, int w)
{
    for (int j = 0; j < words; j++)
        dst[j] = 0;
    for (int i = 0; i < k; i++)
        for (int bit = 0; bit < w; bit++)
            if ((v[i] >> bit) & 1)
                dst[(i * w + bit) / 32] |= (svBitVecVal)1 << ((i * w + bit) % 32);
}

int mmaref_tb_gen_packed(int h, unsigned long long seed, unsigned long long idx, unsigned long long *c,
                         svBitVecVal *a, svBitVecVal *b, unsigned long long *d)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    int w = in ? mmaref_format_width(in->a) : 0;
    if (!in || in->k * w > 32 * DPI_MAX_K || mmaref_scale_count(in))
        return -1;
    uint64_t vc, va[DPI_MAX_K], vb[DPI_MAX_K], vsa[DPI_MAX_SCALE], vsb[DPI_MAX_SCALE], vd = 0;
    int kind = next_vector(h, seed, idx, &vc, va, vb, vsa, vsb);
    char msg[256];
    if (kind < 0 || mmaref_dot(in, vc, va, vb, NULL, NULL, &vd, msg, sizeof msg) != MMAREF_OK)
        return -1;
    tb_pack(a, DPI_MAX_K, va, in->k, w);
    tb_pack(b, DPI_MAX_K, vb, in->k, w);
    *c = vc;
    *d = vd;
    return kind;
}

int mmaref_tb_directed_count(int h)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    return in ? (int)directed_count(h) : 0;
}

static int selected = -1;
void mmaref_tb_select(int h) { selected = h; }
int mmaref_tb_selected(void) { return selected; }

/* "COVERAGE arch:name directed=N raw=N ...": the vectors of each kind the selected unit was offered. */
void mmaref_tb_print_coverage(void)
{
    long long offered = 0;
    for (int k = 0; k < MMAREF_GEN_KIND_COUNT; k++)
        offered += per_kind[k];
    if (selected < 0 || offered == 0) /* pipe mode (tb/tb_pipe.c) offers no generated vector */
        return;
    printf("COVERAGE %s", mmaref_dpi_label(selected));
    for (int k = 0; k < MMAREF_GEN_KIND_COUNT; k++)
        if (k != MMAREF_GEN_RANDOM && k != MMAREF_GEN_MIXED)
            printf(" %s=%lld", mmaref_gen_kind_name((mmaref_gen_kind)k), per_kind[k]);
    printf("\n");
    fflush(stdout);
}

/* ---- mismatch reports ---- */

/* (sign, exponent, significand) of a raw value, through the model's exact decoding to double; a complex
 * value part by part */
static void describe(FILE *out, const char *what, mmaref_format f, uint64_t raw)
{
    if (mmaref_format_parts(f) > 1) {
        for (int i = 0; i < mmaref_format_parts(f); i++) {
            char name[24];
            snprintf(name, sizeof name, "%s.%s", what, i ? "im" : "re");
            describe(out, name, mmaref_format_part(f), mmaref_format_part_bits(f, raw, i));
        }
        return;
    }
    double x = mmaref_format_to_double(f, raw);
    int e = 0;
    double s = isfinite(x) && x != 0 ? frexp(fabs(x), &e) * 2 : fabs(x);
    fprintf(out, "  %-6s %-6s 0x%0*llx  sign %d  exp %4d  sig %.10g  = %.17g\n", what, mmaref_format_name(f),
            (mmaref_format_width(f) + 3) / 4, (unsigned long long)raw, signbit(x) ? 1 : 0,
            isfinite(x) && x != 0 ? e - 1 : 0, s, x);
}

static void describe_at(FILE *out, const char *what, int i, mmaref_format f, uint64_t raw)
{
    char name[16];
    snprintf(name, sizeof name, "%s[%d]", what, i);
    describe(out, name, f, raw);
}

static int reports;

void mmaref_tb_report(int h, const char *unit, unsigned long long seed, unsigned long long idx,
                      unsigned long long got)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    if (!in || in->k > DPI_MAX_K || ++reports > 5)
        return;
    uint64_t c, a[DPI_MAX_K], b[DPI_MAX_K], sa[DPI_MAX_SCALE], sb[DPI_MAX_SCALE], want = 0;
    int kind = tb_vector_at(h, seed, idx, &c, a, b, sa, sb), ns = mmaref_scale_count(in);
    char msg[256];
    mmaref_dot(in, c, a, b, ns ? sa : NULL, ns ? sb : NULL, &want, msg, sizeof msg);
    printf("MISMATCH %s unit %s seed %llu index %llu (%s)\n", mmaref_dpi_label(h), unit, seed, idx,
           mmaref_gen_kind_name((mmaref_gen_kind)kind));
    char sched[32];
    mmaref_schedule_name(in, sched, sizeof sched);
    printf("  algo %s K %d F %d passes %d out %s block %d\n", sched, in->k, in->pass[0].frac_bits, in->passes,
           mmaref_output_name(in->pass[in->passes - 1].out), in->block_size);
    describe(stdout, "c", in->c, c);
    for (int i = 0; i < in->k; i++) {
        describe_at(stdout, "a", i, in->a, a[i]);
        describe_at(stdout, "b", i, in->b, b[i]);
    }
    for (int j = 0; j < ns; j++) {
        describe_at(stdout, "sa", j, in->scale, sa[j]);
        describe_at(stdout, "sb", j, in->scale, sb[j]);
    }
    describe(stdout, "model", in->d, want);
    describe(stdout, "rtl", in->d, got);
    fflush(stdout);
}

static long long first_fail = -1;
void mmaref_tb_fail(unsigned long long idx)
{
    if (first_fail < 0)
        first_fail = (long long)idx;
}
long long mmaref_tb_first_fail(void) { return first_fail; }

double mmaref_tb_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
