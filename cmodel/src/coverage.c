/* Coverage: the bins a dot-add falls in (mmaref.h, "coverage"), and which bins an instruction can reach.
 * The bins are derived from the instruction's formats and schedule, not listed per instruction: D's
 * classes, the rounding of the last pass, the alignment window F, each lane, each scale slot, each
 * intermediate pass.  A dot-add is classified on its exact terms, summed without rounding in a wide
 * two's-complement accumulator, and on the model's D; where the rounding bins need what the last pass's
 * rounder sees, the earlier passes are run (schedule_run_pass) and, for an FDA-like pass, the bins count
 * only when its alignment dropped no bit (then the rounder sees the exact sum). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "algo.h"
#include "host_fp.h"
#include "format.h"
#include "reach.h"
#include "rules.h"
#include "schedule.h"

/* ---- the bins ---- */

enum {
    /* D */
    B_ZERO_ALL_POS, B_ZERO_ALL_NEG, B_ZERO_MIXED, B_ZERO_CANCEL, B_ZERO_UNDERFLOW, B_NEG_ZERO, B_SUBNORMAL,
    B_MIN_NORMAL, B_MAX_FINITE, B_SATURATE, B_OVERFLOW_INF, B_NAN_A, B_NAN_B, B_NAN_C, B_NAN_SCALE,
    B_NAN_ZERO_INF, B_NAN_INF_INF, B_INF_C, B_INF_PRODUCT,
    /* rounding of the last pass */
    B_EXACT, B_BELOW_HALF, B_TIE, B_ABOVE_HALF, B_CARRY_1, B_CARRY_2, B_CARRY_TIE, B_CARRY_STICKY, B_TIE_WINDOW,
    /* alignment */
    B_ALIGN_PART, B_ALIGN_WHOLE,
    B_GLOBAL
};
enum { L_EMAX_ALONE, L_NAN, L_INF, L_SUBNORMAL, L_POS_ZERO, L_NEG_ZERO, L_CLASSES };
enum { S_MIN, S_MAX, S_NAN, S_CLASSES };

static const struct {
    const char *group, *name;
} global_bins[B_GLOBAL] = {
    [B_ZERO_ALL_POS] = {"D", "+-0, every term +0"},
    [B_ZERO_ALL_NEG] = {"D", "+-0, C = -0 and every product -0"},
    [B_ZERO_MIXED] = {"D", "+-0, zero terms of both signs"},
    [B_ZERO_CANCEL] = {"D", "+-0 by exact cancellation"},
    [B_ZERO_UNDERFLOW] = {"D", "+-0 from a nonzero exact sum (underflow, bits lost)"},
    [B_NEG_ZERO] = {"D", "-0"},
    [B_SUBNORMAL] = {"D", "subnormal"},
    [B_MIN_NORMAL] = {"D", "+-smallest normal"},
    [B_MAX_FINITE] = {"D", "+-largest finite"},
    [B_SATURATE] = {"D", "sum past the largest finite, rounded back to it"},
    [B_OVERFLOW_INF] = {"D", "+-inf from finite terms (overflow)"},
    [B_NAN_A] = {"D", "NaN from a NaN in A"},
    [B_NAN_B] = {"D", "NaN from a NaN in B"},
    [B_NAN_C] = {"D", "NaN from a NaN C"},
    [B_NAN_SCALE] = {"D", "NaN from a NaN scale"},
    [B_NAN_ZERO_INF] = {"D", "NaN from 0 x inf"},
    [B_NAN_INF_INF] = {"D", "NaN from +inf and -inf"},
    [B_INF_C] = {"D", "+-inf from an infinite C"},
    [B_INF_PRODUCT] = {"D", "+-inf from an infinite product"},
    [B_EXACT] = {"rounding", "sum exactly on D's last place"},
    [B_BELOW_HALF] = {"rounding", "below half an ulp (sticky bits only)"},
    [B_TIE] = {"rounding", "a tie (exactly half an ulp)"},
    [B_ABOVE_HALF] = {"rounding", "above half an ulp (round and sticky bits)"},
    [B_CARRY_1] = {"rounding", "sum carries 1 binade above its largest term"},
    [B_CARRY_2] = {"rounding", "sum carries 2 binades above its largest term"},
    [B_CARRY_TIE] = {"rounding", "a tie under a carry"},
    [B_CARRY_STICKY] = {"rounding", "a sticky bit under a carry"},
    [B_TIE_WINDOW] = {"rounding", "a tie broken only by the last bit F keeps"},
    [B_ALIGN_PART] = {"alignment", "a term partly below the F bits kept at e_max"},
    [B_ALIGN_WHOLE] = {"alignment", "a term wholly below the F bits (dropped)"},
};
static const char *const lane_names[L_CLASSES] = {"alone at the largest exponent", "NaN", "inf", "subnormal",
                                                  "+0", "-0"};
static const char *const scale_names[S_CLASSES] = {"smallest positive", "largest finite", "NaN"};

/* Where each group's bins start for an instruction: global, K lanes, 2 S scale slots, the passes whose
 * result is rounded again (all but the last, or all of them when C is added last). */
typedef struct {
    int k, ns, lanes, scales, passes, rules, count;
} bin_layout;

static bin_layout layout_of(const mmaref_instr *in)
{
    bin_layout l = {.k = in->k, .ns = mmaref_scale_count(in)};
    l.lanes = B_GLOBAL;
    l.scales = l.lanes + L_CLASSES * l.k;
    l.passes = l.scales + S_CLASSES * 2 * l.ns;
    l.rules = l.passes + in->passes - 1 + in->c_last;
    l.count = l.rules + RULE_COUNT; /* the vectors the rules were checked on, then rule 1 .. */
    return l;
}

/* The rules' floor: a rule caught by fewer than one vector in RULE_FLOOR_PER of the run (1,000 of a
 * default run of 100,000) is a hole. */
enum { RULE_FLOOR_PER = 100 };
static uint64_t rule_floor(uint64_t vectors) { return (vectors + RULE_FLOOR_PER - 1) / RULE_FLOOR_PER; }
static int below_floor(const bin_layout *l, const uint64_t *hit, int i)
{
    return i > l->rules && hit[i] < rule_floor(hit[l->rules]);
}

