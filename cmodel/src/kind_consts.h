/* The per-kind constants of the summation kinds that the hardware shares: the one place they are written.
 * `mmaref list --schema --json` prints them ("constants"), and synth/gen_formats.py writes them into
 * rtl/mma_formats.svh as KIND_* localparams for the RTL units and benches.  Plain enums, no other
 * include: cmodel/tools/cmd_list.c reads this header alone. */
#ifndef MMAREF_KIND_CONSTS_H
#define MMAREF_KIND_CONSTS_H

/* M3XU's F_w: the fractional bits of its 48-bit product register, 2 x 23 for two f32 significands, so
 * that a product at e_max enters the sum exactly (docs/m3xu.md).  The instruction table's F and the
 * largest F the kind takes. */
enum { M3XU_PRODUCT_FRAC_BITS = 46 };

/* AMD CDNA3's FDRDA and GFDRDA (the MMA-Sim paper, IV-F to IV-I; algo_fdrda.c, explain.c). */
enum {
    FDRDA_DOT_F = 31,       /* Step 6: s_dot is rounded down at its 31st fractional bit ... */
    FDRDA_C_F = 24,         /* ... and c at its 24th */
    GFDRDA_C_WINDOW = 25,   /* GFDRDA Step 8: c rounds toward zero when e_c < e_max - 25 */
    AMD_PRODUCT_OVERFLOW_EXP = 128, /* Step 2: |p_k| >= 2^128 overflows to infinity */
};

/* M3XU's multipliers are 12 bits wide: an f32 significand (24 bits with the hidden one) is two halves. */
enum { M3XU_HALF_BITS = 12 };

/* A zero operand decodes with exponent -126 whatever its format, and that exponent takes part in e_max
 * (a zero product a*b has exponent -126 + e_b): the convention of the MMA-Sim paper's simulator
 * (docs/algorithms.md, "Conventions"). */
enum { ZERO_OPERAND_EXP = -126 };

/* GDFS sums the exact products in groups of 16 whatever the block size (MMA-Sim paper, section IV-E, Step 3). */
enum { GDFS_GROUP = 16 };

#endif
