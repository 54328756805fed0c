/* The rule inventory: every arithmetic rule the model encodes, the model's step that encodes it, and the
 * bug that breaks it -- a unit doing the plausible other thing -- run as the model with that one rule
 * broken (mmaref.h, "rules"; docs/rules.md).  A vector "catches" a rule when the broken model's D differs
 * from the model's in any bit: a unit with that bug fails on it.  The coverage model counts such vectors
 * per rule (coverage.c), and the generator's rule kind aims at them (gen_rules.c).
 *
 * A rule is broken in one of four ways, whichever touches the model least:
 *   RECORD  a copy of the instruction with other parameters (F - 1, RZ for RD, ...), run as it is;
 *   INPUT   the operands changed as the buggy unit would read them (a subnormal flushed), then the model;
 *   OUTPUT  D changed as the buggy unit would write it (a subnormal D flushed), from the operands and D;
 *   HOOK    inside a pass, where the pass tests trace_breaks (trace.h) on a counting trace sink. */
#include <string.h>

#include "algo.h"
#include "format.h"
#include "host_fp.h"
#include "reach.h"
#include "rules.h"
#include "schedule.h"
#include "trace.h"

/* ---- what an instruction has ---- */

static const fmt_desc *fmt_a(const mmaref_instr *in) { return fmt_of(in->a); }
static int is_complex(const mmaref_instr *in) { return fmt_of(in->a)->parts > 1 || fmt_of(in->c)->parts > 1; }
static int any_pass(const mmaref_instr *in, int (*pred)(const mmaref_pass *))
{
    for (int i = 0; i < in->passes; i++)
        if (pred(&in->pass[i]))
            return 1;
    return 0;
}
static int flushes(const mmaref_pass *p) { return p->flush; }
static int is_ieee_kind(const mmaref_pass *p) { return p->algo == MMAREF_ALGO_SFMA || p->algo == MMAREF_ALGO_GPS; }
static int is_fdrda(const mmaref_pass *p) { return p->algo == MMAREF_ALGO_FDRDA || p->algo == MMAREF_ALGO_GFDRDA; }
static int is_gfdrda(const mmaref_pass *p) { return p->algo == MMAREF_ALGO_GFDRDA; }
static int aligns(const mmaref_pass *p) { return p->frac_bits > 0 && !is_ieee_kind(p); }
static int has_zero_term_exp(const mmaref_pass *p) { return p->zero_term_exp != 0; }
static int takes_f16(const mmaref_pass *p) { return p->ab_f16; }
/* a pass that decodes a zero operand at ZERO_OPERAND_EXP (algo.h, operand_exp) */
static int zero_exp_counts(const mmaref_pass *p)
{
    return !is_ieee_kind(p) && p->algo != MMAREF_ALGO_GDFS && !p->zero_term_exp; /* GDFS: only C's (f32) */
}
static int rd_aligned(const mmaref_pass *p) { return is_fdrda(p) && p->align_products == MMAREF_RD; }
static int rd_c(const mmaref_pass *p) { return is_fdrda(p) && p->align_c == MMAREF_RD; }
static int grouped(const mmaref_pass *p)
{
    return is_gfdrda(p) || (p->algo == MMAREF_ALGO_GDFS && p->group > 1) ||
           (p->algo == MMAREF_ALGO_GPS && (p->group > 1 || p->k_count % 2 == 0));
}
/* a pass whose Step 1 is not FDA's (fda_special_result, where the rule inf-minus-inf is broken inside) */
static int not_fda_step1(const mmaref_pass *p) { return p->algo != MMAREF_ALGO_FDA && p->algo != MMAREF_ALGO_M3XU; }
static const mmaref_pass *last_pass(const mmaref_instr *in) { return &in->pass[in->passes - 1]; }

/* The fractional bits below e_max of the sum a fused pass rounds to its output (FDRDA: its Step 6 dot). */
static int final_window(const mmaref_pass *p) { return is_fdrda(p) ? FDRDA_DOT_F : p->frac_bits; }

