/* Testbench support for the RTL co-simulation: stimulus from the library's generator (the mixed stream of
 * mmaref_gen_vector -- directed vectors, then random ones -- addressed by (instruction, seed, index), so any
 * vector is regenerated for a report or a waveform re-run), vectors per kind, mismatch reports, timing.
 * (The corners of M3XU-style units, f32 significands split into halves, are among the library's
 * directed vectors of every f32 and f32c instruction, the IEEE FMA corners among an SFMA instruction's,
 * the FDRDA / GPS corners among an AMD instruction's: cmodel/src/gen_ieee.c, gen_amd.c.)  Operands reach a unit
 * either as 32-bit lanes (mmaref_tb_gen) or packed at their format's width (mmaref_tb_gen_packed: an
 * M3XU operand word, 8 f16, 4 f32 or 2 f32c in 128 bits), with the model's D: a window of 256 vectors
 * is generated at a time and its D's computed by one mmaref_dot_batch call.
 * Compiled by gcc into the DPI library next to the bridge (dpi/mmaref_dpi.c); the SystemVerilog
 * declarations are in tb/tb_support_pkg.sv.  Its counters and report state belong to one testbench and
 * are called from its single initial process: unlike the bridge, they are not for several threads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "svdpi.h"
#include "mmaref_dpi.h"
#include "tb_support.h"
#include "../cmodel/src/kind_consts.h" /* ZERO_OPERAND_EXP: a zero operand's exponent in the model */

/* ---- stimulus ---- */

/* Directed vectors per handle, asked for once (the library keeps each instruction's count; this saves the lookup). */
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

/* Vector idx of the mixed stream (mmaref_gen_mixed_at): the library's directed vectors while there are
 * (the IEEE and AMD corner sets among them), then random ones, every fourth a rule vector.  Returns its
 * kind. */
int tb_vector_at(int h, uint64_t seed, uint64_t idx, uint64_t *c, uint64_t *a, uint64_t *b, uint64_t *sa,
                     uint64_t *sb)
{
    uint64_t index;
    mmaref_gen_kind kind = mmaref_gen_mixed_at(directed_count(h), idx, &index);
    return mmaref_gen_vector(mmaref_dpi_instr(h), kind, seed, index, c, a, b, sa, sb);
}

/* ---- the window: TB_WINDOW consecutive vectors of one (handle, seed) stream and their D's ---- */

/* The bench asks for the vectors of a run in order: each window's D's come from one mmaref_dot_batch call
 * (the model's SIMD kernels where the instruction has one: faster a dot-add than mmaref_dot).  A window
 * is refilled from any index outside it, so a random access (first-fail re-run, a repeated index) gets
 * the same vector and D. */
typedef struct {
    int filled;                    /* 0 until a fill succeeds */
    uint64_t seed, start;          /* holds vectors [start, start + TB_WINDOW) of seed's stream */
    int kind[TB_WINDOW];           /* mmaref_gen_kind of each */
    uint64_t c[TB_WINDOW], d[TB_WINDOW];
    /* row layout (mmaref_dots_rows): vector j's lanes at a[j*K], its scales at sa[j*S] */
    uint64_t a[TB_WINDOW * DPI_MAX_K], b[TB_WINDOW * DPI_MAX_K];
    uint64_t sa[TB_WINDOW * DPI_MAX_SCALE], sb[TB_WINDOW * DPI_MAX_SCALE];
} tb_window;

/* one window per handle, allocated at its first vector and reused by every fill (kept until exit) */
static tb_window *windows[DPI_MAX_HANDLES];

/* Vectors [start, start + TB_WINDOW) of (h, seed) into w, every D by one batch.  0, or -1 (a batch
 * error is printed on one line). */
static int window_fill(tb_window *w, int h, uint64_t seed, uint64_t start)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    int k = in->k, ns = mmaref_scale_count(in);
    w->filled = 0;
    for (int j = 0; j < TB_WINDOW; j++) {
        w->kind[j] = tb_vector_at(h, seed, start + (uint64_t)j, &w->c[j], &w->a[j * k], &w->b[j * k],
                                  &w->sa[j * ns], &w->sb[j * ns]);
        if (w->kind[j] < 0)
            return -1;
    }
    mmaref_dots x = mmaref_dots_rows(in, w->c, w->a, w->b, ns ? w->sa : NULL, ns ? w->sb : NULL);
    char msg[256];
    if (mmaref_dot_batch(in, TB_WINDOW, &x, w->d, msg, sizeof msg) != MMAREF_OK) {
        fprintf(stderr, "mmaref_tb_gen: %s seed %llu vectors %llu..%llu: %s\n", mmaref_dpi_label(h),
                (unsigned long long)seed, (unsigned long long)start,
                (unsigned long long)(start + TB_WINDOW - 1), msg);
        return -1;
    }
    w->seed = seed;
    w->start = start;
    w->filled = 1;
    return 0;
}

