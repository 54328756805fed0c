/* Coverage classes of the vectors a bench drove (make verify's summary): what each dot-add exercises in
 * the arithmetic, beyond the stimulus kind it was drawn as.  Each vector is decoded through the public
 * API (mmaref_format_to_double: exact; a product of two values of up to 24 significant bits, times
 * scales, is exact in a double) and its model D computed with mmaref_dot.  Classes (a vector may be in
 * several; each is also counted among the mismatches when the unit got the vector wrong):
 *   special a/b      A[i] or B[i] is NaN or infinite (also per lane i);  special c: C is
 *   subnormal in     an A, B or C operand is subnormal;  subnormal d: the model's D is
 *   shift > F        the largest and the smallest nonzero finite terms (products and C) are more than F
 *                    binades apart (F = pass[0].frac_bits: the alignment truncates below it; SFMA and GPS
 *                    have no F)
 *   cancellation     terms are nonzero and finite, and D is zero or at least 4 binades below the largest
 *   carry            D is finite and above the largest term's binade (the sum carried out)
 *   overflow         every operand is finite and D is infinite
 *   tie              the exact sum lies halfway between two neighbours at D's precision (computed exactly
 *                    in a 128-bit integer when the terms span at most 110 bits; not counted otherwise)
 *   none of the above
 * Complex formats are not classified. */
#include <math.h>
#include <stdio.h>

#include "svdpi.h"
#include "mmaref_dpi.h"
#include "tb_support.h"

enum { CLS_SPECIAL_AB, CLS_SPECIAL_C, CLS_SUB_IN, CLS_SUB_D, CLS_SHIFT, CLS_CANCEL, CLS_CARRY, CLS_OVERFLOW,
       CLS_TIE, CLS_PLAIN, CLS_COUNT };
static const char *const cls_name[CLS_COUNT] = {
    "special a/b (NaN/inf, any lane)", "special c (NaN/inf)", "subnormal operand", "subnormal d",
    "alignment shift > F", "cancellation (>= 4 binades)", "carry above the largest term",
    "overflow (finite inputs, inf d)", "tie at d's precision", "none of the above"};
static long long cls[CLS_COUNT], mism[CLS_COUNT], special_lane[DPI_MAX_K], classified;
static int cls_h = -1;

static int is_subnormal(mmaref_format f, uint64_t raw)
{
    mmaref_format_info fi;
    if (mmaref_format_get_info(f, &fi) != MMAREF_OK || fi.exp_bits == 0)
        return 0;
    uint64_t exp = (raw >> fi.man_bits) & ((1ULL << fi.exp_bits) - 1), man = raw & ((1ULL << fi.man_bits) - 1);
    return exp == 0 && man != 0;
}

/* exact sum of the finite terms is halfway between two values with `prec` fractional bits */
static int exact_tie(const double *t, int n, int prec)
{
    int lo = 1 << 20, hi = -(1 << 20), e;
    for (int i = 0; i < n; i++)
        if (t[i] != 0 && isfinite(t[i])) {
            frexp(t[i], &e);
            lo = e - 53 < lo ? e - 53 : lo;
            hi = e > hi ? e : hi;
        }
    if (hi < lo || hi - lo > 110)
        return 0;
    __int128 s = 0;
    for (int i = 0; i < n; i++)
        if (t[i] != 0 && isfinite(t[i])) {
            long long m = (long long)ldexp(frexp(t[i], &e), 53);
            s += (__int128)m << (e - 53 - lo);
        }
    unsigned __int128 u = s < 0 ? -(unsigned __int128)s : (unsigned __int128)s;
    int p = -1;
    for (unsigned __int128 x = u; x; x >>= 1)
        p++;
    if (p <= prec)
        return 0;
    int sh = p - prec;
    unsigned __int128 half = (unsigned __int128)1 << (sh - 1);
    return (u & ((half << 1) - 1)) == half;
}

