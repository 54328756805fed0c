/* NVIDIA Tensor Core instructions as data: the MMA-Sim paper, Table III, section IV-C/D/E and Appendix B.
 * One row per instruction group; the columns give, per architecture, the fractional bits F kept by
 * the fused sum (0: the architecture lacks the instruction) and whether the dot-add is split into two
 * chained passes (CoFDA); nv_pass turns a row into the pass schedule of each instruction.  This table is the only place these parameters are written. */
#include <stdio.h>
#include <string.h>

#include "isa.h"
#include "kind_consts.h"
#include "schedule.h"

#define END MMAREF_FORMAT_COUNT
#define FMTS(...) ((const mmaref_format[]){__VA_ARGS__, END})
#define F8 FMTS(MMAREF_E4M3, MMAREF_E5M2)
#define F8F6F4 FMTS(MMAREF_E4M3, MMAREF_E5M2, MMAREF_E3M2, MMAREF_E2M3, MMAREF_E2M1)
#define F32 FMTS(MMAREF_F32)
#define F16 FMTS(MMAREF_F16)
#define F32_F16 FMTS(MMAREF_F32, MMAREF_F16)
#define BIT(a) (1u << (a))

/* Per-architecture availability, in the order volta turing ampere ada hopper blackwell rtx-blackwell.
 * NA: not available; SF: available, an SFMA instruction (no F); else the F an FDA keeps. */
enum { NA = 0, SF = -1 };

typedef enum { OP_MMA, OP_MMA_BLOCK_SCALE, OP_WGMMA, OP_TCGEN05, OP_TCGEN05_BLOCK_SCALE } nv_op;

typedef struct {
    nv_op op;
    int m[2];                   /* M values (second 0 when one) */
    int n_min, n_max;           /* N from n_min to n_max in steps of 8 */
    int k;
    const mmaref_format *d, *a, *b; /* operand format sets */
    mmaref_format c;            /* END: C has D's format */
    const mmaref_format *scale; /* NULL: no block scales */
    int block[2];               /* block sizes of the scales (second 0 when one) */
    mmaref_algo algo;
    int F[7];
    unsigned chain2;            /* architectures that chain two FDA passes over the halves of K */
    int blocks;                 /* concurrent MMAs per instruction */
    const char *sass;           /* alias: %M %N shape, %D %A %B formats, %X ".4X" for 16-element blocks */
    unsigned pairs_c_last;      /* architectures that run two passes over the products k mod 4 in {0, 1},
                                 * then {2, 3}, from +0, and add C last (schedule_pairs_c_last) */
} nv_row;

#define V_T_ONLY(fv, ft) {fv, ft, NA, NA, NA, NA, NA}
#define FROM_TURING(f) {NA, f, f, f, 25, 25, 25}
#define FROM_AMPERE(f) {NA, NA, f, f, 25, 25, 25}
#define COFDA_AMPERE_ADA (BIT(ARCH_AMPERE) | BIT(ARCH_ADA))
#define PAIRS_C_LAST (BIT(ARCH_HOPPER) | BIT(ARCH_BLACKWELL))