/* The output kind the last pass's rounding is confused with, or -1. */
static int other_output(mmaref_output out)
{
    switch (out) {
    case MMAREF_OUT_F32_RZ: return MMAREF_OUT_F32_RNE;
    case MMAREF_OUT_F32_RNE: return MMAREF_OUT_F32_RZ;
    case MMAREF_OUT_F32_E8M13: return MMAREF_OUT_F32_RZ; /* 23 bits kept, not 13 */
    default: return -1;
    }
}

/* ---- what a rule's bug can reach (binary logarithms of what the terms can be: reach.h) ---- */

/* the scales' smallest exponent, summed over SA and SB (0 without scales) */
static int scales_min_exp(const mmaref_instr *in) { return in->block_size ? 2 * log2_min(fmt_of(in->scale)) : 0; }
/* the lowest bit any nonzero term of the passes can have: a product's, or C's where C enters a pass */
static int terms_lsb(const mmaref_instr *in)
{
    int p = log2_min(fmt_a(in)) + log2_min(fmt_of(in->b)) + scales_min_exp(in);
    int c = log2_min(fmt_of(in->c));
    return in->c_last || c > p ? p : c;
}

/* A zero operand decoded at its format's own smallest exponent (f16's, where the pass converts to f16)
 * raises e_max only as far as that exponent plus the other factor's largest; the bug shows where that
 * lies more than F above the lowest bit of a term.  Bits below the pass output's smallest subnormal reach
 * D only through a tie of that output, which the rule's vectors do not seek: they are left out. */
static int zero_exp_shows(const mmaref_instr *in)
{
    const fmt_desc *fa = fmt_a(in), *fb = fmt_of(in->b), *fc = fmt_of(in->c);
    const fmt_desc *za = any_pass(in, takes_f16) ? fmt_of(MMAREF_F16) : fa;
    const fmt_desc *zb = any_pass(in, takes_f16) ? fmt_of(MMAREF_F16) : fb;
    if (fmt_min_exp(za) == ZERO_OPERAND_EXP && fmt_min_exp(zb) == ZERO_OPERAND_EXP &&
        fmt_min_exp(fc) == ZERO_OPERAND_EXP)
        return 0; /* decoded alike */
    int top = fmt_min_exp(za) + top_exp(fb); /* a zero product's exponent: no significand above it */
    if (fmt_min_exp(zb) + top_exp(fa) > top)
        top = fmt_min_exp(zb) + top_exp(fa);
    if (!in->c_last && fmt_min_exp(fc) > top)
        top = fmt_min_exp(fc);
    int lsb = terms_lsb(in), out_lsb = log2_min(pass_out_format(&in->pass[0]));
    return top + scales_min_exp(in) - (lsb > out_lsb ? lsb : out_lsb) > in->pass[0].frac_bits;
}

/* Converted to f16, a subnormal FP8 factor becomes a normal, its exponent lowered by up to its man bits
 * (e5m2's subnormals stay subnormal: the same value and exponent).  That shows where the product of such
 * a subnormal and the other factor's largest lies F - man bits or more above the smallest product
 * (e4m3 x e4m3: 20 binades under F = 25 - 3: never), and only in an f32 pass result. */
static int subnormal_shift_shows(const mmaref_instr *in)
{
    const fmt_desc *f[2] = {fmt_a(in), fmt_of(in->b)}, *h = fmt_of(MMAREF_F16);
    if (out_table[in->pass[0].out].format != MMAREF_F32)
        return 0;
    for (int s = 0; s < 2; s++) {
        const fmt_desc *x = f[s], *y = f[1 - s];
        if (fmt_min_exp(x) <= fmt_min_exp(h))
            continue;
        int sub_top = fmt_min_exp(x) + top_exp(y) + 1, p_min = log2_min(x) + log2_min(y);
        if (sub_top - p_min > in->pass[0].frac_bits - x->man_bits)
            return 1;
    }
    return 0;
}

/* ---- the inventory ---- */

enum { RECORD, INPUT, OUTPUT, HOOK };

typedef struct {
    mmaref_rule pub;
    int how; /* RECORD, INPUT, OUTPUT, HOOK */
} rule_entry;