/* Bits the last pass's rounder can hold below D's last place, at most (carry: above the largest term):
 * an FDA-like pass keeps F fractional bits under e_max, its sum reaching 1 + log2(terms) bits above
 * e_max (a product's significand is below 4); an FMA is exact. */
static int bits_below_last_place(const reach_ctx *r, int carry)
{
    int window = r->fda_like ? r->F - r->P + 1 + carry : 64;
    int spread = r->range + r->term_bits - r->P; /* a term that far below the largest */
    return window < spread ? window : spread;
}

static int ceil_log2(int n) { return n <= 1 ? 0 : 32 - __builtin_clz((unsigned)(n - 1)); }

/* Why bin b (global) cannot be reached, or NULL; why[] holds a message made here. */
static const char *global_reason(const reach_ctx *r, int b, char *why, size_t cap)
{
    /* a zero product is -0 when the signs differ: -0 x 1, or +0 x -1 (formats without -0) */
    int negz_c = fmt_has_neg_zero(r->fc), negz_p = r->fa->has_sign || r->fb->has_sign;
    int inf_p = has_inf(r->fa) || has_inf(r->fb), d_min_sub = log2_min(r->fd), d_emin = fmt_min_exp(r->fd);
    int under = r->term_min <= d_min_sub - 1 - (r->P - precision(r->fd));
    int signed_zero = r->out.signed_zero, flush = r->last->flush;
    long double sum_max = r->c_max + r->k * r->p_max;
    int carry = ceil_log2(r->terms);
    switch (b) {
    case B_ZERO_ALL_NEG:
        return !negz_c ? "C has no -0" : !negz_p ? "no product can be -0 (A and B are unsigned)" : NULL;
    case B_ZERO_MIXED:
        return !negz_c && !negz_p ? "no term can be -0" : NULL;
    case B_ZERO_UNDERFLOW: /* a sum below D's range, or bits lost to the alignment or to a rounding */
        if (under || (!r->complex && r->range > (r->fda_like ? r->F : r->P) + 1))
            return NULL;
        snprintf(why, cap, "no term lies below half of D's smallest subnormal (the smallest is 2^%d) and none "
                 "is lost to the alignment", r->term_min);
        return why;
    case B_NEG_ZERO:
        if (!signed_zero)
            return "the output gives +0 for every zero result";
        if (r->c_last) /* P + C: P is never -0, and a nonzero exact sum of two values of D never rounds to 0 */
            return "C is added to the passes' result, which is never -0, in one exact-sum IEEE addition";
        /* IEEE operations keep -0 + -0 = -0; a fused sum's exact zero is +0, so there only a negative
         * sum below D's range gives -0 */
        if ((!r->fda_like && negz_c && negz_p && !flush) || under)
            return NULL;
        if (flush) { /* zero inputs are +0: only a negative sum in D's subnormal range, flushed to -0 */
            if (r->p_min <= d_emin)
                return NULL;
            snprintf(why, cap, "the schedule flushes zero inputs to +0 and no product reaches D's smallest "
                     "normal 2^%d (the smallest is 2^%d)", d_emin, r->p_min);
            return why;
        }
        return r->fda_like ? "a fused sum gives +0 for an exact zero, and no sum lies below D's range"
                           : "no route to -0: no -0 terms and no underflow";
    case B_SUBNORMAL:
        if (flush)
            return "the schedule flushes subnormal results";
        if (reach_subnormal_d(r))
            return NULL;
        snprintf(why, cap, "no term lies below D's smallest normal 2^%d: the smallest is 2^%d", d_emin, r->term_min);
        return why;
    case B_MIN_NORMAL:
        if (r->term_min <= d_emin)
            return NULL;
        snprintf(why, cap, "every nonzero sum is at least 2^%d, above D's smallest normal 2^%d", r->term_min,
                 d_emin);
        return why;
    case B_MAX_FINITE:
    case B_SATURATE:
        if (r->c_max >= r->d_max || r->k * r->p_max > r->d_max)
            return NULL;
        snprintf(why, cap, "the largest sum, about 2^%.1Lf, lies below D's largest finite", log2l(sum_max));
        return why;
    case B_OVERFLOW_INF:
        if (reach_overflow_inf(r))
            return NULL;
        snprintf(why, cap, "the largest sum, C's largest plus K largest products, stays below %s",
                 r->out.rounding == MMAREF_RZ ? "the overflow threshold (RZ saturates)"
                                                               : "max + half an ulp");
        return why;
    case B_NAN_A: return has_nan(r->fa) ? NULL : "A has no NaN";
    case B_NAN_B: return has_nan(r->fb) ? NULL : "B has no NaN";
    case B_NAN_C: return has_nan(r->fc) ? NULL : "C has no NaN";
    case B_NAN_SCALE: return !r->fs ? "no block scales" : has_nan(r->fs) ? NULL : "the scale format has no NaN";
    case B_NAN_ZERO_INF:
    case B_INF_PRODUCT: return inf_p ? NULL : "A and B have no infinity";
    case B_NAN_INF_INF: return inf_p && (r->k >= 2 || has_inf(r->fc)) ? NULL : "no two infinite terms";
    case B_INF_C: return has_inf(r->fc) ? NULL : "C has no infinity";
    default: break;
    }
    if (b >= B_EXACT && b <= B_TIE_WINDOW) {
        if (r->complex)
            return "complex D: its parts are classified in the D group";
        if (r->last->algo == MMAREF_ALGO_GPS)
            return "GPS rounds every binary32 operation (the AMD corner set covers them)";
        if (b == B_TIE_WINDOW && !r->fda_like)
            return "IEEE operations: no alignment window F";
        int need = b == B_TIE || b == B_CARRY_TIE ? 1 : 2;
        int with_carry = b == B_CARRY_TIE || b == B_CARRY_STICKY;
        if (b == B_CARRY_2 && r->terms < 3)
            return "the last step adds two terms";
        if ((b == B_BELOW_HALF || b == B_TIE || b == B_ABOVE_HALF || b == B_TIE_WINDOW || with_carry) &&
            bits_below_last_place(r, with_carry ? 1 : carry) < need) {
            snprintf(why, cap, "the rounder holds no bit %s below D's last place (F = %d, %d-bit output)",
                     need == 1 ? "one place" : "two places", r->F, r->P);
            return why;
        }
        return NULL;
    }
    if (b == B_ALIGN_PART || b == B_ALIGN_WHOLE) {
        if (r->complex)
            return "complex operands: the alignment is classified on real instructions";
        if (!r->align_fda)
            return "IEEE operations: no alignment window F";
        if (r->range + (b == B_ALIGN_PART ? r->term_bits : 0) <= r->F + 1) {
            snprintf(why, cap, "terms span at most 2^%d: none can fall below F = %d", r->range, r->F);
            return why;
        }
    }
    return NULL;
}