static const nv_row nv_rows[] = {
    /* HMMA.884: Volta F=23, Turing F=24; four concurrent 8x8x4 products per instruction. */
    {OP_MMA, {8}, 8, 8, 4, F32, F16, F16, MMAREF_F32, NULL, {0}, MMAREF_ALGO_FDA, V_T_ONLY(23, 24), 0, 4,
     "HMMA.884.F32.F32", 0},
    {OP_MMA, {8}, 8, 8, 4, F32, F16, F16, MMAREF_F16, NULL, {0}, MMAREF_ALGO_FDA, V_T_ONLY(23, 24), 0, 4,
     "HMMA.884.F32.F16", 0},
    {OP_MMA, {8}, 8, 8, 4, F16, F16, F16, END, NULL, {0}, MMAREF_ALGO_FDA, V_T_ONLY(23, 24), 0, 4,
     "HMMA.884.F16.F16", 0},
    /* HMMA.1688 f16: Turing, Ampere, Ada F=24; Hopper and later F=25. */
    {OP_MMA, {16}, 8, 8, 8, F32_F16, F16, F16, END, NULL, {0}, MMAREF_ALGO_FDA, FROM_TURING(24), 0, 1,
     "HMMA.1688.%D", 0},
    /* DMMA.884: IEEE FMA chain. */
    {OP_MMA, {8}, 8, 8, 4, FMTS(MMAREF_F64), FMTS(MMAREF_F64), FMTS(MMAREF_F64), END, NULL, {0},
     MMAREF_ALGO_SFMA, {NA, NA, SF, SF, SF, SF, SF}, 0, 1, "DMMA.884", 0},
    /* HMMA.1688.F32.TF32: CoFDA on Ampere and Ada. */
    {OP_MMA, {16}, 8, 8, 8, F32, FMTS(MMAREF_TF32), FMTS(MMAREF_TF32), END, NULL, {0}, MMAREF_ALGO_FDA,
     FROM_AMPERE(24), COFDA_AMPERE_ADA, 1, "HMMA.1688.F32.TF32", 0},
    {OP_MMA, {16}, 8, 8, 4, F32, FMTS(MMAREF_TF32), FMTS(MMAREF_TF32), END, NULL, {0}, MMAREF_ALGO_FDA,
     FROM_AMPERE(24), 0, 1, "HMMA.1684.F32.TF32", 0},
    /* HMMA.16816: CoFDA on Ampere and Ada. */
    {OP_MMA, {16}, 8, 8, 16, F32_F16, F16, F16, END, NULL, {0}, MMAREF_ALGO_FDA, FROM_AMPERE(24),
     COFDA_AMPERE_ADA, 1, "HMMA.16816.%D", 0},
    {OP_MMA, {16}, 8, 8, 16, F32, FMTS(MMAREF_BF16), FMTS(MMAREF_BF16), END, NULL, {0}, MMAREF_ALGO_FDA,
     FROM_AMPERE(24), COFDA_AMPERE_ADA, 1, "HMMA.16816.F32.BF16", 0},
    {OP_MMA, {16}, 8, 8, 8, F32, FMTS(MMAREF_BF16), FMTS(MMAREF_BF16), END, NULL, {0}, MMAREF_ALGO_FDA,
     FROM_AMPERE(24), 0, 1, "HMMA.1688.F32.BF16", 0},
    /* QMMA FP8 on Ada: F=13 (CoFDA for K=32).  RTX Blackwell's f8f6f4 rows below cover its FP8. */
    {OP_MMA, {16}, 8, 8, 32, F32_F16, F8, F8, END, NULL, {0}, MMAREF_ALGO_FDA, {NA, NA, NA, 13, NA, NA, NA},
     BIT(ARCH_ADA), 1, "QMMA.16832.%D.%A.%B", 0},
    {OP_MMA, {16}, 8, 8, 16, F32_F16, F8, F8, END, NULL, {0}, MMAREF_ALGO_FDA, {NA, NA, NA, 13, NA, NA, 25},
     0, 1, "QMMA.16816.%D.%A.%B", 0},
    /* Hopper and Blackwell mma.sync FP8: two HMMA passes with F = 25, from +0, over the products k mod 4 in
     * {0, 1} (the first two bytes of each 32-bit A and B register), then {2, 3}, each rounded to D's format
     * as HMMA rounds it (f32: RZ, f16: RNE); then C added with one IEEE addition (RNE).  Measured on an H200,
     * 1,048,576 vectors per instruction (docs/hardware-validation.md); Khattak & Mikaitis' B200 m16n8k32
     * files agree 5000/5000 each (docs/algorithms.md, "mma.sync FP8"); Blackwell's m16n8k16 assumed alike. */
    {OP_MMA, {16}, 8, 8, 32, F32_F16, F8, F8, END, NULL, {0}, MMAREF_ALGO_FDA, {NA, NA, NA, NA, 25, 25, NA},
     0, 1, "QMMA.16832.%D.%A.%B", PAIRS_C_LAST},
    {OP_MMA, {16}, 8, 8, 16, F32_F16, F8, F8, END, NULL, {0}, MMAREF_ALGO_FDA, {NA, NA, NA, NA, 25, 25, NA},
     0, 1, "QMMA.16816.%D.%A.%B", PAIRS_C_LAST},
    /* DMMA.16x8xK on Hopper. */
    {OP_MMA, {16}, 8, 8, 16, FMTS(MMAREF_F64), FMTS(MMAREF_F64), FMTS(MMAREF_F64), END, NULL, {0},
     MMAREF_ALGO_SFMA, {NA, NA, NA, NA, SF, NA, NA}, 0, 1, "DMMA.16x8x16", 0},
    {OP_MMA, {16}, 8, 8, 8, FMTS(MMAREF_F64), FMTS(MMAREF_F64), FMTS(MMAREF_F64), END, NULL, {0},
     MMAREF_ALGO_SFMA, {NA, NA, NA, NA, SF, NA, NA}, 0, 1, "DMMA.16x8x8", 0},
    {OP_MMA, {16}, 8, 8, 4, FMTS(MMAREF_F64), FMTS(MMAREF_F64), FMTS(MMAREF_F64), END, NULL, {0},
     MMAREF_ALGO_SFMA, {NA, NA, NA, NA, SF, NA, NA}, 0, 1, "DMMA.16x8x4", 0},
    /* RTX Blackwell kind::f8f6f4, every FP8/FP6/FP4 mix, F=25. */
    {OP_MMA, {16}, 8, 8, 32, F32_F16, F8F6F4, F8F6F4, END, NULL, {0}, MMAREF_ALGO_FDA,
     {NA, NA, NA, NA, NA, NA, 25}, 0, 1, "QMMA.16832.%D.%A.%B", 0},
    /* RTX Blackwell block-scaled: mxf8f6f4 (FDA with UE8M0 scales), mxf4nvf4 (GDFS, F=35). */
    {OP_MMA_BLOCK_SCALE, {16}, 8, 8, 32, F32, F8F6F4, F8F6F4, END, FMTS(MMAREF_UE8M0), {32},
     MMAREF_ALGO_FDA, {NA, NA, NA, NA, NA, NA, 25}, 0, 1, "QMMA.SF.16832.F32.%A.%B.E8", 0},
    {OP_MMA_BLOCK_SCALE, {16}, 8, 8, 64, F32, FMTS(MMAREF_E2M1), FMTS(MMAREF_E2M1), END,
     FMTS(MMAREF_UE8M0), {32, 16}, MMAREF_ALGO_GDFS, {NA, NA, NA, NA, NA, NA, 35}, 0, 1,
     "OMMA.SF.16864.F32.E2M1.E2M1.E8%X", 0},
    {OP_MMA_BLOCK_SCALE, {16}, 8, 8, 64, F32, FMTS(MMAREF_E2M1), FMTS(MMAREF_E2M1), END,
     FMTS(MMAREF_UE4M3), {16}, MMAREF_ALGO_GDFS, {NA, NA, NA, NA, NA, NA, 35}, 0, 1,
     "OMMA.SF.16864.F32.E2M1.E2M1.UE4M3%X", 0},
    /* Hopper wgmma: HGMMA F=25, QGMMA (FP8) F=13. */
    {OP_WGMMA, {64}, 8, 256, 8, F32, FMTS(MMAREF_TF32), FMTS(MMAREF_TF32), END, NULL, {0},
     MMAREF_ALGO_FDA, {NA, NA, NA, NA, 25, NA, NA}, 0, 1, "HGMMA.64x%Nx8.F32.TF32", 0},
    {OP_WGMMA, {64}, 8, 256, 16, F32_F16, F16, F16, END, NULL, {0}, MMAREF_ALGO_FDA,
     {NA, NA, NA, NA, 25, NA, NA}, 0, 1, "HGMMA.64x%Nx16.%D", 0},
    {OP_WGMMA, {64}, 8, 256, 16, F32, FMTS(MMAREF_BF16), FMTS(MMAREF_BF16), END, NULL, {0},
     MMAREF_ALGO_FDA, {NA, NA, NA, NA, 25, NA, NA}, 0, 1, "HGMMA.64x%Nx16.F32.BF16", 0},
    {OP_WGMMA, {64}, 8, 256, 32, F32_F16, F8, F8, END, NULL, {0}, MMAREF_ALGO_FDA,
     {NA, NA, NA, NA, 13, NA, NA}, 0, 1, "QGMMA.64x%Nx32.%D.%A.%B", 0},
    /* Blackwell tcgen05.mma (UTCHMMA, UTCQMMA), F=25; kind::f16 mixes f16 and bf16 for f32 D. */
    {OP_TCGEN05, {64, 128}, 8, 256, 8, F32, FMTS(MMAREF_TF32), FMTS(MMAREF_TF32), END, NULL, {0},
     MMAREF_ALGO_FDA, {NA, NA, NA, NA, NA, 25, NA}, 0, 1, "UTCHMMA", 0},
    {OP_TCGEN05, {64, 128}, 8, 256, 16, F32, FMTS(MMAREF_F16, MMAREF_BF16), FMTS(MMAREF_F16, MMAREF_BF16),
     END, NULL, {0}, MMAREF_ALGO_FDA, {NA, NA, NA, NA, NA, 25, NA}, 0, 1, "UTCHMMA", 0},
    {OP_TCGEN05, {64, 128}, 8, 256, 16, F16, F16, F16, END, NULL, {0}, MMAREF_ALGO_FDA,
     {NA, NA, NA, NA, NA, 25, NA}, 0, 1, "UTCHMMA", 0},
    {OP_TCGEN05, {64, 128}, 8, 256, 32, F32_F16, F8F6F4, F8F6F4, END, NULL, {0}, MMAREF_ALGO_FDA,
     {NA, NA, NA, NA, NA, 25, NA}, 0, 1, "UTCQMMA", 0},
    /* Blackwell block-scaled tcgen05.mma: mxf8f6f4 (UTCQMMA), mxf4nvf4 (UTCOMMA, UTCOMMA.4X). */
    {OP_TCGEN05_BLOCK_SCALE, {128}, 8, 256, 32, F32, F8F6F4, F8F6F4, END, FMTS(MMAREF_UE8M0), {32},
     MMAREF_ALGO_FDA, {NA, NA, NA, NA, NA, 25, NA}, 0, 1, "UTCQMMA", 0},
    {OP_TCGEN05_BLOCK_SCALE, {128}, 8, 256, 64, F32, FMTS(MMAREF_E2M1), FMTS(MMAREF_E2M1), END,
     FMTS(MMAREF_UE8M0), {32, 16}, MMAREF_ALGO_GDFS, {NA, NA, NA, NA, NA, 35, NA}, 0, 1, "UTCOMMA%X", 0},
    {OP_TCGEN05_BLOCK_SCALE, {128}, 8, 256, 64, F32, FMTS(MMAREF_E2M1), FMTS(MMAREF_E2M1), END,
     FMTS(MMAREF_UE4M3), {16}, MMAREF_ALGO_GDFS, {NA, NA, NA, NA, NA, 35, NA}, 0, 1, "UTCOMMA%X", 0},
};