#define RULE(id, name, how, step, rule, bug) [id] = {{name, step, rule, bug}, how}
static const rule_entry rules[RULE_COUNT] = {
    RULE(RULE_SUBNORMAL_OPERAND, "subnormal-operand", INPUT, "decode (format.h fmt_decode; GPS Steps 1-4 where it flushes)",
         "a subnormal A or B enters with its value; on CDNA2's GPS passes it is flushed to zero, with subnormal products and partial sums",
         "subnormal A and B flushed to a zero of their sign (on a flushing pass: nothing flushed)"),
    RULE(RULE_SUBNORMAL_C, "subnormal-c", INPUT, "decode (format.h fmt_decode)",
         "a subnormal C enters with its value",
         "a subnormal C flushed to a zero of its sign"),
    RULE(RULE_ZERO_OPERAND_EXP, "zero-operand-exp", HOOK, "Step 2, e_max (algo.h operand_exp)",
         "a zero operand counts as exponent -126 in e_max whatever its format, so a zero product 0 x b has exponent -126 + e_b and can set e_max",
         "a zero operand decoded at its format's own smallest exponent (e4m3: -6, f16: -14), as a subnormal with no bits"),
    RULE(RULE_ZERO_TERM_EXP, "zero-term-exp", RECORD, "FDA Step 2, e_max (algo.h product_term_exp, c_term_exp)",
         "a zero term (a zero C, a product with a zero factor) takes the pass's own exponent, -133, and never sets e_max",
         "the MMA-Sim convention instead (zero-operand-exp)"),
    RULE(RULE_F16_OPERANDS, "f16-operands", RECORD, "pass operands (schedule.c schedule_pass_operands)",
         "FP8 operands are converted exactly to f16 before an f16 tensor-core pass, so an e4m3 subnormal becomes an f16 normal with its own exponent in e_max",
         "the FP8 operands summed as they are (an e4m3 subnormal at e4m3's smallest exponent)"),
    RULE(RULE_SCALE_BIAS, "scale-bias", INPUT, "FDA Steps 1-2, block scales (algo_fda.c)",
         "a UE8M0 scale factor is 2^(e - 127): e_k = e_a + e_b + e_sa + e_sb",
         "each scale read one binade low (the two scales' bias taken as 255, not 254)"),
    RULE(RULE_SCALE_MAX, "scale-max", INPUT, "decode of a UE8M0 scale (format.h fmt_decode)",
         "UE8M0 0xFE is 2^127, a number; only 0xFF is NaN",
         "0xFE taken as NaN"),
    RULE(RULE_NAN_CANONICAL, "nan-canonical", OUTPUT, "Step 1, specials (algo_fda.c fda_special_result)",
         "a NaN D is the canonical NaN of D's format (f32 0x7FFFFFFF, f16 0x7FFF), whatever NaN came in",
         "a NaN C passed through with its payload, quieted"),
    RULE(RULE_INF_MINUS_INF, "inf-minus-inf", OUTPUT, "Step 1, specials (algo_fda.c fda_special_result: each FDA pass)",
         "+inf and -inf among the products and C give NaN",
         "they give -inf"),
    RULE(RULE_ZERO_TIMES_INF, "zero-times-inf", INPUT, "Step 1, specials",
         "a product 0 x inf is NaN",
         "0 x inf taken as a zero product"),
    RULE(RULE_WINDOW_SHORT, "window-F", RECORD, "Step 3, alignment (fixed.h fixed_align_rz)",
         "every term is aligned to e_max keeping F fractional bits, the rest truncated",
         "F - 1 bits kept"),
    RULE(RULE_WINDOW_LONG, "window-F+1", RECORD, "Step 3, alignment (fixed.h fixed_align_rz)",
         "... and no more than F: the bit F + 1 below e_max is dropped",
         "F + 1 bits kept"),
    RULE(RULE_ALIGN_DIRECTION, "align-direction", RECORD, "FDRDA Step 6, GFDRDA Steps 6 and 8 (algo_fdrda.c)",
         "the fused dot is aligned to e_max rounding down (toward -inf)",
         "rounded toward zero (the paper's hypothetical variant)"),
    RULE(RULE_C_ALIGN_DIRECTION, "c-align-direction", RECORD, "FDRDA Step 6, GFDRDA Step 8 (algo_fdrda.c)",
         "C is aligned to e_max rounding down, keeping 24 fractional bits",
         "C rounded toward zero"),
    RULE(RULE_C_WINDOW, "c-window", HOOK, "GFDRDA Step 8 (algo_fdrda.c, GFDRDA_C_WINDOW)",
         "C rounds toward zero, not down, when e_c < e_max - 25 (GFDRDA's patch)",
         "the switch one binade early: e_c < e_max - 24"),
    RULE(RULE_GROUPING, "grouping", RECORD, "the kind's groups (GDFS Step 3, GPS Steps 1-4, GFDRDA Steps 4-6)",
         "the products are summed in the kind's groups: GDFS 16 exact products, GPS pairs in groups of G, GFDRDA the even and the odd products apart",
         "other groups: GDFS and GPS groups of G / 2 (G = 1: 2), GFDRDA one fused dot (FDRDA)"),
    RULE(RULE_ORDER, "order", INPUT, "SFMA Algorithm 1, GPS Steps 1-4",
         "the IEEE kinds round every operation, in the kind's order: SFMA a chain from product 0, GPS pairs from product 0",
         "every product taken one lane later (the last first)"),
    RULE(RULE_INTERMEDIATE_ROUNDING, "intermediate-rounding", RECORD, "the schedule (schedule.c; CoFDA, CoFDRDA, CoGFDRDA)",
         "a two-pass schedule rounds the first pass's result to its output format, which the second pass takes as C",
         "one pass over all K products"),
    RULE(RULE_OUTPUT_ROUNDING, "output-rounding", RECORD, "FDA Step 5, normalization (fixed.c fixed_to_output)",
         "the last pass rounds to D's format as its output kind says: f32 toward zero (NVIDIA f32), to nearest even (AMD, Blackwell FP8 f32), or toward zero at 13 bits (e8m13)",
         "the other direction (RZ for RNE, RNE for RZ); for e8m13, 23 bits kept"),
    RULE(RULE_OUTPUT_TIES, "output-ties", HOOK, "FDA Step 5, FDRDA Step 8, normalization (format.h round_increment)",
         "a fused pass rounding to nearest (its output kind's RNE) breaks a tie, a sum exactly halfway between two values of D, to the even one",
         "ties rounded away from zero"),
    RULE(RULE_OUTPUT_STICKY, "output-sticky", HOOK, "FDA Step 5, FDRDA Step 8, normalization (format.h round_increment)",
         "... and sees every bit of the sum below D's last place: a sum just above halfway rounds away from the even value",
         "only the round bit seen (the sticky bits below it dropped): just above halfway taken for a tie"),
    RULE(RULE_SUBNORMAL_RESULT, "subnormal-result", OUTPUT, "FDA Step 5, normalization (fixed.c)",
         "a D in the subnormal range of D's format is returned as a subnormal",
         "flushed to a zero of its sign"),
    RULE(RULE_OVERFLOW, "overflow", OUTPUT, "FDA Step 5, normalization (fixed.c)",
         "a finite sum past D's largest finite value, rounded to nearest, is inf",
         "saturated to the largest finite value"),
    RULE(RULE_ZERO_SIGN, "zero-sign", OUTPUT, "FDA Step 5 (fixed.h out_desc.signed_zero), SFMA and GPS's IEEE additions",
         "C = -0 and every product -0 give +0 on NVIDIA's fused sum, -0 under IEEE addition (SFMA, GPS, FDRDA's f32 round)",
         "the other sign"),
};
#undef RULE