/* The classes of one vector as a mask (bit i: class i); CLS_PLAIN alone when it is in none. */
static int classes(const mmaref_instr *in, uint64_t c, const uint64_t *a, const uint64_t *b, const uint64_t *sa,
                   const uint64_t *sb, uint64_t d, int ns)
{
    int m = 0;
    double t[DPI_MAX_K + 1], dd = mmaref_format_to_double(in->d, d);
    int finite = 1, sub = is_subnormal(in->c, c);
    for (int i = 0; i < in->k; i++) {
        double x = mmaref_format_to_double(in->a, a[i]), y = mmaref_format_to_double(in->b, b[i]);
        if (!isfinite(x) || !isfinite(y)) {
            special_lane[i]++;
            m |= 1 << CLS_SPECIAL_AB;
            finite = 0;
        }
        sub |= is_subnormal(in->a, a[i]) || is_subnormal(in->b, b[i]);
        t[i] = x * y;
        if (ns) { /* the lane's scales (per product block or per group) */
            int j = i / (in->k / ns);
            t[i] *= mmaref_format_to_double(in->scale, sa[j]) * mmaref_format_to_double(in->scale, sb[j]);
        }
    }
    t[in->k] = mmaref_format_to_double(in->c, c);
    if (!isfinite(t[in->k])) {
        m |= 1 << CLS_SPECIAL_C;
        finite = 0;
    }
    m |= sub << CLS_SUB_IN | is_subnormal(in->d, d) << CLS_SUB_D;
    if (!finite)
        return m;
    int emax = -100000, emin = 100000, any = 0;
    for (int i = 0; i <= in->k; i++)
        if (t[i] != 0 && isfinite(t[i])) {
            int e = ilogb(t[i]);
            emax = e > emax ? e : emax;
            emin = e < emin ? e : emin;
            any = 1;
        }
    if (isinf(dd))
        m |= 1 << CLS_OVERFLOW;
    if (any) {
        int F = in->pass[0].frac_bits;
        m |= (F > 0 && emax - emin > F) << CLS_SHIFT;
        m |= (isfinite(dd) && (dd == 0 || ilogb(dd) <= emax - 4)) << CLS_CANCEL;
        m |= (isfinite(dd) && dd != 0 && ilogb(dd) > emax) << CLS_CARRY;
        m |= exact_tie(t, in->k + 1, mmaref_output_precision(in->pass[in->passes - 1].out)) << CLS_TIE;
    }
    return m ? m : 1 << CLS_PLAIN;
}

/* The classes of vector idx, counted; returns them as a mask (bit i: class i), for
 * mmaref_tb_class_mismatch. */
int mmaref_tb_classify(int h, unsigned long long seed, unsigned long long idx)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    uint64_t c, a[DPI_MAX_K], b[DPI_MAX_K], sa[DPI_MAX_SCALE], sb[DPI_MAX_SCALE], d;
    if (!in || in->k > DPI_MAX_K || mmaref_format_parts(in->a) > 1 || mmaref_format_parts(in->c) > 1 ||
        tb_vector_at(h, seed, idx, &c, a, b, sa, sb) < 0)
        return 0;
    int ns = mmaref_scale_count(in);
    char msg[256];
    if (mmaref_dot(in, c, a, b, ns ? sa : NULL, ns ? sb : NULL, &d, msg, sizeof msg) != MMAREF_OK)
        return 0;
    cls_h = h;
    classified++;
    int m = classes(in, c, a, b, sa, sb, d, ns);
    for (int k = 0; k < CLS_COUNT; k++)
        cls[k] += (m >> k) & 1;
    return m;
}

void mmaref_tb_class_mismatch(int mask)
{
    for (int k = 0; k < CLS_COUNT; k++)
        mism[k] += (mask >> k) & 1;
}

/* The table of classes, after the run (nothing when no vector was classified). */
void mmaref_tb_print_classes(void)
{
    if (cls_h < 0)
        return;
    const mmaref_instr *in = mmaref_dpi_instr(cls_h);
    printf("coverage of %s: %lld vectors classified (docs/verify-your-design.md, coverage)\n",
           mmaref_dpi_label(cls_h), classified);
    printf("  %-34s %12s %12s\n", "class", "vectors", "mismatches");
    for (int k = 0; k < CLS_COUNT; k++) {
        if (k == CLS_SHIFT && in->pass[0].frac_bits <= 0)
            printf("  %-34s %12s\n", cls_name[k], "n/a (no F)");
        else
            printf("  %-34s %12lld %12lld\n", cls_name[k], cls[k], mism[k]);
    }
    printf("  %-34s", "special a/b per lane (NaN/inf)");
    for (int i = 0; i < in->k; i++)
        printf(" %lld", special_lane[i]);
    printf("\n");
    fflush(stdout);
}
