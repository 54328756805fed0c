/* Running an instruction's schedule: its passes in order, each one summation kind over its slice of
 * K, the result of a pass the C of the next.  Also the check that a schedule is runnable, and the
 * public names of the schedule's codes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "algo.h"
#include "gen_sets.h"
#include "ieee_arith.h"
#include "schedule.h"

/* ---- names (the schema) ---- */

static const char *const algo_names[MMAREF_ALGO_COUNT] = {"SFMA", "FDA", "GDFS", "GPS", "FDRDA", "GFDRDA",
                                                          "M3XU"};
static const char *const rounding_names[MMAREF_ROUNDING_COUNT] = {"rz", "rd", "rne"};
static const char *const scaling_names[MMAREF_SCALES_COUNT] = {"none", "per-product", "per-group"};

const char *mmaref_algo_name(mmaref_algo a) { return (unsigned)a < MMAREF_ALGO_COUNT ? algo_names[a] : "?"; }
const char *mmaref_rounding_name(mmaref_rounding r)
{
    return (unsigned)r < MMAREF_ROUNDING_COUNT ? rounding_names[r] : "?";
}
const char *mmaref_scaling_name(mmaref_scaling s)
{
    return (unsigned)s < MMAREF_SCALES_COUNT ? scaling_names[s] : "?";
}
const char *mmaref_output_name(mmaref_output o) { return (unsigned)o < MMAREF_OUT_COUNT ? out_table[o].name : "?"; }
mmaref_format mmaref_output_format(mmaref_output o)
{
    return (unsigned)o < MMAREF_OUT_COUNT ? out_table[o].format : MMAREF_FORMAT_COUNT;
}
int mmaref_output_precision(mmaref_output o) { return (unsigned)o < MMAREF_OUT_COUNT ? out_table[o].man_bits : 0; }
int mmaref_output_signed_zero(mmaref_output o) { return (unsigned)o < MMAREF_OUT_COUNT && out_table[o].signed_zero; }
mmaref_rounding mmaref_output_rounding(mmaref_output o)
{
    return (unsigned)o < MMAREF_OUT_COUNT ? out_table[o].rounding : MMAREF_ROUNDING_COUNT;
}

void mmaref_schedule_name(const mmaref_instr *in, char *buf, size_t cap)
{
    if (!buf || !cap)
        return;
    if (!in) {
        snprintf(buf, cap, "?");
        return;
    }
    int same = in->passes > 0;
    for (int i = 1; i < in->passes && i < MMAREF_MAX_PASSES; i++)
        same &= in->pass[i].algo == in->pass[0].algo;
    const char *base = in->passes > 0 ? mmaref_algo_name(in->pass[0].algo) : "?";
    if (in->passes == 1 || !same)
        snprintf(buf, cap, "%s", in->passes == 1 ? base : "multi-pass");
    else if (in->passes == 2)
        snprintf(buf, cap, "Co%s", base);
    else
        snprintf(buf, cap, "%dx%s", in->passes, base);
}

/* ---- building ---- */

void schedule_split_k(mmaref_instr *in, int passes, mmaref_pass proto)
{
    in->passes = passes;
    for (int i = 0; i < passes; i++) {
        in->pass[i] = proto;
        in->pass[i].k_count = in->k / passes;
        in->pass[i].k_first = i * in->pass[i].k_count;
    }
}

void schedule_pairs_c_last(mmaref_instr *in, mmaref_pass proto)
{
    enum { RUN = 2, STRIDE = 4 }; /* two bytes of each 32-bit register to a pass */
    in->passes = 2;
    in->c_last = 1;
    for (int i = 0; i < 2; i++) {
        in->pass[i] = proto;
        in->pass[i].k_first = i * RUN;
        in->pass[i].k_count = in->k / 2;
        in->pass[i].k_run = RUN;
        in->pass[i].k_stride = STRIDE;
        in->pass[i].ab_f16 = 1;
    }
}

/* ---- checking ---- */