int mmaref_rule_count(void) { return RULE_COUNT - 1; }

const mmaref_rule *mmaref_rule_at(int i)
{
    return i >= 1 && i < RULE_COUNT ? &rules[i].pub : NULL;
}

int mmaref_rule_by_name(const char *name)
{
    for (int i = 1; name && i < RULE_COUNT; i++)
        if (!strcmp(rules[i].pub.name, name))
            return i;
    return -1;
}

/* ---- which rules an instruction has ---- */

int rule_applies(const mmaref_instr *in, mmaref_rule_id r)
{
    const fmt_desc *fa = fmt_a(in), *fb = fmt_of(in->b), *fc = fmt_of(in->c), *fd = fmt_of(in->d);
    const mmaref_pass *last = last_pass(in);
    const int cplx = is_complex(in);
    switch (r) {
    case RULE_SUBNORMAL_OPERAND:
        return !cplx && (has_subnormal(fa) || has_subnormal(fb));
    case RULE_SUBNORMAL_C: { /* GDFS: a group's exponent is its scales' alone, which may leave C's
                              * subnormals below every window */
        if (cplx || !has_subnormal(fc) || any_pass(in, flushes))
            return 0;
        reach_ctx reach = reach_of(in);
        return in->pass[0].algo != MMAREF_ALGO_GDFS || reach_subnormal_d(&reach);
    }
    case RULE_ZERO_OPERAND_EXP: return any_pass(in, zero_exp_counts) && zero_exp_shows(in);
    case RULE_ZERO_TERM_EXP: /* C added last: the passes' C is +0 and no zero product outgrows the others */
        return any_pass(in, has_zero_term_exp) && !in->c_last &&
               fmt_min_exp(fc) - fc->man_bits < ZERO_OPERAND_EXP; /* a C below -126 to tell them apart */
    case RULE_F16_OPERANDS: return any_pass(in, takes_f16) && subnormal_shift_shows(in);
    case RULE_SCALE_BIAS:
    case RULE_SCALE_MAX:
        return in->block_size > 0 && in->scale == MMAREF_UE8M0;
    case RULE_NAN_CANONICAL:
        /* a NaN C other than the canonical one, and D in C's format to carry it */
        return !cplx && in->c == in->d && !in->c_last &&
               (fc->specials == MMAREF_SPECIALS_IEEE || fc->specials == MMAREF_SPECIALS_FN);
    case RULE_INF_MINUS_INF: /* two infinities: one at least from a product */
        return !cplx && (has_inf(fa) || has_inf(fb)) && has_inf(fd);
    case RULE_ZERO_TIMES_INF:
        return !cplx && (has_inf(fa) || has_inf(fb));
    case RULE_WINDOW_SHORT: return any_pass(in, aligns);
    case RULE_WINDOW_LONG: return any_pass(in, aligns) && last->algo != MMAREF_ALGO_M3XU;
    case RULE_ALIGN_DIRECTION: return any_pass(in, rd_aligned);
    case RULE_C_ALIGN_DIRECTION: return any_pass(in, rd_c);
    case RULE_C_WINDOW: return any_pass(in, is_gfdrda);
    case RULE_GROUPING: return any_pass(in, grouped);
    case RULE_ORDER: /* rotated lanes: another chain from K = 2, other pairs from K = 3 */
        return any_pass(in, is_ieee_kind) && in->passes == 1 && !in->block_size &&
               in->k >= (in->pass[0].algo == MMAREF_ALGO_GPS ? 3 : 2);
    case RULE_INTERMEDIATE_ROUNDING: {
        if (in->passes < 2 || in->c_last)
            return 0;
        for (int i = 0; i < in->passes; i++)
            if (in->pass[i].k_run > 0 || in->pass[i].algo != in->pass[0].algo)
                return 0;
        return 1;
    }
    case RULE_OUTPUT_ROUNDING: return !in->c_last && aligns(last) && other_output(last->out) >= 0;
    case RULE_OUTPUT_TIES:   /* a sum with a bit below D's last place: F at least D's precision */
    case RULE_OUTPUT_STICKY: /* ... and one more below that */
        return !cplx && aligns(last) && out_table[last->out].rounding == MMAREF_RNE &&
               final_window(last) >= out_table[last->out].man_bits + 1 + (r == RULE_OUTPUT_STICKY);
    case RULE_SUBNORMAL_RESULT: {
        reach_ctx reach = reach_of(in);
        return !cplx && has_subnormal(fd) && reach_subnormal_d(&reach);
    }
    case RULE_OVERFLOW: {
        reach_ctx reach = reach_of(in);
        return !cplx && has_inf(fd) && reach_overflow_inf(&reach);
    }
    case RULE_ZERO_SIGN:
        return !cplx && fmt_has_neg_zero(fc) && (fmt_has_neg_zero(fa) || fmt_has_neg_zero(fb)) &&
               fmt_has_neg_zero(fd);
    default: return 0;
    }
}