static int cov_bins(const mmaref_instr *in, mmaref_cov_bin *bins, int cap)
{
    if (!in || mmaref_check_schedule(in, NULL, 0) != MMAREF_OK || (cap > 0 && !bins))
        return -1;
    bin_layout l = layout_of(in);
    reach_ctx r = reach_of(in);
    for (int i = 0; i < l.count && i < cap; i++) {
        mmaref_cov_bin *b = &bins[i];
        const char *why = NULL;
        char msg[sizeof b->unreachable];
        if (i < B_GLOBAL) {
            b->group = global_bins[i].group;
            snprintf(b->name, sizeof b->name, "%s", global_bins[i].name);
            why = global_reason(&r, i, msg, sizeof msg);
        } else if (i < l.scales) {
            int lane = (i - l.lanes) / L_CLASSES, cls = (i - l.lanes) % L_CLASSES;
            b->group = "lane";
            snprintf(b->name, sizeof b->name, "lane %d: %s", lane, lane_names[cls]);
            int negz = r.fa->has_sign || r.fb->has_sign;
            why = cls == L_EMAX_ALONE && r.complex ? "complex operands: e_max is per part"
                  : cls == L_NAN && !has_nan(r.fa) && !has_nan(r.fb)         ? "A and B have no NaN"
                  : cls == L_INF && !has_inf(r.fa) && !has_inf(r.fb)         ? "A and B have no infinity"
                  : cls == L_SUBNORMAL && !has_subnormal(r.fa) && !has_subnormal(r.fb) ? "A and B have no subnormals"
                  : cls == L_NEG_ZERO && !negz                                ? "A and B are unsigned"
                                                                              : NULL;
        } else if (i < l.passes) {
            int slot = (i - l.scales) / S_CLASSES, cls = (i - l.scales) % S_CLASSES;
            b->group = "scale";
            snprintf(b->name, sizeof b->name, "%s[%d]: %s", slot < l.ns ? "sa" : "sb", slot % l.ns, scale_names[cls]);
            why = cls == S_NAN && !has_nan(r.fs) ? "the scale format has no NaN" : NULL;
        } else if (i >= l.rules) {
            int rule = i - l.rules;
            b->group = "rule";
            if (rule == 0)
                snprintf(b->name, sizeof b->name, "vectors checked (each rule's floor: 1 in %d)", RULE_FLOOR_PER);
            else
                snprintf(b->name, sizeof b->name, "%s", mmaref_rule_at(rule)->name);
            why = rule && !rule_applies(in, (mmaref_rule_id)rule) ? "no unit breaking it differs here" : NULL;
        } else {
            int p = i - l.passes;
            b->group = "pass";
            snprintf(b->name, sizeof b->name, "pass %d: result rounded (inexact)", p);
            const mmaref_pass *ps = &in->pass[p];
            why = ps->algo == MMAREF_ALGO_FDA && ps->frac_bits <= out_table[ps->out].man_bits - 2
                      ? "the pass keeps no bit below its output's last place"
                      : NULL;
        }
        snprintf(b->unreachable, sizeof b->unreachable, "%s", why ? why : "");
    }
    return l.count;
}

/* In the default floating-point environment: the reach of each bin is computed in long double. */
int mmaref_cov_bins(const mmaref_instr *in, mmaref_cov_bin *bins, int cap)
{
    host_fp_all_env env;
    host_fp_all_default(&env);
    int r = cov_bins(in, bins, cap);
    host_fp_all_restore(&env);
    return r;
}

/* ---- exact sums: a wide two's-complement accumulator ---- */

/* Bit 0 weighs 2^ACC_LSB: every product of two f64 (2^-2148 and up) and every sum of K of them
 * (below 2^2055) fits. */
enum { ACC_LIMBS = 72, ACC_LSB = -2400 };
typedef struct {
    uint64_t w[ACC_LIMBS];
} acc_t;

/* A term: (-1)^sign mag 2^lsb, mag != 0 for a nonzero term. */
typedef struct {
    int sign, lsb;
    u128 mag;
} term_t;

static void acc_add(acc_t *x, term_t t)
{
    if (!t.mag)
        return;
    int sh = t.lsb - ACC_LSB, limb = sh / 64, bit = sh % 64;
    uint64_t part[3] = {(uint64_t)(t.mag << bit), (uint64_t)(t.mag >> (64 - bit)), 0};
    if (bit == 0)
        part[1] = (uint64_t)(t.mag >> 64);
    else
        part[2] = (uint64_t)((t.mag >> 64) >> (64 - bit));
    unsigned carry = 0;
    for (int i = limb; i < ACC_LIMBS; i++) {
        uint64_t p = i - limb < 3 ? part[i - limb] : 0, w = x->w[i], r;
        if (!t.sign) {
            r = w + p + carry;
            carry = r < w || (carry && r == w);
        } else {
            r = w - p - carry;
            carry = w < p || (carry && w == p);
        }
        x->w[i] = r;
        if (i - limb >= 2 && !carry)
            break;
    }
}

static int acc_negative(const acc_t *x) { return (int)(x->w[ACC_LIMBS - 1] >> 63); }
static int acc_zero(const acc_t *x)
{
    for (int i = 0; i < ACC_LIMBS; i++)
        if (x->w[i])
            return 0;
    return 1;
}
static void acc_abs(acc_t *x)
{
    if (!acc_negative(x))
        return;
    unsigned carry = 1;
    for (int i = 0; i < ACC_LIMBS; i++) {
        x->w[i] = ~x->w[i] + carry;
        carry = carry && x->w[i] == 0;
    }
}
/* The leading one's bit index of a nonzero magnitude */
static int acc_msb(const acc_t *x)
{
    for (int i = ACC_LIMBS - 1; i >= 0; i--)
        if (x->w[i])
            return 64 * i + 63 - __builtin_clzll(x->w[i]);
    return -1;
}
static int acc_bit(const acc_t *x, int i) { return i >= 0 && (int)(x->w[i / 64] >> (i % 64) & 1); }
/* Any bit set below bit index i? */
static int acc_any_below(const acc_t *x, int i)
{
    if (i <= 0)
        return 0;
    for (int j = 0; j < i / 64; j++)
        if (x->w[j])
            return 1;
    return i % 64 && (x->w[i / 64] & ((1ULL << (i % 64)) - 1));
}

