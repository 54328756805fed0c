/* The arithmetic rules of the inventory (rules.c): one name per rule the model encodes, so that a pass
 * can test whether a run asks it to break one (trace.h, trace_breaks).  Plain enum, no other include. */
#ifndef MMAREF_RULE_IDS_H
#define MMAREF_RULE_IDS_H

typedef enum {
    RULE_NONE,
    /* decoding */
    RULE_SUBNORMAL_OPERAND,     /* a subnormal A or B enters with its value (or flushed, where the pass flushes) */
    RULE_SUBNORMAL_C,           /* a subnormal C enters with its value */
    RULE_ZERO_OPERAND_EXP,      /* a zero operand counts as ZERO_OPERAND_EXP in e_max */
    RULE_ZERO_TERM_EXP,         /* a zero term takes the pass's zero_term_exp (Hopper: -133) */
    RULE_F16_OPERANDS,          /* FP8 operands converted exactly to f16 first (mma.sync FP8) */
    RULE_SCALE_BIAS,            /* a UE8M0 scale is 2^(e - 127) */
    RULE_SCALE_MAX,             /* UE8M0 0xFE is 2^127, a number */
    /* specials */
    RULE_NAN_CANONICAL,         /* a NaN D is the canonical NaN, whatever NaN came in */
    RULE_INF_MINUS_INF,         /* +inf and -inf among the terms give NaN */
    RULE_ZERO_TIMES_INF,        /* 0 x inf gives NaN */
    /* e_max, alignment and summation */
    RULE_WINDOW_SHORT,          /* F fractional bits kept at e_max: a unit keeping F - 1 */
    RULE_WINDOW_LONG,           /* ... and one keeping F + 1 */
    RULE_ALIGN_DIRECTION,       /* FDRDA: the dot aligned to e_max rounding down */
    RULE_C_ALIGN_DIRECTION,     /* FDRDA: C aligned to e_max rounding down */
    RULE_C_WINDOW,              /* GFDRDA: C below e_max - 25 rounds toward zero */
    RULE_GROUPING,              /* the kind's grouping of products (G; GFDRDA's even and odd sums) */
    RULE_ORDER,                 /* the IEEE kinds' order of operations (SFMA's chain, GPS's pairs) */
    /* rounding and the result */
    RULE_INTERMEDIATE_ROUNDING, /* a multi-pass schedule rounds each pass's result */
    RULE_OUTPUT_ROUNDING,       /* the last pass's rounding: direction and precision */
    RULE_OUTPUT_TIES,           /* a fused pass rounding to nearest breaks a tie to even */
    RULE_OUTPUT_STICKY,         /* ... and sees the bits below its round bit (sticky) */
    RULE_SUBNORMAL_RESULT,      /* a subnormal D is returned as such */
    RULE_OVERFLOW,              /* a finite sum past the largest finite rounds to inf */
    RULE_ZERO_SIGN,             /* the sign of D when C = -0 and every product is -0 */
    RULE_COUNT
} mmaref_rule_id;

#endif