/* Handle h's window, holding vector idx of seed's stream (filled from idx if it did not), or NULL */
static const tb_window *window_at(int h, uint64_t seed, uint64_t idx)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    if (!in || in->k > DPI_MAX_K || mmaref_scale_count(in) > DPI_MAX_SCALE)
        return NULL;
    tb_window *w = windows[h];
    if (w && w->filled && w->seed == seed && idx - w->start < TB_WINDOW)
        return w;
    if (!w && !(w = windows[h] = malloc(sizeof *w)))
        return NULL;
    return window_fill(w, h, seed, idx) ? NULL : w;
}

/* Vectors of each kind offered to the unit, and their coverage bins; a repeated index (the open-array
 * check's first vector, then the driver's) counts once. */
static long long per_kind[MMAREF_GEN_KIND_COUNT];
static unsigned long long last_counted = ~0ULL;

static void put_lanes(svBitVecVal *dst, const uint64_t *src, int n)
{
    for (int i = 0; i < n; i++)
        dst[i] = (svBitVecVal)src[i];
}

/* Vector idx from its window, counting its kind: its slot in *wp, or -1 */
static int next_vector(int h, uint64_t seed, uint64_t idx, const tb_window **wp)
{
    const tb_window *w = window_at(h, seed, idx);
    if (!w)
        return -1;
    int j = (int)(idx - w->start);
    if (idx != last_counted) {
        const mmaref_instr *in = mmaref_dpi_instr(h);
        int k = in->k, ns = mmaref_scale_count(in);
        per_kind[w->kind[j]]++;
        tb_cov_count(h, w->c[j], &w->a[j * k], &w->b[j * k], &w->sa[j * ns], &w->sb[j * ns], w->d[j]);
    }
    last_counted = idx;
    *wp = w;
    return j;
}