static int msb_u128(u128 m) { return msb128(m); }
static int ctz_u128(u128 m)
{
    uint64_t lo = (uint64_t)m;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(m >> 64));
}

/* ---- one dot-add's terms ---- */

typedef struct {
    fp_unpacked a[MMAREF_MAX_K], b[MMAREF_MAX_K], sa[MMAREF_MAX_SCALES], sb[MMAREF_MAX_SCALES], c;
    term_t p[MMAREF_MAX_K]; /* the products, scaled */
    int e[MMAREF_MAX_K];    /* each product's exponent as FDA Step 2 forms it (e_a + e_b + scales) */
    int special;            /* an inf or NaN among the operands or scales */
    const fmt_desc *fa, *fb; /* the formats of a[] and b[] */
} terms_t;

/* An operand's exponent once converted to f16 (a pass with ab_f16): the exponent of its leading bit, f16's
 * least normal exponent for an f16 subnormal or zero (algo.h's convention, in f16). */
static int f16_exp(fp_unpacked u, const fmt_desc *f)
{
    int emin = fmt_min_exp(fmt_of(MMAREF_F16));
    if (u.cls == CLS_ZERO)
        return ZERO_OPERAND_EXP;
    int e = u.exp - f->man_bits + (63 - __builtin_clzll(u.sig));
    return e < emin ? emin : e;
}

static term_t term_of(fp_unpacked u, const fmt_desc *f)
{
    term_t t = {u.sign, u.exp - f->man_bits, u.cls == CLS_ZERO ? 0 : u.sig};
    return t;
}

/* Product k: sig_a sig_b (sig_sa sig_sb) at the sum of the exponents. */
static term_t product(const mmaref_instr *in, const terms_t *x, const reach_ctx *r, int k)
{
    term_t t = {x->a[k].sign ^ x->b[k].sign, x->a[k].exp - r->fa->man_bits + x->b[k].exp - r->fb->man_bits,
                (u128)x->a[k].sig * x->b[k].sig};
    if (x->a[k].cls == CLS_ZERO || x->b[k].cls == CLS_ZERO)
        t.mag = 0;
    if (r->ns) {
        int j = k / in->block_size;
        t.mag *= (u128)x->sa[j].sig * x->sb[j].sig;
        t.lsb += x->sa[j].exp - r->fs->man_bits + x->sb[j].exp - r->fs->man_bits;
    }
    return t;
}

static void decode_all(const mmaref_instr *in, const reach_ctx *r, uint64_t c, const uint64_t *a, const uint64_t *b,
                       const uint64_t *sa, const uint64_t *sb, terms_t *x)
{
    x->special = 0;
    x->fa = r->fa, x->fb = r->fb;
    for (int j = 0; j < r->ns; j++) {
        x->sa[j] = fmt_decode(r->fs, sa[j]);
        x->sb[j] = fmt_decode(r->fs, sb[j]);
        x->special |= x->sa[j].cls == CLS_NAN || x->sb[j].cls == CLS_NAN;
    }
    for (int k = 0; k < r->k; k++) {
        x->a[k] = fmt_decode(r->fa, a[k]);
        x->b[k] = fmt_decode(r->fb, b[k]);
        x->special |= x->a[k].cls >= CLS_INF || x->b[k].cls >= CLS_INF;
        x->p[k] = product(in, x, r, k);
        x->e[k] = operand_exp(NULL, x->a[k]) + operand_exp(NULL, x->b[k]);
        if (r->ns) {
            int j = k / in->block_size;
            x->e[k] += operand_exp(NULL, x->sa[j]) + operand_exp(NULL, x->sb[j]);
        }
    }
    x->c = fmt_decode(r->fc, c);
    x->special |= x->c.cls >= CLS_INF;
}

static void hit_bin(uint64_t *hit, int b, int *n)
{
    hit[b]++;
    (*n)++;
}

/* The sum of the terms [first, first + count) and c: classified against an output of precision P and
 * format fd.  Returns 0 when the sum is zero. */
typedef struct {
    acc_t s;
    int zero, msb, top_term; /* msb of |sum| and of the largest term (bit indices) */
} sum_t;

static void sum_terms(const term_t *p, const mmaref_pass *ps, int first, int count, const term_t *c, sum_t *out)
{
    memset(&out->s, 0, sizeof out->s);
    out->top_term = -1;
    for (int j = first; j < first + count; j++) {
        int k = ps ? mmaref_pass_k(ps, j) : j; /* product j of pass ps, or term j */
        acc_add(&out->s, p[k]);
        if (p[k].mag && p[k].lsb - ACC_LSB + msb_u128(p[k].mag) > out->top_term)
            out->top_term = p[k].lsb - ACC_LSB + msb_u128(p[k].mag);
    }
    if (c && c->mag) {
        acc_add(&out->s, *c);
        if (c->lsb - ACC_LSB + msb_u128(c->mag) > out->top_term)
            out->top_term = c->lsb - ACC_LSB + msb_u128(c->mag);
    }
    out->zero = acc_zero(&out->s);
    acc_abs(&out->s);
    out->msb = out->zero ? -1 : acc_msb(&out->s);
}

/* Where |sum| lies against the last place of a P-bit output of format fd: 0 exact, 1 below half,
 * 2 tie, 3 above half. */
static int rounding_case(const sum_t *s, const fmt_desc *fd, int P)
{
    int e = s->msb + ACC_LSB, emin = fmt_min_exp(fd);
    int q = (e < emin ? emin : e) - P - ACC_LSB; /* bit index of the last place kept */
    if (!acc_any_below(&s->s, q))
        return 0;
    int round = acc_bit(&s->s, q - 1), sticky = acc_any_below(&s->s, q - 1);
    return !round ? 1 : sticky ? 3 : 2;
}

