/* What an instruction's terms can reach, in binary logarithms of magnitudes, derived from its formats
 * and schedule: the coverage model's reach of its bins (coverage.c) and the rule inventory's reach of a
 * rule's bug (rules.c) read the same derivation.  Long double arithmetic: callers run in the default
 * floating-point environment (host_fp.h). */
#ifndef MMAREF_REACH_H
#define MMAREF_REACH_H

#include <math.h>

#include "fixed.h"
#include "format.h"

static inline const fmt_desc *part_of(mmaref_format f) { return fmt_of(mmaref_format_part(f)); }
static inline int has_inf(const fmt_desc *f) { return f->specials == MMAREF_SPECIALS_IEEE; }
static inline int has_nan(const fmt_desc *f) { return f->specials != MMAREF_SPECIALS_NONE; }
static inline int precision(const fmt_desc *f) { return fmt_precision(f); }
static inline int has_subnormal(const fmt_desc *f) { return f->specials != MMAREF_SPECIALS_E8M0 && precision(f) > 0; }
/* log2 of the smallest positive value and of the largest finite */
static inline int log2_min(const fmt_desc *f) { return fmt_min_exp(f) - (has_subnormal(f) ? precision(f) : 0); }
static inline long double max_value(const fmt_desc *f)
{
    uint64_t e, m;
    fmt_max_finite(f, &e, &m);
    m &= ~f->ignored;
    if (f->specials == MMAREF_SPECIALS_E8M0)
        return ldexpl(1, (int)e - f->bias);
    return ldexpl((long double)(m | 1ULL << f->man_bits), (int)e - f->bias - f->man_bits);
}

static inline int is_fda_like(mmaref_algo a) { return a != MMAREF_ALGO_SFMA && a != MMAREF_ALGO_GPS; }

/* log2 of a format's largest binade */
static inline int top_exp(const fmt_desc *f) { return (int)floorl(log2l(max_value(f))); }

typedef struct {
    const fmt_desc *fa, *fb, *fc, *fs, *fd;
    const mmaref_pass *last;
    out_desc out;                              /* D's rounding: the last pass's, or the addition of C */
    int c_last;                                /* C added last: the last rounder is an IEEE addition */
    int align_fda;                             /* the last pass aligns to e_max (F applies to it) */
    int P, F, k, ns, complex, fda_like, terms; /* terms the last rounder sums: its products and C */
    int term_min, p_min;                       /* log2 of the smallest nonzero term (product or C), product */
    int range, term_bits;                      /* log2 of largest / smallest term; bits of a product */
    long double c_max, p_max, d_max;
} reach_ctx;

reach_ctx reach_of(const mmaref_instr *in);
/* Can a dot-add of the instruction give a subnormal D (a term below D's smallest normal, not flushed)? */
int reach_subnormal_d(const reach_ctx *r);
/* Can finite terms sum past D's overflow threshold (the largest finite plus half an ulp; under RZ the
 * next binade), so that D is inf? */
int reach_overflow_inf(const reach_ctx *r);

#endif