int mmaref_tb_gen(int h, unsigned long long seed, unsigned long long idx, unsigned int *c, svBitVecVal *a,
                  svBitVecVal *b, svBitVecVal *sa, svBitVecVal *sb, unsigned long long *d)
{
    const tb_window *w;
    int j = next_vector(h, seed, idx, &w);
    if (j < 0)
        return -1;
    const mmaref_instr *in = mmaref_dpi_instr(h);
    int k = in->k, ns = mmaref_scale_count(in);
    uint64_t vsa[DPI_MAX_SCALE], vsb[DPI_MAX_SCALE];
    /* unused scale slots carry junk (NaN included): the unit must not read them */
    for (int s = 0; s < DPI_MAX_SCALE; s++) {
        vsa[s] = s < ns ? w->sa[j * ns + s] : ns ? 0xFF : 0;
        vsb[s] = s < ns ? w->sb[j * ns + s] : ns ? 0xFF : 0;
    }
    *c = (unsigned int)w->c[j];
    put_lanes(a, &w->a[j * k], k); /* lanes beyond K are left as they were: the benches never read them */
    put_lanes(b, &w->b[j * k], k);
    put_lanes(sa, vsa, DPI_MAX_SCALE);
    put_lanes(sb, vsb, DPI_MAX_SCALE);
    *d = w->d[j];
    return w->kind[j];
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

int mmaref_tb_gen_packed(int h, int lane_w, unsigned long long seed, unsigned long long idx,
                         unsigned long long *c, svBitVecVal *a, svBitVecVal *b, unsigned long long *d)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    /* both operands at the bench's lane width, which must hold each (A e2m1 beside B e4m3: 8-bit lanes) */
    if (!in || lane_w < mmaref_format_width(in->a) || lane_w < mmaref_format_width(in->b) || lane_w > 64 ||
        in->k * lane_w > 32 * DPI_MAX_K || mmaref_scale_count(in))
        return -1;
    const tb_window *win;
    int j = next_vector(h, seed, idx, &win);
    if (j < 0)
        return -1;
    tb_pack(a, DPI_MAX_K, &win->a[j * in->k], in->k, lane_w);
    tb_pack(b, DPI_MAX_K, &win->b[j * in->k], in->k, lane_w);
    *c = win->c[j];
    *d = win->d[j];
    return win->kind[j];
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

/* A real value's exponent and significand as the model decodes it (cmodel/src/format.h, fmt_decode):
 * a normal number 1.x times 2^exp; a subnormal 0.x times 2^(1 - bias), the format's smallest exponent (a
 * format without subnormals, e8m0, has none); a zero sig 0 at zero_exp, the exponent the model gives
 * it; inf and NaN sig inf / nan at exponent 0. */
static double model_sig(mmaref_format f, double x, int zero_exp, int *exp)
{
    mmaref_format_info info;
    mmaref_format_get_info(f, &info);
    int e_min = 1 - info.bias;
    *exp = 0;
    if (!isfinite(x))
        return fabs(x);
    if (x == 0) {
        *exp = zero_exp;
        return 0;
    }
    if (info.specials != MMAREF_SPECIALS_E8M0 && fabs(x) < ldexp(1, e_min)) {
        *exp = e_min;
        return ldexp(fabs(x), -e_min);
    }
    double s = frexp(fabs(x), exp) * 2;
    --*exp;
    return s;
}

/* "name format 0x<bits>  sign S  exp E  sig M  = value" (model_sig's exponent and significand; zero_exp:
 * a zero's); a complex value part by part */
static void describe(FILE *out, const char *what, mmaref_format f, uint64_t raw, int zero_exp)
{
    if (mmaref_format_parts(f) > 1) {
        for (int i = 0; i < mmaref_format_parts(f); i++) {
            char name[24];
            snprintf(name, sizeof name, "%s.%s", what, i ? "im" : "re");
            describe(out, name, mmaref_format_part(f), mmaref_format_part_bits(f, raw, i), zero_exp);
        }
        return;
    }
    double x = mmaref_format_to_double(f, raw);
    int e;
    double s = model_sig(f, x, zero_exp, &e);
    fprintf(out, "  %-6s %-6s 0x%0*llx  sign %d  exp %4d  sig %.10g  = %.17g\n", what, mmaref_format_name(f),
            (mmaref_format_width(f) + 3) / 4, (unsigned long long)raw, signbit(x) ? 1 : 0, e, s, x);
}

static void describe_at(FILE *out, const char *what, int i, mmaref_format f, uint64_t raw, int zero_exp)
{
    char name[16];
    snprintf(name, sizeof name, "%s[%d]", what, i);
    describe(out, name, f, raw, zero_exp);
}

/* The exponent a zero of format f has where the model has none of its own for it: its smallest (1 - bias),
 * as the model decodes a zero D or scale. */
static int min_exp(mmaref_format f)
{
    mmaref_format_info info;
    mmaref_format_get_info(mmaref_format_part(f), &info);
    return 1 - info.bias;
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
    /* a zero operand enters e_max at ZERO_OPERAND_EXP; a pass with an exponent of its own for zero terms
     * (Hopper's -133: a zero C, a product with a zero factor) gives it to C and says it */
    int zero_term = in->pass[0].zero_term_exp;
    printf("  algo %s K %d F %d passes %d out %s block %d", sched, in->k, in->pass[0].frac_bits, in->passes,
           mmaref_output_name(in->pass[in->passes - 1].out), in->block_size);
    if (zero_term)
        printf("  (a zero term, C or a product with a zero factor, enters e_max with exponent %d)", zero_term);
    printf("\n");
    describe(stdout, "c", in->c, c, zero_term ? zero_term : ZERO_OPERAND_EXP);
    for (int i = 0; i < in->k; i++) {
        describe_at(stdout, "a", i, in->a, a[i], ZERO_OPERAND_EXP);
        describe_at(stdout, "b", i, in->b, b[i], ZERO_OPERAND_EXP);
    }
    for (int j = 0; j < ns; j++) {
        describe_at(stdout, "sa", j, in->scale, sa[j], min_exp(in->scale));
        describe_at(stdout, "sb", j, in->scale, sb[j], min_exp(in->scale));
    }
    describe(stdout, "model", in->d, want, min_exp(in->d));
    describe(stdout, "rtl", in->d, got, min_exp(in->d));
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

/* ---- arguments ---- */

void mmaref_tb_arg_error(const char *msg)
{
    fflush(stdout);
    fprintf(stderr, "tb_mma: %s\n", msg);
    exit(2);
}