/* In the default floating-point environment: the reach is derived in long double (reach.h). */
int mmaref_rule_applies(const mmaref_instr *in, int i)
{
    if (!in || i < 1 || i >= RULE_COUNT || schedule_usable(in, NULL, 0) != MMAREF_OK)
        return 0;
    host_fp_all_env env;
    host_fp_all_default(&env);
    int applies = rule_applies(in, (mmaref_rule_id)i);
    host_fp_all_restore(&env);
    return applies;
}

/* ---- breaking a rule ---- */

/* RECORD: the instruction with the rule's parameters changed; 0 when it has no such parameter. */
static int broken_record(const mmaref_instr *in, mmaref_rule_id r, mmaref_instr *x)
{
    *x = *in;
    for (int i = 0; i < x->passes; i++) {
        mmaref_pass *p = &x->pass[i];
        switch (r) {
        case RULE_ZERO_TERM_EXP: p->zero_term_exp = 0; break;
        case RULE_F16_OPERANDS: p->ab_f16 = 0; break;
        case RULE_WINDOW_SHORT: if (aligns(p)) p->frac_bits -= 1; break;
        case RULE_WINDOW_LONG: if (aligns(p)) p->frac_bits += 1; break;
        case RULE_ALIGN_DIRECTION: if (rd_aligned(p)) p->align_products = MMAREF_RZ; break;
        case RULE_C_ALIGN_DIRECTION: if (rd_c(p)) p->align_c = MMAREF_RZ; break;
        case RULE_SUBNORMAL_OPERAND: p->flush = 0; break; /* a flushing pass: nothing flushed */
        case RULE_GROUPING:
            if (is_gfdrda(p))
                p->algo = MMAREF_ALGO_FDRDA;
            else if (p->algo == MMAREF_ALGO_GDFS || p->algo == MMAREF_ALGO_GPS)
                p->group = p->group > 1 ? p->group / 2 : 2;
            break;
        case RULE_OUTPUT_ROUNDING:
            if (i == x->passes - 1) p->out = (mmaref_output)other_output(p->out);
            break;
        case RULE_INTERMEDIATE_ROUNDING: break; /* below */
        default: return 0;
        }
    }
    if (r == RULE_INTERMEDIATE_ROUNDING) {
        mmaref_pass one = x->pass[x->passes - 1];
        one.k_first = 0;
        one.k_count = x->k;
        x->passes = 1;
        x->pass[0] = one;
    }
    return 1;
}