/* FDA Step 5: f16 D rounds to nearest even; f32 D truncates, at 13 fractional bits where the fused sum
 * keeps only 13 (Ada QMMA, Hopper QGMMA), else at 23. */
static mmaref_output nv_output(mmaref_algo algo, mmaref_format d, int cell)
{
    if (algo == MMAREF_ALGO_SFMA)
        return MMAREF_OUT_F64_RNE;
    if (d == MMAREF_F16)
        return MMAREF_OUT_F16_RNE;
    return cell == 13 ? MMAREF_OUT_F32_E8M13 : MMAREF_OUT_F32_RZ;
}


/* Hopper's FDA, measured on an H200 (docs/hardware-validation.md): a zero term -- a zero C, a product with a
 * zero factor -- does not take part in e_max as the MMA-Sim convention has it (a zero operand of exponent
 * -126, so that 0 x 2^127 would set e_max = 1); it enters with exponent -133, which keeps the alignment at
 * or above 2^(-133 - F) when C is zero and every product is tiny (bf16, tf32). */
enum { HOPPER_ZERO_TERM_EXP = -133 };

/* The pass of a row on an architecture whose cell is F (SF for SFMA). */
static mmaref_pass nv_pass(const nv_row *row, isa_arch arch, mmaref_format d, int cell, int block_size)
{
    mmaref_pass p;
    memset(&p, 0, sizeof p);
    p.algo = row->algo;
    p.out = nv_output(row->algo, d, cell);
    if (row->algo == MMAREF_ALGO_SFMA) {  /* IEEE FMA: every step rounds to nearest even */
        p.align_products = p.align_c = MMAREF_RNE;
        return p;
    }
    p.frac_bits = cell;                   /* FDA Step 3 and GDFS Step 5 truncate: RZ */
    p.align_products = p.align_c = MMAREF_RZ;
    p.group = row->algo == MMAREF_ALGO_GDFS ? GDFS_GROUP : 0;
    if (arch == ARCH_HOPPER && row->algo == MMAREF_ALGO_FDA)
        p.zero_term_exp = HOPPER_ZERO_TERM_EXP;
    if (block_size)
        p.scales = row->algo == MMAREF_ALGO_GDFS ? MMAREF_SCALES_PER_GROUP : MMAREF_SCALES_PER_PRODUCT;
    return p;
}