void set_msg(char *msg, size_t len, const char *fmt, ...)
{
    if (!msg || !len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
}

/* A message, and the status of a schedule the model cannot run. */
#define fail(msg, len, ...) (set_msg(msg, len, __VA_ARGS__), MMAREF_ERR_INSTRUCTION)

/* What each summation kind implements (bit sets over the codes of mmaref.h), and its hooks: its pass
 * function and its traced entry (the scalar model, which also writes the `explain` trace: algo.h), the kind whose SIMD lanes
 * run its batches (fast_kernel.h; MMAREF_ALGO_COUNT: none, the scalar model runs them) and its own
 * directed corner vectors (gen_sets.h).  KIND takes every hook by position, so that an entry missing
 * one does not compile; the table's size is checked against the kinds of mmaref.h. */
#define BITS(x) (1u << (x))
#define F32_OUTS (BITS(MMAREF_OUT_F32_RZ) | BITS(MMAREF_OUT_F32_E8M13) | BITS(MMAREF_OUT_F32_RNE))
#define ALL_OUTS (BITS(MMAREF_OUT_COUNT) - 1)
typedef struct {
    algo_pass_fn run;
    algo_trace_fn trace;     /* the same pass writing its steps (mmaref_explain) */
    mmaref_algo lanes;       /* the lanes kernel that runs it (fast_kernel.h's lanes_kernel) */
    const gen_set *corners;  /* its own directed corners (gen_no_corners: the generic families only) */
    unsigned align;   /* roundings allowed for align_products and align_c */
    unsigned scales;  /* scalings allowed */
    unsigned outs;    /* output kinds allowed */
    int min_F, max_F; /* range of frac_bits (0..0 for the IEEE kinds) */
    int grouped;      /* uses G (>= 1, dividing its products); others have G = 0 */
} kind_desc;
#define KIND(run, trace, lanes, corners, align, scales, outs, min_F, max_F, grouped) \
    {run, trace, lanes, corners, align, scales, outs, min_F, max_F, grouped}

/* F keeps every aligned term inside the 64-bit fixed-point sum (GDFS uses 35). */
enum { MAX_FRAC_BITS = 40 };
/* The lowest zero_term_exp a pass may give (any exponent a term of a listed format can reach lies above). */
enum { MIN_ZERO_TERM_EXP = -1000 };

static const kind_desc kinds[] = {
    /* IEEE operations, each rounded to nearest even: binary64 (DMMA) or binary32 (MFMA) */
    [MMAREF_ALGO_SFMA] = KIND(algo_sfma, algo_sfma_trace, MMAREF_ALGO_SFMA, &gen_ieee_corners, BITS(MMAREF_RNE),
                              BITS(MMAREF_SCALES_NONE), BITS(MMAREF_OUT_F32_RNE) | BITS(MMAREF_OUT_F64_RNE), 0, 0, 0),
    /* Step 3 truncates (RZ); scales enter each product's exponent */
    [MMAREF_ALGO_FDA] = KIND(algo_fda, algo_fda_trace, MMAREF_ALGO_FDA, &gen_no_corners, BITS(MMAREF_RZ),
                             BITS(MMAREF_SCALES_NONE) | BITS(MMAREF_SCALES_PER_PRODUCT), ALL_OUTS, 1, MAX_FRAC_BITS, 0),
    /* Step 5 truncates; the scales multiply each group's exact sum */
    [MMAREF_ALGO_GDFS] = KIND(algo_gdfs, algo_gdfs_trace, MMAREF_ALGO_GDFS, &gen_no_corners, BITS(MMAREF_RZ),
                              BITS(MMAREF_SCALES_PER_GROUP), ALL_OUTS, 1, MAX_FRAC_BITS, 1),
    /* FP32 products and sums, rounded to nearest even */
    [MMAREF_ALGO_GPS] = KIND(algo_gps, algo_gps_trace, MMAREF_ALGO_GPS, &gen_amd_corners, BITS(MMAREF_RNE), BITS(MMAREF_SCALES_NONE),
                             BITS(MMAREF_OUT_F32_RNE), 0, 0, 1),
    /* Step 6 rounds down on CDNA3; RZ is the paper's hypothetical variant */
    [MMAREF_ALGO_FDRDA] = KIND(algo_fdrda, algo_fdrda_trace, MMAREF_ALGO_FDRDA, &gen_amd_corners, BITS(MMAREF_RD) | BITS(MMAREF_RZ),
                               BITS(MMAREF_SCALES_NONE), F32_OUTS, 1, MAX_FRAC_BITS, 0),
    [MMAREF_ALGO_GFDRDA] = KIND(algo_fdrda, algo_fdrda_trace, MMAREF_ALGO_GFDRDA, &gen_amd_corners, BITS(MMAREF_RD) | BITS(MMAREF_RZ),
                                BITS(MMAREF_SCALES_NONE), F32_OUTS, 1, MAX_FRAC_BITS, 0),
    /* FP32 or FP32C operands split into 12-bit halves; Step 4 truncates; Step 6 rounds to nearest even.
     * F up to the product register's 46 fractional bits (65 terms below 2^48 stay inside the sum).  FP32
     * mode runs on the FDA lanes (its products are exact: fast.h); its corners are the split-significand
     * ones gen.c offers every f32 instruction (gen_m3xu.c). */
    [MMAREF_ALGO_M3XU] = KIND(algo_m3xu, algo_m3xu_trace, MMAREF_ALGO_FDA, &gen_no_corners, BITS(MMAREF_RZ), BITS(MMAREF_SCALES_NONE),
                              BITS(MMAREF_OUT_F32_RNE) | BITS(MMAREF_OUT_F32C_RNE), 1, M3XU_PRODUCT_FRAC_BITS, 0),
};
_Static_assert(sizeof kinds / sizeof kinds[0] == MMAREF_ALGO_COUNT, "schedule.c: a summation kind without its row");

const gen_set *schedule_kind_corners(mmaref_algo algo)
{
    return (unsigned)algo < MMAREF_ALGO_COUNT ? kinds[algo].corners : &gen_no_corners;
}

mmaref_algo schedule_kind_lanes(mmaref_algo algo)
{
    return (unsigned)algo < MMAREF_ALGO_COUNT ? kinds[algo].lanes : MMAREF_ALGO_COUNT;
}

typedef enum {
    SCHED_OK, SCHED_NAME, SCHED_SHAPE, SCHED_K, SCHED_FORMAT, SCHED_BLOCK, SCHED_PASSES, SCHED_SLICE, SCHED_CODE,
    SCHED_KIND, SCHED_F, SCHED_GROUP, SCHED_SCALES, SCHED_ZERO_EXP, SCHED_COVER, SCHED_D, SCHED_OPERANDS, SCHED_C,
    SCHED_C_LAST
} sched_problem;

/* The formats each summation kind is written for (sets over mmaref_format), the ones the instruction
 * tables use: its operands a and b (any pairing), its block scales; whether a and b must be the pass's
 * output format (the IEEE FMA chain computes in it); whether C may come in a narrower format that the
 * output holds exactly (widened: fmt_widen, Volta's f16 C of an f32 D), else only in the output's own.
 * A kind without an entry takes any operands. */
#define FMT(f) (1u << MMAREF_##f)
static const struct {
    unsigned ab, scale;
    int ab_is_output, widens_c;
} kind_formats[MMAREF_ALGO_COUNT] = {
    [MMAREF_ALGO_SFMA] = {FMT(F32) | FMT(F64), 0, 1, 0},
    [MMAREF_ALGO_FDA] = {FMT(F16) | FMT(BF16) | FMT(TF32) | FMT(E4M3) | FMT(E5M2) | FMT(E3M2) | FMT(E2M3) | FMT(E2M1),
                         FMT(UE8M0), 0, 1},
    [MMAREF_ALGO_GDFS] = {FMT(E2M1), FMT(UE4M3) | FMT(UE8M0), 0, 1},
    [MMAREF_ALGO_GPS] = {FMT(F16) | FMT(BF16), 0, 0, 0},
    [MMAREF_ALGO_FDRDA] = {FMT(F16) | FMT(BF16) | FMT(TF32), 0, 0, 0},
    [MMAREF_ALGO_GFDRDA] = {FMT(E4M3FNUZ) | FMT(E5M2FNUZ), 0, 0, 0},
    /* FP32 or FP32C operands, C and D in the same format (split into 12-bit halves) */
    [MMAREF_ALGO_M3XU] = {FMT(F32) | FMT(F32C), 0, 1, 0},
};

/* The products a pass takes, as a set of bits over k (K <= 64); 0 when one lies outside K or the runs
 * are malformed (k_run must divide k_count, runs must not overlap). */
static inline uint64_t pass_products(const mmaref_instr *in, const mmaref_pass *p)
{
    if (((unsigned)p->k_count - 1u >= (unsigned)in->k) | ((unsigned)p->k_first >= (unsigned)in->k))
        return 0;
    if (__builtin_expect(p->k_run == 0, 1)) {
        if (p->k_first + p->k_count > in->k)
            return 0;
        uint64_t run = p->k_count == 64 ? ~0ULL : (1ULL << p->k_count) - 1;
        return run << p->k_first;
    }
    /* a later run starts k_stride after the one before it, inside K: a stride of K or more is malformed
     * (and would overflow mmaref_pass_k's int arithmetic) */
    if (p->k_run < 0 || p->k_count % p->k_run || p->k_stride < p->k_run || (p->k_count > p->k_run && p->k_stride >= in->k))
        return 0;
    uint64_t m = 0;
    for (int j = 0; j < p->k_count; j++) {
        int k = mmaref_pass_k(p, j);
        if (k >= in->k)
            return 0;
        m |= 1ULL << k;
    }
    return m;
}

/* Does every finite value of f have an f16 encoding (its precision and range inside f16's)? */
static inline int fits_f16(const fmt_desc *f)
{
    const fmt_desc *h = fmt_of(MMAREF_F16);
    int top = (1 << f->exp_bits) - (f->specials == MMAREF_SPECIALS_IEEE ? 2 : 1) - f->bias;
    return f->parts <= 1 && f->man_bits <= h->man_bits && fmt_min_exp(f) - f->man_bits >= fmt_min_exp(h) - h->man_bits &&
           top <= (1 << h->exp_bits) - 2 - h->bias;
}

/* The first thing wrong with a pass, apart from which products it takes.  Written branch-light:
 * mmaref_dot runs it on every call. */
static inline __attribute__((always_inline)) sched_problem pass_problem(const mmaref_instr *in,
                                                                       const mmaref_pass *p)
{
    unsigned algo = (unsigned)p->algo, out = (unsigned)p->out, ap = (unsigned)p->align_products;
    unsigned ac = (unsigned)p->align_c, sc = (unsigned)p->scales;
    if ((algo >= MMAREF_ALGO_COUNT) | (out >= MMAREF_OUT_COUNT) | (ap >= MMAREF_ROUNDING_COUNT) |
        (ac >= MMAREF_ROUNDING_COUNT) | (sc >= MMAREF_SCALES_COUNT))
        return SCHED_CODE;
    const kind_desc *kd = &kinds[algo];
    if (!((kd->align >> ap) & (kd->align >> ac) & (kd->scales >> sc) & (kd->outs >> out) & 1))
        return SCHED_KIND;
    if ((unsigned)p->frac_bits - (unsigned)kd->min_F > (unsigned)(kd->max_F - kd->min_F))
        return SCHED_F;
    if (__builtin_expect(kd->grouped, 0) ? p->group < 1 || p->k_count % p->group : p->group != 0)
        return SCHED_GROUP;
    if (__builtin_expect(sc != MMAREF_SCALES_NONE, 0) &&
        (!in->block_size || p->k_first % in->block_size || p->k_run ||
         (algo == MMAREF_ALGO_GDFS && in->block_size % p->group && p->group % in->block_size)))
        return SCHED_SCALES;
    /* operands as f16: FDA without scales, from formats f16 holds exactly (e4m3, e5m2, f16) */
    if (__builtin_expect(p->ab_f16 != 0, 0) &&
        ((unsigned)p->ab_f16 > 1u || algo != MMAREF_ALGO_FDA || sc != MMAREF_SCALES_NONE ||
         !fits_f16(fmt_of(in->a)) || !fits_f16(fmt_of(in->b))))
        return SCHED_KIND;
    /* a zero term's own exponent: FDA without scales, below every nonzero C's (-126 and up) */
    if (__builtin_expect(p->zero_term_exp != 0, 0) &&
        (algo != MMAREF_ALGO_FDA || sc != MMAREF_SCALES_NONE || p->zero_term_exp >= ZERO_OPERAND_EXP ||
         p->zero_term_exp < MIN_ZERO_TERM_EXP))
        return SCHED_ZERO_EXP;
    return SCHED_OK;
}

/* The format pass i takes its C in. */
static inline mmaref_format pass_c_format(const mmaref_instr *in, int i)
{
    return i == 0 ? in->c : out_table[in->pass[i - 1].out].format;
}

mmaref_format schedule_pass_c_format(const mmaref_instr *in, int i) { return pass_c_format(in, i); }

/* Is a string field terminated inside its array (the last byte first: the
 * library's records leave the tail zero)? */
static inline __attribute__((always_inline)) int terminated(const char *s, size_t cap)
{
    return s[cap - 1] == 0 || memchr(s, 0, cap - 1) != NULL;
}

/* Are m, n or blocks outside 1 .. MMAREF_MAX_MN, 1 .. MMAREF_MAX_BLOCKS? */
static inline __attribute__((always_inline)) int shape_problem(const mmaref_instr *in)
{
    return ((unsigned)in->m - 1u >= MMAREF_MAX_MN) | ((unsigned)in->n - 1u >= MMAREF_MAX_MN) |
           ((unsigned)in->blocks - 1u >= MMAREF_MAX_BLOCKS);
}

/* The first thing wrong with a record; *bad_pass names the pass. */
static inline __attribute__((always_inline)) sched_problem schedule_problem(const mmaref_instr *in, int *bad_pass)
{
    if (!terminated(in->name, sizeof in->name) || !terminated(in->sass, sizeof in->sass))
        return SCHED_NAME;
    if (shape_problem(in))
        return SCHED_SHAPE;
    if (((unsigned)in->k - 1u >= MMAREF_MAX_K) | ((unsigned)in->passes - 1u >= MMAREF_MAX_PASSES))
        return (unsigned)in->k - 1u >= MMAREF_MAX_K ? SCHED_K : SCHED_PASSES;
    if (((unsigned)in->a >= MMAREF_FORMAT_COUNT) | ((unsigned)in->b >= MMAREF_FORMAT_COUNT) |
        ((unsigned)in->c >= MMAREF_FORMAT_COUNT) | ((unsigned)in->d >= MMAREF_FORMAT_COUNT))
        return SCHED_FORMAT;
    if (__builtin_expect(in->block_size != 0, 0) &&
        (in->block_size < 1 || in->k % in->block_size || in->k / in->block_size > MMAREF_MAX_SCALES ||
         (unsigned)in->scale >= MMAREF_FORMAT_COUNT))
        return SCHED_BLOCK;
    uint64_t taken = 0; /* the products the passes so far take: each exactly once */
    for (int i = 0; i < in->passes; i++) {
        sched_problem pr = pass_problem(in, &in->pass[i]);
        uint64_t m = pass_products(in, &in->pass[i]);
        if (!pr && (!m || (m & taken)))
            pr = SCHED_SLICE;
        if (pr) {
            *bad_pass = i;
            return pr;
        }
        taken |= m;
    }
    if (taken != (in->k == 64 ? ~0ULL : (1ULL << in->k) - 1))
        return SCHED_COVER;
    if (out_table[in->pass[in->passes - 1].out].format != in->d)
        return SCHED_D;
    /* C added last: one IEEE addition in D's format, C already in it */
    if ((unsigned)in->c_last > 1u ||
        (in->c_last && (in->c != in->d || fmt_of(in->d)->specials != MMAREF_SPECIALS_IEEE)))
        return SCHED_C_LAST;
    /* Each pass's formats are ones its kind is written for (kind_formats); its C is the instruction's,
     * then the previous pass's result. */
    for (int i = 0; i < in->passes; i++) {
        const mmaref_pass *p = &in->pass[i];
        mmaref_format out = out_table[p->out].format;
        unsigned ab = kind_formats[p->algo].ab, scale = kind_formats[p->algo].scale;
        *bad_pass = i;
        if (ab && (!((ab >> in->a) & (ab >> in->b) & 1) ||
                   (kind_formats[p->algo].ab_is_output && (in->a != out || in->b != out)) ||
                   (p->scales != MMAREF_SCALES_NONE && scale && !((scale >> in->scale) & 1))))
            return SCHED_OPERANDS;
        const fmt_desc *fc = fmt_of(pass_c_format(in, i)), *fo = fmt_of(out);
        if (fc != fo && !(kind_formats[p->algo].widens_c && fmt_widens_exactly(fc, fo)))
            return SCHED_C;
    }
    return SCHED_OK;
}

mmaref_status mmaref_check_schedule(const mmaref_instr *in, char *msg, size_t len)
{
    if (!in)
        return fail(msg, len, "no instruction given");
    int i = 0;
    sched_problem pr = schedule_problem(in, &i);
    const mmaref_pass *p = &in->pass[i];
    const mmaref_pass *last = &in->pass[in->passes > 0 && in->passes <= MMAREF_MAX_PASSES ? in->passes - 1 : 0];
    switch (pr) {
    case SCHED_OK:
        return MMAREF_OK;
    case SCHED_NAME: /* the name cannot be printed */
        return fail(msg, len, "not an instruction record: its name or SASS alias does not end inside its array");
    case SCHED_SHAPE:
        return fail(msg, len, "%s: shape m = %d, n = %d, blocks = %d outside 1..%d, 1..%d, 1..%d", in->name, in->m,
                    in->n, in->blocks, MMAREF_MAX_MN, MMAREF_MAX_MN, MMAREF_MAX_BLOCKS);
    case SCHED_K:
        return fail(msg, len, "%s: K = %d is outside 1..%d (MMAREF_MAX_K)", in->name, in->k, MMAREF_MAX_K);
    case SCHED_FORMAT:
        return fail(msg, len, "%s: an operand format code is out of range", in->name);
    case SCHED_BLOCK:
        return fail(msg, len, "%s: block_size %d does not give 1..%d scales over K = %d", in->name, in->block_size,
                    MMAREF_MAX_SCALES, in->k);
    case SCHED_PASSES:
        return fail(msg, len, "%s: %d passes (1..%d)", in->name, in->passes, MMAREF_MAX_PASSES);
    case SCHED_SLICE:
        return fail(msg, len, "%s: pass %d takes %d products from %d (runs of %d, %d apart): one lies outside K = %d, "
                    "an earlier pass takes it, or the runs do not fit", in->name, i, p->k_count, p->k_first, p->k_run,
                    p->k_stride, in->k);
    case SCHED_C_LAST:
        return fail(msg, len, "%s: c_last = %d: C is added last only as 1, with C in D's format and D an IEEE format",
                    in->name, in->c_last);
    case SCHED_CODE:
        return fail(msg, len, "%s: pass %d has a code out of range", in->name, i);
    case SCHED_KIND:
        return fail(msg, len, "%s: pass %d: %s does not implement products aligned %s, C aligned %s, scales %s, "
                    "output %s", in->name, i, mmaref_algo_name(p->algo), mmaref_rounding_name(p->align_products),
                    mmaref_rounding_name(p->align_c), mmaref_scaling_name(p->scales), mmaref_output_name(p->out));
    case SCHED_F:
        return fail(msg, len, "%s: pass %d: F = %d is outside %d..%d for %s", in->name, i, p->frac_bits,
                    kinds[p->algo].min_F, kinds[p->algo].max_F, mmaref_algo_name(p->algo));
    case SCHED_GROUP:
        if (!kinds[p->algo].grouped)
            return fail(msg, len, "%s: pass %d: %s has no groups (G = %d)", in->name, i, mmaref_algo_name(p->algo),
                        p->group);
        return fail(msg, len, "%s: pass %d: group G = %d does not divide its %d products", in->name, i, p->group,
                    p->k_count);
    case SCHED_SCALES:
        return fail(msg, len, "%s: pass %d uses block scales the instruction does not have", in->name, i);
    case SCHED_ZERO_EXP:
        return fail(msg, len, "%s: pass %d: zero_term_exp = %d, only an FDA pass without scales takes one, in %d..%d",
                    in->name, i, p->zero_term_exp, MIN_ZERO_TERM_EXP, ZERO_OPERAND_EXP - 1);
    case SCHED_COVER: {
        int n = 0;
        for (int j = 0; j < in->passes; j++)
            n += in->pass[j].k_count;
        return fail(msg, len, "%s: the passes cover %d of K = %d products", in->name, n, in->k);
    }
    case SCHED_OPERANDS:
        return fail(msg, len, "%s: pass %d: %s with output %s does not take %s x %s operands%s%s", in->name, i,
                    mmaref_algo_name(p->algo), mmaref_output_name(p->out), mmaref_format_name(in->a),
                    mmaref_format_name(in->b), p->scales != MMAREF_SCALES_NONE ? " scaled by " : "",
                    p->scales != MMAREF_SCALES_NONE ? mmaref_format_name(in->scale) : "");
    case SCHED_C:
        return fail(msg, len, "%s: pass %d takes C as %s, which %s with output %s cannot take", in->name, i,
                    mmaref_format_name(pass_c_format(in, i)), mmaref_algo_name(p->algo), mmaref_output_name(p->out));
    case SCHED_D:
    default:
        return fail(msg, len, "%s: the last pass writes %s, D is %s", in->name, mmaref_output_name(last->out),
                    mmaref_format_name(in->d));
    }
}

/* ---- the seal: the checked copy ---- */

/* k .. pass[]: the fields the arithmetic reads, contiguous in the record. */
#define CHECKED_FROM offsetof(mmaref_instr, k)
#define CHECKED_HEAD (offsetof(mmaref_instr, pass) - CHECKED_FROM)
_Static_assert(CHECKED_HEAD + sizeof(mmaref_pass) * MMAREF_MAX_PASSES == sizeof(((mmaref_instr *)0)->checked),
               "mmaref_instr: checked must cover k .. pass[] exactly");

static inline size_t checked_size(int passes) { return CHECKED_HEAD + (size_t)passes * sizeof(mmaref_pass); }

/* The copy is kept with every byte XOR-ed with SEAL_BYTE, so that a record whose fields and copy hold the
 * same bytes (a zero or 0xff fill, any constant fill, a record never sealed) is not taken for sealed: a
 * fill forges the seal only by writing each byte of the copy as the field's XOR 0xa5. */
#define SEAL_BYTE 0xa5u
#define SEAL_WORD (0x0101010101010101ULL * SEAL_BYTE)

/* Check a record the library made and keep the copy that lets mmaref_dot skip the check. */
mmaref_status schedule_seal(mmaref_instr *in, char *msg, size_t len)
{
    memset(in->checked, 0, sizeof in->checked);
    mmaref_status st = mmaref_check_schedule(in, msg, len);
    if (!st) {
        const unsigned char *from = (const unsigned char *)in + CHECKED_FROM;
        for (size_t i = 0; i < checked_size(in->passes); i++)
            in->checked[i] = (unsigned char)(from[i] ^ SEAL_BYTE);
    }
    return st;
}

/* Do `size` bytes at x equal the sealed copy at y?  Whole 64-bit words, OR-ed, so a fixed size compiles
 * to a few loads and no call. */
static inline __attribute__((always_inline)) int same_as_sealed(const void *x, const void *y, size_t size)
{
    uint64_t diff = 0;
    size_t i = 0;
#pragma GCC unroll 16
    for (; i + 8 <= size; i += 8) {
        uint64_t u, v;
        memcpy(&u, (const char *)x + i, 8);
        memcpy(&v, (const char *)y + i, 8);
        diff |= u ^ v ^ SEAL_WORD;
    }
    for (; i < size; i++)
        diff |= (uint64_t)(((const unsigned char *)x)[i] ^ ((const unsigned char *)y)[i] ^ SEAL_BYTE);
    return diff == 0;
}

/* Do k .. pass[] equal the sealed copy, do the name and the SASS alias end inside their arrays
 * (messages print them), and are m, n and blocks in range (a tile's size)?  The head and the first pass
 * at a fixed size, further passes one by one (passes is in the head, so the copy's count,
 * 1 .. MMAREF_MAX_PASSES, is the one used). */
static inline __attribute__((always_inline)) int still_sealed(const mmaref_instr *in)
{
    const char *now = (const char *)in + CHECKED_FROM;
    if (!same_as_sealed(now, in->checked, CHECKED_HEAD + sizeof(mmaref_pass)))
        return 0;
    for (int i = 1; i < in->passes; i++)
        if (!same_as_sealed(&in->pass[i], in->checked + CHECKED_HEAD + i * sizeof(mmaref_pass), sizeof(mmaref_pass)))
            return 0;
    return terminated(in->name, sizeof in->name) && terminated(in->sass, sizeof in->sass) && !shape_problem(in);
}

mmaref_status schedule_usable(const mmaref_instr *in, char *msg, size_t len)
{
    if (!in)
        return fail(msg, len, "no instruction given");
    return still_sealed(in) ? MMAREF_OK : mmaref_check_schedule(in, msg, len);
}

/* ---- running ---- */



/* One pass p of in's schedule (its own record or a copy with other parameters) on the whole vector's
 * operands: its products a[k_first ..] b[k_first ..] and the scales of its first block; its C in c_fmt. */
/* One operand converted exactly to f16 (every value of the formats the check lets through fits). */
static uint64_t to_f16(const fmt_desc *from, uint64_t raw)
{
    const fmt_desc *h = fmt_of(MMAREF_F16);
    fp_unpacked u = fmt_decode(from, raw);
    if (u.cls == CLS_NAN)
        return fmt_canonical_nan(h);
    if (u.cls == CLS_INF)
        return fmt_inf(h, u.sign);
    int inexact = 0;
    return fmt_encode(h, u.sign, u.sig, u.exp - from->man_bits, MMAREF_RNE, &inexact);
}

const mmaref_instr *schedule_pass_operands(const mmaref_instr *in, const mmaref_pass *p, const uint64_t *a,
                                           const uint64_t *b, uint64_t *ga, uint64_t *gb, mmaref_instr *view)
{
    for (int j = 0; j < p->k_count; j++)
        ga[j] = a[mmaref_pass_k(p, j)], gb[j] = b[mmaref_pass_k(p, j)];
    if (!p->ab_f16)
        return in;
    *view = *in;
    view->a = view->b = MMAREF_F16;
    for (int j = 0; j < p->k_count; j++)
        ga[j] = to_f16(fmt_of(in->a), ga[j]), gb[j] = to_f16(fmt_of(in->b), gb[j]);
    return view;
}

uint64_t schedule_trace_pass(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,
                             const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t)
{
    if (p->k_run > 0 || p->ab_f16) { /* gathered (and converted): unscaled, the check says so */
        uint64_t ga[MMAREF_MAX_K], gb[MMAREF_MAX_K];
        mmaref_instr view;
        const mmaref_instr *v = schedule_pass_operands(in, p, a, b, ga, gb, &view);
        return kinds[p->algo].trace(v, p, c_fmt, c, ga, gb, NULL, NULL, t);
    }
    int s0 = p->scales != MMAREF_SCALES_NONE ? p->k_first / in->block_size : 0;
    return kinds[p->algo].trace(in, p, c_fmt, c, a + p->k_first, b + p->k_first, sa ? sa + s0 : NULL,
                                sb ? sb + s0 : NULL, t);
}

uint64_t schedule_run_pass(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c,
                           const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb)
{
    if (p->k_run > 0 || p->ab_f16) { /* gathered (and converted): unscaled, the check says so */
        uint64_t ga[MMAREF_MAX_K], gb[MMAREF_MAX_K];
        mmaref_instr view;
        const mmaref_instr *v = schedule_pass_operands(in, p, a, b, ga, gb, &view);
        return kinds[p->algo].run(v, p, c_fmt, c, ga, gb, NULL, NULL);
    }
    int s0 = p->scales != MMAREF_SCALES_NONE ? p->k_first / in->block_size : 0;
    return kinds[p->algo].run(in, p, c_fmt, c, a + p->k_first, b + p->k_first, sa ? sa + s0 : NULL,
                              sb ? sb + s0 : NULL);
}

/* The passes in order; operands already checked.  A pass's scales start at its first block. */
static inline __attribute__((always_inline)) uint64_t run_passes(const mmaref_instr *in, uint64_t c,
                                                                  const uint64_t *a, const uint64_t *b,
                                                                  const uint64_t *sa, const uint64_t *sb)
{
    if (in->passes == 1 && !in->c_last) /* the common case: one pass over all of K */
        return kinds[in->pass[0].algo].run(in, &in->pass[0], in->c, c, a, b, sa, sb);
    uint64_t acc = in->c_last ? 0 : c; /* C added last: the passes start from +0 */
    for (int i = 0; i < in->passes; i++)
        acc = schedule_run_pass(in, &in->pass[i], pass_c_format(in, i), acc, a, b, sa, sb);
    return in->c_last ? schedule_add_c(in, acc, c) : acc;
}

uint64_t schedule_add_c(const mmaref_instr *in, uint64_t p, uint64_t c)
{
    const fmt_desc *fd = fmt_of(in->d);
    return ieee_add(fd, ieee_decode(fd, p), ieee_decode(fd, c));
}

/* For a caller that checked the record and every operand's bits once for many dot-adds (gemm.c). */
uint64_t schedule_run(const mmaref_instr *in, uint64_t c, const uint64_t *a, const uint64_t *b, const uint64_t *sa,
                      const uint64_t *sb)
{
    return run_passes(in, c, a, b, sa, sb);
}

/* ---- the checked entry point ---- */

static inline uint64_t width_mask(mmaref_format f)
{
    int w = fmt_of(f)->width;
    return w == 64 ? ~0ULL : (1ULL << w) - 1;
}

/* Raw values must fit their format's width.  The OR of the stray bits is cheap (it vectorizes); only a
 * failure walks the values again to name the first bad one. */
static mmaref_status check_operands(const mmaref_instr *in, const uint64_t *vals, int n, mmaref_format f,
                                    const char *what, char *msg, size_t msglen)
{
    if (n == 0)
        return MMAREF_OK; /* e.g. the scales of an unscaled instruction, whose scale format is unset */
    uint64_t mask = width_mask(f), stray = 0;
    for (int i = 0; i < n; i++)
        stray |= vals[i] & ~mask;
    if (!stray)
        return MMAREF_OK;
    for (int i = 0; i < n; i++)
        if (vals[i] & ~mask) {
            set_msg(msg, msglen, "%s[%d] = 0x%llx does not fit in %s (%d bits) for %s", what, i,
                    (unsigned long long)vals[i], mmaref_format_name(f), mmaref_format_width(f), in->name);
            return MMAREF_ERR_VALUE;
        }
    return MMAREF_OK;
}

/* The OR of every bit of a[0..k) and b[0..k) outside their formats' widths: two lanes at a time. */
typedef uint64_t u64x2 __attribute__((vector_size(16)));

static inline uint64_t stray_bits(const uint64_t *a, const uint64_t *b, int k, uint64_t mask_a, uint64_t mask_b)
{
    u64x2 stray = {0, 0}, not_a = {~mask_a, ~mask_a}, not_b = {~mask_b, ~mask_b};
    int i = 0;
    for (; i + 2 <= k; i += 2) {
        u64x2 x, y;
        memcpy(&x, a + i, sizeof x);
        memcpy(&y, b + i, sizeof y);
        stray |= (x & not_a) | (y & not_b);
    }
    uint64_t s = stray[0] | stray[1];
    if (i < k)
        s |= (a[i] & ~mask_a) | (b[i] & ~mask_b);
    return s;
}

mmaref_status mmaref_dot(const mmaref_instr *in, uint64_t c, const uint64_t *a, const uint64_t *b,
                         const uint64_t *sa, const uint64_t *sb, uint64_t *d, char *msg, size_t msglen)
{
    if (!in || !a || !b || !d) {
        set_msg(msg, msglen, "mmaref_dot: null argument");
        return MMAREF_ERR_ARGUMENT;
    }
    int bad_pass;
    if (!still_sealed(in) && schedule_problem(in, &bad_pass)) /* not sealed, or changed since */
        return mmaref_check_schedule(in, msg, msglen);
    mmaref_status st;
    int ns = in->block_size ? in->k / in->block_size : 0; /* mmaref_scale_count, inline */
    if (ns && (!sa || !sb)) {
        set_msg(msg, msglen, "%s takes %d block scale factors per operand (%s)", in->name, ns,
                mmaref_format_name(in->scale));
        return MMAREF_ERR_ARGUMENT;
    }
    if (c & ~width_mask(in->c)) {
        set_msg(msg, msglen, "c = 0x%llx does not fit in %s for %s", (unsigned long long)c,
                mmaref_format_name(in->c), in->name);
        return MMAREF_ERR_VALUE;
    }
    /* one pass over a and b finds no stray bits above the formats' widths (the usual case) */
    uint64_t stray = stray_bits(a, b, in->k, width_mask(in->a), width_mask(in->b));
    if ((stray && ((st = check_operands(in, a, in->k, in->a, "a", msg, msglen)) ||
                   (st = check_operands(in, b, in->k, in->b, "b", msg, msglen)))) ||
        (st = check_operands(in, sa, ns, in->scale, "scale_a", msg, msglen)) ||
        (st = check_operands(in, sb, ns, in->scale, "scale_b", msg, msglen)))
        return st;
    *d = run_passes(in, c, a, b, ns ? sa : NULL, ns ? sb : NULL);
    return MMAREF_OK;
}

mmaref_status mmaref_with_k(const mmaref_instr *in, int k, mmaref_instr *out, char *msg, size_t len)
{
    mmaref_status st = mmaref_check_schedule(in, msg, len);
    if (st != MMAREF_OK || !out)
        return st != MMAREF_OK ? st : fail(msg, len, "no record to write");
    if (in->passes != 1 && k == in->k) {
        *out = *in;
        return MMAREF_OK;
    }
    if (in->passes != 1)
        return fail(msg, len, "%s: %d passes: K = %d runs only on a one-pass instruction", in->name, in->passes, k);
    mmaref_instr w = *in;
    w.k = w.pass[0].k_count = k;
    st = mmaref_check_schedule(&w, msg, len);
    if (st != MMAREF_OK)
        return st;
    /* a name of its own: reports say which record ran, and lookups never find it */
    snprintf(w.name, sizeof w.name, "%.80s[k=%d]", in->name, k);
    *out = w;
    return MMAREF_OK;
}