static int is_subnormal(const fmt_desc *f, uint64_t raw) { return fmt_decode(f, raw).cls == CLS_SUBNORMAL; }
static int is_zero(const fmt_desc *f, uint64_t raw) { return fmt_decode(f, raw).cls == CLS_ZERO; }
static int is_inf(const fmt_desc *f, uint64_t raw) { return fmt_decode(f, raw).cls == CLS_INF; }
static int is_nan(const fmt_desc *f, uint64_t raw) { return fmt_decode(f, raw).cls == CLS_NAN; }
/* a zero of raw's sign, where the format has one (FNUZ's 0x80 is its NaN: +0) */
static uint64_t zero_like(const fmt_desc *f, uint64_t raw)
{
    uint64_t sign_bit = 1ULL << (f->width - 1);
    return fmt_has_neg_zero(f) ? raw & sign_bit : 0;
}

/* The operands' classes that decide Step 1. */
typedef struct {
    int nan, zero_inf, pos_inf, neg_inf, finite;
} specials;

static specials specials_of(const mmaref_instr *in, uint64_t c, const uint64_t *a, const uint64_t *b,
                            const uint64_t *sa, const uint64_t *sb)
{
    const fmt_desc *fa = fmt_a(in), *fb = fmt_of(in->b), *fc = fmt_of(in->c);
    fp_unpacked uc = fmt_decode(fc, c);
    specials s = {uc.cls == CLS_NAN, 0, uc.cls == CLS_INF && !uc.sign, uc.cls == CLS_INF && uc.sign, 0};
    for (int k = 0; k < in->k; k++) {
        fp_unpacked x = fmt_decode(fa, a[k]), y = fmt_decode(fb, b[k]);
        if (x.cls == CLS_NAN || y.cls == CLS_NAN)
            s.nan = 1;
        else if (x.cls == CLS_INF || y.cls == CLS_INF) {
            if (x.cls == CLS_ZERO || y.cls == CLS_ZERO)
                s.zero_inf = 1;
            else if (x.sign ^ y.sign)
                s.neg_inf = 1;
            else
                s.pos_inf = 1;
        }
    }
    for (int j = 0; in->block_size && j < mmaref_scale_count(in); j++) /* scale: only with blocks */
        s.nan |= is_nan(fmt_of(in->scale), sa[j]) || is_nan(fmt_of(in->scale), sb[j]);
    s.finite = !s.nan && !s.zero_inf && !s.pos_inf && !s.neg_inf;
    return s;
}