static void upper(char *dst, const char *src, size_t cap)
{
    size_t i = 0;
    for (; src[i] && i + 1 < cap; i++)
        dst[i] = (char)(src[i] >= 'a' && src[i] <= 'z' ? src[i] - 32 : src[i]);
    dst[i] = 0;
}

static void format_sass(char *out, size_t cap, const char *pattern, const mmaref_instr *in)
{
    size_t o = 0;
    for (const char *p = pattern; *p && o + 1 < cap; p++) {
        char piece[32] = "";
        if (*p != '%') {
            out[o++] = *p;
            continue;
        }
        switch (*++p) {
        case 'M': snprintf(piece, sizeof piece, "%d", in->m); break;
        case 'N': snprintf(piece, sizeof piece, "%d", in->n); break;
        case 'D': upper(piece, mmaref_format_name(in->d), sizeof piece); break;
        case 'A': upper(piece, mmaref_format_name(in->a), sizeof piece); break;
        case 'B': upper(piece, mmaref_format_name(in->b), sizeof piece); break;
        case 'X': snprintf(piece, sizeof piece, "%s", in->block_size == 16 ? ".4X" : ""); break;
        default: p--; break;
        }
        for (const char *q = piece; *q && o + 1 < cap; q++)
            out[o++] = *q;
    }
    out[o] = 0;
}

