/* Directed vectors: the corner cases of the AMD MFMA algorithms (docs/algorithms.md, AMD), the places
 * where an FDRDA or GPS unit can go wrong while random vectors rarely look.  They only choose operands
 * (the expected D is the model's; each value rounded to its operand format, so a case that a format
 * cannot express becomes a nearby one); gen.c offers them first among an AMD instruction's directed
 * vectors.  Each case fills the first lanes; it is offered again in the last pass's (or
 * group's) lanes when the instruction chains passes, so that pass 2 (CoFDRDA) or the last group (GPS)
 * meets it with the previous result as its C.
 * FDRDA / GFDRDA:
 *   - the paper's asymmetry (section VI-C): 2048 * 2048 - 2048 * 2048 + c, c = -1e-6 -> -0.25, +1e-6;
 *   - Step 6 for C: one product 1.0 (e_max = 0) and c = -+(1 or 1.5) * 2^-j, j = 20..30: the rounding
 *     down at 24 bits, GFDRDA's window (c dropped below e_max - 25, at e_max - 25 still -1 unit);
 *   - Step 6 for the dot sum: c = 1024 and a product -+2^-j, j = 18..27: rounding down at 31 bits;
 *   - GFDRDA Steps 6-7: even lane 1.0, odd lane -2^-j, j = 20..28: the odd sum rounded down onto e_dot;
 *   - Step 2: products at 2^128 (+inf, -inf, both: NaN), just below, against C = -inf and C = NaN;
 *   - RNE at 1: 1 + 2^-24 (tie, to even), 1 + 2^-23 + 2^-24 (tie, up); exact cancellation with C = -0.
 * GPS:
 *   - flushing: subnormal C, subnormal f16 operands, products and sums below 2^-126 of either sign;
 *   - zero signs: C = -0 with -0 products (CDNA1 -0; CDNA2 +0);
 *   - the pairwise order: 2^24 + 1 - 2^24 + 1 (ties in the groups);
 *   - inf - inf in a group, overflow of a product and of a sum, RNE ties of a sum. */
#include <math.h>

#include "gen_sets.h"

enum { LANES = 4 };

typedef struct {
    double c, a[LANES], b[LANES];
} amd_case;

#define INF HUGE_VAL
static const amd_case fdrda_cases[] = {
    {-1e-6, {2048, 2048}, {2048, -2048}},
    {1e-6, {2048, 2048}, {2048, -2048}},
    {-0.0, {3, -3}, {5, 5}},
    {1, {0x1p-12}, {0x1p-12}},
    {1 + 0x1p-23, {0x1p-12}, {0x1p-12}},
    {-1, {0x1p-12, 0x1p-12}, {-0x1p-12, 0x1p-13}},
    {0, {0x1p64}, {0x1p64}},
    {0, {0x1p64}, {-0x1p64}},
    {0, {0x1p64, 0x1p64}, {0x1p64, -0x1p64}},
    {0, {0x1.fep63}, {0x1p64}},
    {-INF, {0x1p64}, {0x1p64}},
    {NAN, {0x1p64}, {0x1p64}},
    {1, {0x1.fep127}, {-1}},
};

static const amd_case gps_cases[] = {
    {0x1p-140, {1}, {0x1p-20}},
    {-0x1p-140, {0x1p-20, 0x1p-14}, {1, -0x1p-14}},
    {-0.0, {0.0, -0.0}, {-1, 2}},
    {-0.0, {-0.0, 0.0, -0.0, 0.0}, {1, -1, -1, 1}},
    {0, {0x1p-100, -0x1p-100}, {0x1p-30, 0x1p-30}},
    {0x1.8p-126, {-0x1p-64}, {0x1p-62}},
    {0, {0x1.8p-63, -0x1p-63}, {0x1p-62, 0x1p-62}},
    {0, {4096, 1, -4096, 1}, {4096, 1, 4096, 1}},
    {1, {INF, -INF}, {1, 1}},
    {0, {0x1p127}, {4}},
    {0x1.fffffep127, {0x1p127, 0x1p127}, {1, 1}},
    {1, {1, 0x1p-12}, {1, 0x1p-12}},
    {1 + 0x1p-23, {0x1p-12}, {0x1p-12}},
    {-1, {0x1p-12, 0x1p-12, 0x1p-12}, {0x1p-12, 0x1p-12, 0x1p-12}},
};