/* C = -0 and every product a zero of negative sign (no special anywhere). */
static int all_negative_zero(const mmaref_instr *in, uint64_t c, const uint64_t *a, const uint64_t *b)
{
    const fmt_desc *fa = fmt_a(in), *fb = fmt_of(in->b), *fc = fmt_of(in->c);
    fp_unpacked uc = fmt_decode(fc, c);
    if (uc.cls != CLS_ZERO || !uc.sign)
        return 0;
    for (int k = 0; k < in->k; k++) {
        fp_unpacked x = fmt_decode(fa, a[k]), y = fmt_decode(fb, b[k]);
        if (x.cls >= CLS_INF || y.cls >= CLS_INF || (x.cls != CLS_ZERO && y.cls != CLS_ZERO) || !(x.sign ^ y.sign))
            return 0;
    }
    return 1;
}

/* OUTPUT: D as the buggy unit writes it, from the operands and the model's D. */
static uint64_t broken_output(const mmaref_instr *in, mmaref_rule_id r, uint64_t c, const uint64_t *a,
                              const uint64_t *b, const uint64_t *sa, const uint64_t *sb, uint64_t d)
{
    const fmt_desc *fc = fmt_of(in->c), *fd = fmt_of(in->d);
    uint64_t sign_bit = 1ULL << (fd->width - 1);
    fp_unpacked ud = fmt_decode(fd, d);
    switch (r) {
    case RULE_NAN_CANONICAL:
        /* C's NaN, quieted (IEEE: the top mantissa bit) */
        if (ud.cls == CLS_NAN && is_nan(fc, c))
            return fc->specials == MMAREF_SPECIALS_IEEE ? c | 1ULL << (fc->man_bits - 1) : c;
        return d;
    case RULE_INF_MINUS_INF: {
        specials s = specials_of(in, c, a, b, sa, sb);
        return !s.nan && !s.zero_inf && s.pos_inf && s.neg_inf ? fmt_inf(fd, 1) : d;
    }
    case RULE_SUBNORMAL_RESULT: return ud.cls == CLS_SUBNORMAL ? d & sign_bit : d;
    case RULE_OVERFLOW: {
        if (ud.cls != CLS_INF || !specials_of(in, c, a, b, sa, sb).finite)
            return d;
        for (int k = 0; k < in->k; k++) /* an infinite operand's product is no overflow */
            if (is_inf(fmt_a(in), a[k]) || is_inf(fmt_of(in->b), b[k]))
                return d;
        uint64_t e, m;
        fmt_max_finite(fd, &e, &m);
        return (d & sign_bit) | e << fd->man_bits | (m & ((1ULL << fd->man_bits) - 1));
    }
    case RULE_ZERO_SIGN: return ud.cls == CLS_ZERO && all_negative_zero(in, c, a, b) ? d ^ sign_bit : d;
    default: return d;
    }
}