/* Above half an ulp only by the bit of weight 2^window: the round bit set, nothing else below it. */
static int tie_broken_at(const sum_t *s, const fmt_desc *fd, int P, int window)
{
    int e = s->msb + ACC_LSB, emin = fmt_min_exp(fd), q = (e < emin ? emin : e) - P - ACC_LSB;
    int w = window - ACC_LSB;
    if (w < 0 || w >= q - 1 || !acc_bit(&s->s, w))
        return 0;
    acc_t rest = s->s;
    rest.w[w / 64] &= ~(1ULL << (w % 64));
    return !acc_any_below(&rest, q - 1);
}

/* Did FDA Step 3 drop bits of any term, part of one (*part) or all of one (*whole)?  e_max as Step 2
 * forms it, over the pass's products and its C (in exponent `c_exp`).  Returns the weight (exponent) of
 * the last bit kept, e_max - F. */
static int alignment_drops(const terms_t *x, const mmaref_pass *p, const term_t *c, int c_exp, int *part,
                           int *whole)
{
    int e_max = c_exp;
    for (int j = 0; j < p->k_count; j++) {
        int k = mmaref_pass_k(p, j);
        int e = p->zero_term_exp && !x->p[k].mag ? p->zero_term_exp /* algo.h, product_term_exp */
                : p->ab_f16 ? f16_exp(x->a[k], x->fa) + f16_exp(x->b[k], x->fb)
                            : x->e[k];
        e_max = e > e_max ? e : e_max;
    }
    int window = e_max - p->frac_bits; /* weight of the last bit kept */
    *part = *whole = 0;
    for (int j = 0; j <= p->k_count; j++) {
        const term_t *t = j < p->k_count ? &x->p[mmaref_pass_k(p, j)] : c;
        if (!t->mag)
            continue;
        int lo = t->lsb + ctz_u128(t->mag), hi = t->lsb + msb_u128(t->mag);
        *whole |= hi < window;
        *part |= lo < window && hi >= window;
    }
    return window;
}

/* Is the exact |sum| above D's largest finite (P + 1 ones from 2^e_top down, then anything)? */
static int above_max(const sum_t *s, const reach_ctx *r)
{
    int top = (int)floorl(log2l(r->d_max)) - ACC_LSB;
    if (s->zero || s->msb != top)
        return !s->zero && s->msb > top;
    for (int i = top - r->P; i <= top; i++)
        if (!acc_bit(&s->s, i))
            return 0;
    return acc_any_below(&s->s, top - r->P);
}

static int is_min_normal(const fmt_desc *f, uint64_t raw)
{
    fp_unpacked u = fmt_decode(f, raw);
    return u.cls == CLS_NORMAL && u.exp == fmt_min_exp(f) && u.sig == 1ULL << f->man_bits;
}

/* D's class bins of one real part: terms p[0..n-1] and c, result d in format fd. */
static void d_classes(const reach_ctx *r, const term_t *p, int n, const term_t *c, const fp_unpacked *zc,
                      const int *pzero_sign, uint64_t d, uint64_t *hit, int *nh)
{
    fp_unpacked u = fmt_decode(r->fd, d);
    sum_t s;
    sum_terms(p, NULL, 0, n, c, &s);
    if (u.cls == CLS_ZERO) {
        int all_zero = !c->mag, all_neg = zc->sign, all_pos = !zc->sign;
        for (int k = 0; k < n; k++) {
            all_zero &= !p[k].mag;
            all_neg &= pzero_sign[k];
            all_pos &= !pzero_sign[k];
        }
        hit_bin(hit, !all_zero ? (s.zero ? B_ZERO_CANCEL : B_ZERO_UNDERFLOW)
                     : all_pos ? B_ZERO_ALL_POS
                     : all_neg ? B_ZERO_ALL_NEG
                               : B_ZERO_MIXED, nh);
        if (u.sign)
            hit_bin(hit, B_NEG_ZERO, nh);
        return;
    }
    if (u.cls == CLS_SUBNORMAL)
        hit_bin(hit, B_SUBNORMAL, nh);
    if (is_min_normal(r->fd, d))
        hit_bin(hit, B_MIN_NORMAL, nh);
    if (u.cls == CLS_NORMAL || u.cls == CLS_INF) {
        long double v = u.cls == CLS_INF ? INFINITY : ldexpl((long double)u.sig, u.exp - r->fd->man_bits);
        if (v == r->d_max)
            hit_bin(hit, B_MAX_FINITE, nh);
        if (v == r->d_max && above_max(&s, r))
            hit_bin(hit, B_SATURATE, nh);
        if (u.cls == CLS_INF)
            hit_bin(hit, B_OVERFLOW_INF, nh);
    }
}

/* NaN and inf D: the sources among the operands. */
static void special_classes(const mmaref_instr *in, const reach_ctx *r, const terms_t *x, uint64_t d, uint64_t *hit,
                            int *nh)
{
    (void)in;
    int nan_d = 0, inf_d = 0;
    for (int i = 0; i < mmaref_format_parts(in->d); i++) {
        fp_unpacked u = fmt_decode(r->fd, fmt_part_bits(fmt_of(in->d), d, i));
        nan_d |= u.cls == CLS_NAN;
        inf_d |= u.cls == CLS_INF;
    }
    int nan_a = 0, nan_b = 0, zero_inf = 0, pos = 0, neg = 0, inf_p = 0, nan_s = 0;
    for (int k = 0; k < r->k; k++) {
        fp_unpacked p = x->a[k], q = x->b[k];
        nan_a |= p.cls == CLS_NAN;
        nan_b |= q.cls == CLS_NAN;
        if (p.cls == CLS_INF || q.cls == CLS_INF) {
            if (p.cls == CLS_ZERO || q.cls == CLS_ZERO)
                zero_inf = 1;
            else if (p.cls != CLS_NAN && q.cls != CLS_NAN) {
                inf_p = 1;
                *(p.sign ^ q.sign ? &neg : &pos) = 1;
            }
        }
    }
    for (int j = 0; j < r->ns; j++)
        nan_s |= x->sa[j].cls == CLS_NAN || x->sb[j].cls == CLS_NAN;
    if (x->c.cls == CLS_INF)
        *(x->c.sign ? &neg : &pos) = 1;
    if (nan_d) {
        if (nan_a) hit_bin(hit, B_NAN_A, nh);
        if (nan_b) hit_bin(hit, B_NAN_B, nh);
        if (x->c.cls == CLS_NAN) hit_bin(hit, B_NAN_C, nh);
        if (nan_s) hit_bin(hit, B_NAN_SCALE, nh);
        if (zero_inf) hit_bin(hit, B_NAN_ZERO_INF, nh);
        if (pos && neg && !nan_a && !nan_b && !nan_s && x->c.cls != CLS_NAN && !zero_inf)
            hit_bin(hit, B_NAN_INF_INF, nh);
    } else if (inf_d) {
        if (x->c.cls == CLS_INF) hit_bin(hit, B_INF_C, nh);
        if (inf_p) hit_bin(hit, B_INF_PRODUCT, nh);
    }
}