static void format_name(char *out, size_t cap, nv_op op, const mmaref_instr *in)
{
    const char *d = mmaref_format_name(in->d), *a = mmaref_format_name(in->a);
    const char *b = mmaref_format_name(in->b), *c = mmaref_format_name(in->c);
    const char *s = mmaref_format_name(in->scale);
    switch (op) {
    case OP_MMA:
        snprintf(out, cap, "mma.m%dn%dk%d.%s.%s.%s.%s", in->m, in->n, in->k, d, a, b, c);
        break;
    case OP_MMA_BLOCK_SCALE:
        snprintf(out, cap, "mma.m%dn%dk%d.block%d.%s.%s.%s.%s.%s", in->m, in->n, in->k, in->block_size, d, a,
                 b, c, s);
        break;
    case OP_WGMMA:
        snprintf(out, cap, "wgmma.m%dn%dk%d.%s.%s.%s", in->m, in->n, in->k, d, a, b);
        break;
    case OP_TCGEN05:
        snprintf(out, cap, "tcgen05.mma.m%dn%dk%d.%s.%s.%s", in->m, in->n, in->k, d, a, b);
        break;
    case OP_TCGEN05_BLOCK_SCALE:
        snprintf(out, cap, "tcgen05.mma.m%dn%dk%d.block%d.%s.%s.%s.%s", in->m, in->n, in->k, in->block_size,
                 d, a, b, s);
        break;
    }
}

int isa_nvidia_each(isa_arch arch, isa_visit_fn visit, void *ctx)
{
    if (arch > ARCH_RTX_BLACKWELL)
        return 0;
    for (size_t r = 0; r < sizeof nv_rows / sizeof nv_rows[0]; r++) {
        const nv_row *row = &nv_rows[r];
        int F = row->F[arch];
        if (F == NA)
            continue;
        for (int mi = 0; mi < 2 && row->m[mi]; mi++)
            for (int n = row->n_min; n <= row->n_max; n += 8)
                for (const mmaref_format *d = row->d; *d != END; d++)
                    for (const mmaref_format *a = row->a; *a != END; a++)
                        for (const mmaref_format *b = row->b; *b != END; b++)
                            for (int bi = 0; bi < 2 && (bi == 0 || row->block[bi]); bi++) {
                                mmaref_instr in;
                                memset(&in, 0, sizeof in);
                                in.arch = isa_arch_names[arch];
                                in.m = row->m[mi], in.n = n, in.k = row->k, in.blocks = row->blocks;
                                in.d = *d, in.a = *a, in.b = *b;
                                in.c = row->c == END ? *d : row->c;
                                in.scale = row->scale ? row->scale[0] : MMAREF_FORMAT_COUNT;
                                in.block_size = row->block[bi];
                                mmaref_pass proto = nv_pass(row, arch, *d, F, in.block_size);
                                if (row->pairs_c_last & BIT(arch))
                                    schedule_pairs_c_last(&in, proto);
                                else
                                    schedule_split_k(&in, (row->chain2 & BIT(arch)) ? 2 : 1, proto);
                                format_name(in.name, sizeof in.name, row->op, &in);
                                format_sass(in.sass, sizeof in.sass, row->sass, &in);
                                if (visit(&in, ctx))
                                    return 1;
                            }
    }
    return 0;
}