/* INPUT: the operands as the buggy unit reads them, into the copies; then the model runs on them. */
static void broken_input(const mmaref_instr *in, mmaref_rule_id r, uint64_t *c, uint64_t *a, uint64_t *b,
                         uint64_t *sa, uint64_t *sb)
{
    const fmt_desc *fa = fmt_a(in), *fb = fmt_of(in->b), *fc = fmt_of(in->c);
    const int ns = in->block_size ? mmaref_scale_count(in) : 0;
    switch (r) {
    case RULE_SUBNORMAL_OPERAND:
        for (int k = 0; k < in->k; k++) {
            if (is_subnormal(fa, a[k])) a[k] = zero_like(fa, a[k]);
            if (is_subnormal(fb, b[k])) b[k] = zero_like(fb, b[k]);
        }
        break;
    case RULE_SUBNORMAL_C:
        if (is_subnormal(fc, *c)) *c = zero_like(fc, *c);
        break;
    case RULE_ZERO_TIMES_INF:
        for (int k = 0; k < in->k; k++) {
            if (is_inf(fa, a[k]) && is_zero(fb, b[k])) a[k] = zero_like(fa, a[k]);
            if (is_inf(fb, b[k]) && is_zero(fa, a[k])) b[k] = zero_like(fb, b[k]);
        }
        break;
    case RULE_ORDER: { /* every product one lane later: another chain, other pairs */
        uint64_t a_last = a[in->k - 1], b_last = b[in->k - 1];
        memmove(a + 1, a, sizeof *a * (size_t)(in->k - 1));
        memmove(b + 1, b, sizeof *b * (size_t)(in->k - 1));
        a[0] = a_last, b[0] = b_last;
        break;
    }
    case RULE_SCALE_BIAS: /* 2^(e - 128): the encoding one lower (0 has none lower: left) */
        for (int j = 0; j < ns; j++)
            if (sa[j] > 0 && sa[j] < 0xFF) sa[j] -= 1;
        break;
    case RULE_SCALE_MAX:
        for (int j = 0; j < ns; j++) {
            if (sa[j] == 0xFE) sa[j] = 0xFF;
            if (sb[j] == 0xFE) sb[j] = 0xFF;
        }
        break;
    default: break;
    }
}

uint64_t rule_broken_d(const mmaref_instr *in, mmaref_rule_id r, uint64_t c, const uint64_t *a, const uint64_t *b,
                       const uint64_t *sa, const uint64_t *sb, uint64_t d)
{
    const rule_entry *e = &rules[r];
    if (r == RULE_INF_MINUS_INF && !any_pass(in, not_fda_step1)) /* inside each pass: an infinity one pass
                                                                       * makes meets the next pass's other */
        return trace_run_broken(in, r, c, a, b, sa, sb);
    if (r == RULE_SUBNORMAL_OPERAND && any_pass(in, flushes)) { /* the flushing pass's rule: a record */
        mmaref_instr x;
        broken_record(in, r, &x);
        return schedule_run(&x, c, a, b, sa, sb);
    }
    switch (e->how) {
    case RECORD: {
        mmaref_instr x;
        return broken_record(in, r, &x) ? schedule_run(&x, c, a, b, sa, sb) : d;
    }
    case INPUT: {
        uint64_t c2 = c, a2[MMAREF_MAX_K], b2[MMAREF_MAX_K], sa2[MMAREF_MAX_SCALES], sb2[MMAREF_MAX_SCALES];
        const int ns = in->block_size ? mmaref_scale_count(in) : 0;
        memcpy(a2, a, sizeof *a * (size_t)in->k);
        memcpy(b2, b, sizeof *b * (size_t)in->k);
        if (ns) {
            memcpy(sa2, sa, sizeof *sa * (size_t)ns);
            memcpy(sb2, sb, sizeof *sb * (size_t)ns);
        }
        broken_input(in, r, &c2, a2, b2, sa2, sb2);
        return schedule_run(in, c2, a2, b2, ns ? sa2 : NULL, ns ? sb2 : NULL);
    }
    case OUTPUT: return broken_output(in, r, c, a, b, sa, sb, d);
    default: return trace_run_broken(in, r, c, a, b, sa, sb);
    }
}

mmaref_status mmaref_rule_broken_dot(const mmaref_instr *in, int i, uint64_t c, const uint64_t *a,
                                     const uint64_t *b, const uint64_t *sa, const uint64_t *sb, uint64_t *d,
                                     char *msg, size_t msglen)
{
    if (i < 1 || i >= RULE_COUNT) {
        set_msg(msg, msglen, "rule %d: no such rule (1 .. %d)", i, RULE_COUNT - 1);
        return MMAREF_ERR_ARGUMENT;
    }
    uint64_t model;
    mmaref_status st = mmaref_dot(in, c, a, b, sa, sb, &model, msg, msglen);
    if (st != MMAREF_OK || !d)
        return st == MMAREF_OK ? MMAREF_ERR_ARGUMENT : st;
    *d = mmaref_rule_applies(in, i) ? rule_broken_d(in, (mmaref_rule_id)i, c, a, b, sa, sb, model) : model;
    return MMAREF_OK;
}