static void lane_classes(const bin_layout *l, const reach_ctx *r, const terms_t *x, const term_t *c, uint64_t *hit,
                         int *nh)
{
    int top = c->mag ? c->lsb + msb_u128(c->mag) : -100000, second = top, who = -1;
    for (int k = 0; k < r->k; k++) {
        fp_unpacked p = x->a[k], q = x->b[k];
        int base = l->lanes + L_CLASSES * k;
        if (p.cls == CLS_NAN || q.cls == CLS_NAN)
            hit_bin(hit, base + L_NAN, nh);
        else if (p.cls == CLS_INF || q.cls == CLS_INF)
            hit_bin(hit, base + L_INF, nh);
        if (p.cls == CLS_SUBNORMAL || q.cls == CLS_SUBNORMAL)
            hit_bin(hit, base + L_SUBNORMAL, nh);
        if ((p.cls == CLS_ZERO || q.cls == CLS_ZERO) && p.cls < CLS_INF && q.cls < CLS_INF)
            hit_bin(hit, base + (p.sign ^ q.sign ? L_NEG_ZERO : L_POS_ZERO), nh);
        if (x->p[k].mag && p.cls < CLS_INF && q.cls < CLS_INF) {
            int e = x->p[k].lsb + msb_u128(x->p[k].mag);
            if (e > top) {
                second = top;
                top = e;
                who = k;
            } else if (e > second) {
                second = e;
            }
        }
    }
    if (!r->complex && !x->special && who >= 0 && top > second)
        hit_bin(hit, l->lanes + L_CLASSES * who + L_EMAX_ALONE, nh);
}

static void scale_classes(const bin_layout *l, const reach_ctx *r, const uint64_t *sa, const uint64_t *sb,
                          uint64_t *hit, int *nh)
{
    uint64_t e, m, min = r->fs ? (r->fs->specials == MMAREF_SPECIALS_E8M0 ? 0 : 1) : 0;
    if (!r->ns)
        return;
    fmt_max_finite(r->fs, &e, &m);
    uint64_t max = (e << r->fs->man_bits | m) & ~r->fs->ignored;
    for (int side = 0; side < 2; side++)
        for (int j = 0; j < r->ns; j++) {
            uint64_t raw = (side ? sb : sa)[j] & ~r->fs->ignored;
            int base = l->scales + S_CLASSES * (side * r->ns + j);
            if (fmt_decode(r->fs, raw).cls == CLS_NAN)
                hit_bin(hit, base + S_NAN, nh);
            else if (raw == min)
                hit_bin(hit, base + S_MIN, nh);
            else if (raw == max)
                hit_bin(hit, base + S_MAX, nh);
        }
}

static void final_rounding(const sum_t *sp, const fmt_desc *fo, int P, int has_window, int window, uint64_t *hit,
                           int *nh);

/* The rounding bins of pass i (the last: D's; an earlier one, or every one when C is added last: its
 * inexact bin), on its exact input. */
static void pass_rounding(const mmaref_instr *in, const bin_layout *l, const terms_t *x, int i,
                          uint64_t c_in, const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb,
                          uint64_t *hit, int *nh)
{
    const mmaref_pass *p = &in->pass[i];
    const fmt_desc *fo = fmt_of(out_table[p->out].format), *fc = fmt_of(schedule_pass_c_format(in, i));
    int P = out_table[p->out].man_bits;
    if (p->algo == MMAREF_ALGO_GPS)
        return;
    fp_unpacked uc = fmt_decode(fc, c_in);
    if (uc.cls >= CLS_INF)
        return;
    if (fc != fo && is_fda_like(p->algo))
        uc = fmt_widen(fc, fo, uc);
    term_t c = term_of(uc, fc != fo && is_fda_like(p->algo) ? fo : fc);
    sum_t s;
    int window = 0; /* FDA-like: the weight of the last bit the alignment keeps */
    if (p->algo == MMAREF_ALGO_SFMA) { /* the last FMA: its product plus the chain before it, exactly */
        mmaref_pass prefix = *p;
        prefix.k_count--;
        if (prefix.k_count > 0) {
            uint64_t before = schedule_run_pass(in, &prefix, schedule_pass_c_format(in, i), c_in, a, b, sa, sb);
            fp_unpacked ub = fmt_decode(fo, before);
            if (ub.cls >= CLS_INF)
                return;
            c = term_of(ub, fo);
        }
        sum_terms(x->p, p, p->k_count - 1, 1, &c, &s);
    } else {
        int part, whole;
        window = alignment_drops(x, p, &c, c_term_exp(NULL, p, uc), &part, &whole);
        if (i == in->passes - 1) { /* the last pass's alignment (C added last or not) */
            if (part) hit_bin(hit, B_ALIGN_PART, nh);
            if (whole) hit_bin(hit, B_ALIGN_WHOLE, nh);
        }
        if (part || whole)
            return;
        sum_terms(x->p, p, 0, p->k_count, &c, &s);
    }
    if (s.zero)
        return;
    int rc = rounding_case(&s, fo, P);
    if (i < in->passes - 1 || in->c_last) { /* a result rounded again: inexact or not */
        if (rc)
            hit_bin(hit, l->passes + i, nh);
        return;
    }
    final_rounding(&s, fo, P, is_fda_like(p->algo), window, hit, nh);
}

/* The rounding bins of D's rounding, on its exact input s: P bits of format fo; with a window (an FDA-like
 * pass), the weight of the last bit it keeps (none: an IEEE addition). */