/* A pass kind's cases, and the swept ones: Step 6's C (FDRDA) and dot sum, GFDRDA's odd sum. */
enum { SWEEP_C = 2 * 2 * 11, SWEEP_DOT = 2 * 10, SWEEP_ODD = 9 };

static int amd_kind(const mmaref_instr *in)
{
    mmaref_algo k = in->pass[0].algo;
    return k == MMAREF_ALGO_FDRDA || k == MMAREF_ALGO_GFDRDA ? 1 : k == MMAREF_ALGO_GPS ? 2 : 0;
}

static int cases(const mmaref_instr *in)
{
    switch (amd_kind(in)) {
    case 1:
        return (int)(sizeof fdrda_cases / sizeof fdrda_cases[0]) + SWEEP_C + SWEEP_DOT + SWEEP_ODD;
    case 2:
        return (int)(sizeof gps_cases / sizeof gps_cases[0]);
    default:
        return 0;
    }
}

/* A case with one product -+2^-j in lane `lane` (a = -+2^-(j/2), b = 2^-(j - j/2)) after `first`. */
static amd_case tiny_product(double c, double first, int lane, int neg, int j)
{
    amd_case v = {c, {first}, {1}};
    v.a[lane] = (neg ? -1 : 1) * ldexp(1, -(j / 2));
    v.b[lane] = ldexp(1, -(j - j / 2));
    return v;
}

/* Case i as values. */
static amd_case case_at(const mmaref_instr *in, int i)
{
    if (amd_kind(in) == 2)
        return gps_cases[i];
    int n = (int)(sizeof fdrda_cases / sizeof fdrda_cases[0]);
    if (i < n)
        return fdrda_cases[i];
    i -= n;
    if (i < SWEEP_C) {  /* c = -+(1 or 1.5) 2^-j against one product 1.0 */
        int j = 20 + i % 11, neg = (i / 11) % 2, big = i / 22;
        return (amd_case){(neg ? -1 : 1) * (big ? 1.5 : 1.0) * ldexp(1, -j), {1}, {1}};
    }
    i -= SWEEP_C;
    if (i < SWEEP_DOT) {  /* c = 1024, one product -+2^-j */
        return tiny_product(1024, 0, 0, i < 10, 18 + i % 10);
    }
    i -= SWEEP_DOT;
    /* GFDRDA: even lane 1.0, odd lane -2^-j (FDRDA: the same as two products) */
    return tiny_product(0, 1, 1, 1, 20 + i);
}

/* The lane offsets a case is offered at: the first lanes, and the last pass's or group's when the
 * instruction has several. */
static int offsets(const mmaref_instr *in, int *off)
{
    int span = amd_kind(in) == 2 ? in->pass[0].group : in->pass[in->passes - 1].k_count;
    off[0] = 0;
    if (span <= 0 || span >= in->k)
        return 1;
    off[1] = in->k - span;
    return 2;
}

uint64_t gen_amd_count(const mmaref_instr *in)
{
    int off[2];
    return (uint64_t)(cases(in) * offsets(in, off));
}

static uint64_t bits(mmaref_format f, double x)
{
    uint64_t r = 0;
    if (mmaref_format_round_double(f, x, &r) != MMAREF_OK)
        return 0;
    return r;
}

const char *gen_amd_vector(const mmaref_instr *in, uint64_t idx, uint64_t *c, uint64_t *a, uint64_t *b,
                           uint64_t *sa, uint64_t *sb)
{
    (void)sa, (void)sb; /* CDNA's instructions have no block scales */
    int off[2], no = offsets(in, off), n = cases(in);
    if (idx >= (uint64_t)(n * no))
        return NULL;
    amd_case v = case_at(in, (int)(idx % (uint64_t)n));
    int base = off[idx / (uint64_t)n];
    *c = bits(in->c, v.c);
    for (int i = 0; i < in->k; i++)
        a[i] = b[i] = 0;
    for (int i = 0; i < LANES && base + i < in->k; i++) {
        a[base + i] = bits(in->a, v.a[i]);
        b[base + i] = bits(in->b, v.b[i]);
    }
    return "FDRDA and GPS corners (CDNA)";
}

const gen_set gen_amd_corners = {gen_amd_count, gen_amd_vector};