static void final_rounding(const sum_t *sp, const fmt_desc *fo, int P, int has_window, int window, uint64_t *hit,
                           int *nh)
{
    const sum_t s = *sp;
    int rc = rounding_case(&s, fo, P), carry = s.msb - s.top_term;
    static const int round_bins[4] = {B_EXACT, B_BELOW_HALF, B_TIE, B_ABOVE_HALF};
    hit_bin(hit, round_bins[rc], nh);
    if (carry >= 1)
        hit_bin(hit, carry == 1 ? B_CARRY_1 : B_CARRY_2, nh);
    if (carry >= 1 && rc == 2)
        hit_bin(hit, B_CARRY_TIE, nh);
    if (carry >= 1 && (rc == 1 || rc == 3))
        hit_bin(hit, B_CARRY_STICKY, nh);
    if (rc == 3 && has_window && tie_broken_at(&s, fo, P, window))
        hit_bin(hit, B_TIE_WINDOW, nh);
}

/* A complex dot-add's D classes, part by part: re = sum(ar br - ai bi) + cr, im = sum(ar bi + ai br) + ci. */
static void complex_classes(const mmaref_instr *in, const reach_ctx *r, uint64_t c, const uint64_t *a,
                            const uint64_t *b, uint64_t d, uint64_t *hit, int *nh)
{
    const fmt_desc *fa = fmt_of(in->a), *fb = fmt_of(in->b), *fc = fmt_of(in->c), *fd = fmt_of(in->d);
    for (int part = 0; part < 2; part++) {
        term_t p[2 * MMAREF_MAX_K];
        int zsign[2 * MMAREF_MAX_K];
        for (int k = 0; k < r->k; k++)
            for (int h = 0; h < 2; h++) { /* re: ar br, -(ai bi); im: ar bi, ai br */
                int ia = h, ib = part ? 1 - h : h;
                fp_unpacked x = fmt_decode(r->fa, fmt_part_bits(fa, a[k], ia));
                fp_unpacked y = fmt_decode(r->fb, fmt_part_bits(fb, b[k], ib));
                term_t t = {x.sign ^ y.sign ^ (!part && h), x.exp - r->fa->man_bits + y.exp - r->fb->man_bits,
                            x.cls == CLS_ZERO || y.cls == CLS_ZERO ? 0 : (u128)x.sig * y.sig};
                p[2 * k + h] = t;
                zsign[2 * k + h] = t.sign;
            }
        fp_unpacked uc = fmt_decode(r->fc, fmt_part_bits(fc, c, part));
        term_t tc = term_of(uc, r->fc);
        d_classes(r, p, 2 * r->k, &tc, &uc, zsign, fmt_part_bits(fd, d, part), hit, nh);
    }
}

static int cov_classify(const mmaref_instr *in, uint64_t c, const uint64_t *a, const uint64_t *b,
                        const uint64_t *sa, const uint64_t *sb, uint64_t d, uint64_t *hit)
{
    if (!in || !a || !b || !hit || mmaref_check_schedule(in, NULL, 0) != MMAREF_OK ||
        (mmaref_scale_count(in) && (!sa || !sb)))
        return -1;
    bin_layout l = layout_of(in);
    reach_ctx r = reach_of(in);
    terms_t x;
    int nh = 0;
    /* the rules: a vector counts for each one whose planted bug it catches (rules.c) */
    hit_bin(hit, l.rules, &nh);
    for (int rule = 1; rule < RULE_COUNT; rule++)
        if (rule_applies(in, (mmaref_rule_id)rule) && rule_broken_d(in, (mmaref_rule_id)rule, c, a, b, sa, sb, d) != d)
            hit_bin(hit, l.rules + rule, &nh);
    decode_all(in, &r, c, a, b, sa, sb, &x);
    if (r.complex) {
        for (int k = 0; k < r.k; k++) /* lanes: a part of a or b NaN, inf, subnormal */
            for (int h = 0; h < 2; h++) {
                fp_unpacked p = fmt_decode(r.fa, fmt_part_bits(fmt_of(in->a), a[k], h));
                fp_unpacked q = fmt_decode(r.fb, fmt_part_bits(fmt_of(in->b), b[k], h));
                x.a[k] = p.cls >= x.a[k].cls ? p : x.a[k];
                x.b[k] = q.cls >= x.b[k].cls ? q : x.b[k];
            }
        term_t none = {0, 0, 0};
        lane_classes(&l, &r, &x, &none, hit, &nh);
        special_classes(in, &r, &x, d, hit, &nh);
        complex_classes(in, &r, c, a, b, d, hit, &nh);
        return nh;
    }
    term_t tc = term_of(x.c, r.fc);
    lane_classes(&l, &r, &x, &tc, hit, &nh);
    scale_classes(&l, &r, sa, sb, hit, &nh);
    if (x.special) {
        special_classes(in, &r, &x, d, hit, &nh);
        return nh;
    }
    int zsign[MMAREF_MAX_K];
    for (int k = 0; k < r.k; k++)
        zsign[k] = x.p[k].sign;
    d_classes(&r, x.p, r.k, &tc, &x.c, zsign, d, hit, &nh);
    uint64_t c_in = in->c_last ? 0 : c; /* C added last: the passes start from +0 */
    for (int i = 0; i < in->passes; i++) {
        pass_rounding(in, &l, &x, i, c_in, a, b, sa, sb, hit, &nh);
        if (i < in->passes - 1 || in->c_last)
            c_in = schedule_run_pass(in, &in->pass[i], schedule_pass_c_format(in, i), c_in, a, b, sa, sb);
    }
    if (in->c_last) { /* D = P + C: the rounding bins of that addition, on its exact sum */
        fp_unpacked up = fmt_decode(r.fd, c_in);
        if (up.cls < CLS_INF) {
            term_t tp = term_of(up, r.fd);
            sum_t s;
            sum_terms(&tp, NULL, 0, 1, &tc, &s);
            if (!s.zero)
                final_rounding(&s, r.fd, r.P, 0, 0, hit, &nh);
        }
    }
    return nh;
}

/* In the default floating-point environment: the reach of each bin is computed in long double. */
int mmaref_cov_classify(const mmaref_instr *in, uint64_t c, const uint64_t *a, const uint64_t *b,
                        const uint64_t *sa, const uint64_t *sb, uint64_t d, uint64_t *hit)
{
    host_fp_all_env env;
    host_fp_all_default(&env);
    int r = cov_classify(in, c, a, b, sa, sb, d, hit);
    host_fp_all_restore(&env);
    return r;
}

/* ---- the report ---- */

/* The name of a lane or scale bin without its index ("lane 3: NaN" -> "NaN"). */
static const char *class_part(const char *name)
{
    const char *colon = strchr(name, ':');
    return colon ? colon + 2 : name;
}

static int cov_print(FILE *out, const mmaref_instr *in, const uint64_t *hit, const uint64_t *mismatch)
{
    static const uint64_t none[MMAREF_COV_MAX_BINS];
    mmaref_cov_bin bins[MMAREF_COV_MAX_BINS];
    int n = cov_bins(in, bins, MMAREF_COV_MAX_BINS);
    if (n < 0 || !out || !hit)
        return -1;
    if (!mismatch)
        mismatch = none;
    bin_layout l = layout_of(in);
    int reachable = 0, holes = 0;
    for (int i = 0; i < n; i++)
        reachable += !bins[i].unreachable[0];
    fprintf(out, "  %-10s %-56s %10s %10s\n", "group", "bin", "vectors", "mismatches");
    for (int i = 0; i < n; i++) {
        const mmaref_cov_bin *b = &bins[i];
        int grouped = i >= l.lanes && i < l.passes; /* lanes and scale slots: one line per class */
        if (!grouped) {
            if (b->unreachable[0])
                fprintf(out, "  %-10s %-56s %21s  %s\n", b->group, b->name, "unreachable:", b->unreachable);
            else if (i > l.rules)
                fprintf(out, "  %-10s %-56s %10llu %10llu  floor %llu%s\n", b->group, b->name,
                        (unsigned long long)hit[i], (unsigned long long)mismatch[i],
                        (unsigned long long)rule_floor(hit[l.rules]),
                        below_floor(&l, hit, i) ? "  <- HOLE" : "");
            else
                fprintf(out, "  %-10s %-56s %10llu %10llu%s\n", b->group, b->name, (unsigned long long)hit[i],
                        (unsigned long long)mismatch[i], hit[i] ? "" : "  <- HOLE");
            continue;
        }
        int first = i < l.scales ? l.lanes : l.scales, classes = i < l.scales ? L_CLASSES : S_CLASSES;
        if ((i - first) >= classes)
            continue; /* summarized with the first slot */
        int slots = 0, slots_hit = 0;
        uint64_t fewest = UINT64_MAX, total = 0, wrong = 0;
        for (int j = i; j < (i < l.scales ? l.scales : l.passes); j += classes) {
            slots++;
            slots_hit += hit[j] != 0;
            fewest = hit[j] < fewest ? hit[j] : fewest;
            total += hit[j];
            wrong += mismatch[j];
        }
        char name[96];
        snprintf(name, sizeof name, "%s %s", i < l.scales ? "every lane:" : "every slot:", class_part(b->name));
        if (b->unreachable[0])
            fprintf(out, "  %-10s %-56s %21s  %s\n", b->group, name, "unreachable:", b->unreachable);
        else
            fprintf(out, "  %-10s %-56s %10llu %10llu  %d of %d hit, the fewest %llu%s\n", b->group, name,
                    (unsigned long long)total, (unsigned long long)wrong, slots_hit, slots,
                    (unsigned long long)fewest, slots_hit < slots ? "  <- HOLE" : "");
    }
    int rules = 0, low = 0;
    for (int i = 0; i < n; i++) {
        if (bins[i].unreachable[0])
            continue;
        int rule = i > l.rules;
        rules += rule;
        if (rule && below_floor(&l, hit, i)) {
            fprintf(out, "COVERAGE HOLE: %s: %s -- %llu vectors catch it, below its floor %llu (1 in %d of the run)\n",
                    bins[i].group, bins[i].name, (unsigned long long)hit[i],
                    (unsigned long long)rule_floor(hit[l.rules]), RULE_FLOOR_PER);
            low++;
            holes++;
        } else if (!hit[i]) {
            fprintf(out, "COVERAGE HOLE: %s: %s -- 0 vectors\n", bins[i].group, bins[i].name);
            holes++;
        }
    }
    fprintf(out, "rules at their floor: %d of %d (1 in %d of the run catches each)\n", rules - low,
            rules, RULE_FLOOR_PER);
    fprintf(out, "coverage %s: %d of %d reachable bins hit, %d unreachable (reason given)\n",
            holes ? "NOT closed" : "closed", reachable - holes, reachable, n - reachable);
    return holes;
}

/* In the default floating-point environment: the reach of each bin is computed in long double. */
int mmaref_cov_print(FILE *out, const mmaref_instr *in, const uint64_t *hit, const uint64_t *mismatch)
{
    host_fp_all_env env;
    host_fp_all_default(&env);
    int r = cov_print(out, in, hit, mismatch);
    host_fp_all_restore(&env);
    return r;
}

/* Every reachable bin on a line of its own, lanes and scale slots too (for tools that merge runs: a class
 * summed over the lanes cannot say which lane a hole is in). */
static int cov_print_bins(FILE *out, const mmaref_instr *in, const uint64_t *hit, const uint64_t *mismatch)
{
    mmaref_cov_bin bins[MMAREF_COV_MAX_BINS];
    int n = cov_bins(in, bins, MMAREF_COV_MAX_BINS);
    if (n < 0 || !out || !hit)
        return -1;
    int lines = 0;
    for (int i = 0; i < n; i++)
        if (!bins[i].unreachable[0]) {
            fprintf(out, "COVERAGE BIN %llu %llu %s: %s\n", (unsigned long long)hit[i],
                    (unsigned long long)(mismatch ? mismatch[i] : 0), bins[i].group, bins[i].name);
            lines++;
        }
    return lines;
}

int mmaref_cov_print_bins(FILE *out, const mmaref_instr *in, const uint64_t *hit, const uint64_t *mismatch)
{
    host_fp_all_env env;
    host_fp_all_default(&env);
    int r = cov_print_bins(out, in, hit, mismatch);
    host_fp_all_restore(&env);
    return r;
}
