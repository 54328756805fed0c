/* AMD Matrix Core instructions as data: the MMA-Sim paper, Table IV and Appendix C, with CDNA1 (gfx908) added.
 * One row per instruction; the columns give, per architecture (cdna1, cdna2, cdna3), the spelling the
 * ISA uses there (NULL: the architecture lacks the instruction) and the algorithm cell of Table IV.
 * This table is the only place these parameters are written.
 *
 * Spelling: CDNA1/CDNA2 write v_mfma_<d>_<M>x<N>x<K><ab>[_1k]; CDNA3 renamed them
 * v_mfma_<d>_<M>x<N>x<K>[_<T>b]_<ab> (T concurrent blocks) and accepts the old spelling as an alias
 * (kept in the `sass` field; LLVM's gfx940 assembler does the same).  LLVM also reuses the legacy bf16
 * names without _1k as aliases of the renamed _1k forms; mmaref does not, since on CDNA1/CDNA2 those
 * names are different (G = 2) instructions.  Integer MFMAs (i8) and the sparse SMFMAC forms are not floating-point
 * dot-adds of Table IV and are not modelled. */
#include <stdio.h>
#include <string.h>

#include "isa.h"
#include "schedule.h"

#define END MMAREF_FORMAT_COUNT
#define FMTS(...) ((const mmaref_format[]){__VA_ARGS__, END})
#define F64 FMTS(MMAREF_F64)
#define F32 FMTS(MMAREF_F32)
#define XF32 FMTS(MMAREF_TF32)
#define F16 FMTS(MMAREF_F16)
#define BF16 FMTS(MMAREF_BF16)
#define FP8_BF8 FMTS(MMAREF_E4M3FNUZ, MMAREF_E5M2FNUZ)

/* A cell of Table IV: the algorithm, G for GPS, the number of chained passes over K, and whether
 * subnormals are flushed. */
typedef struct {
    mmaref_algo algo;   /* MMAREF_ALGO_COUNT: not available */
    int group;
    int passes;
    int flush;
} amd_cell;

#define NA {MMAREF_ALGO_COUNT, 0, 0, 0}
#define SFMA {MMAREF_ALGO_SFMA, 0, 1, 0}
#define GPS(g) {MMAREF_ALGO_GPS, g, 1, 0}         /* CDNA1: no flushing */
#define GPS_FTZ(g) {MMAREF_ALGO_GPS, g, 1, 1}     /* CDNA2: subnormals flushed (paper IV-B Steps 1-4) */
#define FDRDA {MMAREF_ALGO_FDRDA, 0, 1, 0}
#define CoFDRDA {MMAREF_ALGO_FDRDA, 0, 2, 0}      /* one FDRDA pass takes K/2 products */
#define GFDRDA {MMAREF_ALGO_GFDRDA, 0, 1, 0}
#define CoGFDRDA {MMAREF_ALGO_GFDRDA, 0, 2, 0}    /* one GFDRDA pass takes 16 products */

/* FDRDA and GFDRDA keep F = 24 fractional bits when aligning the products (paper IV-F, IV-H). */
enum { AMD_FDRDA_F = 24 };

/* The pass of a cell: FDRDA/GFDRDA align the fused dot and C rounding down (Step 6); SFMA and GPS are
 * IEEE operations rounded to nearest even; D is f32 or f64 rounded to nearest even. */
static mmaref_pass amd_pass(const amd_cell *cell, mmaref_format d)
{
    mmaref_pass p;
    memset(&p, 0, sizeof p);
    p.algo = cell->algo;
    p.group = cell->group;
    p.flush = cell->flush;
    p.out = d == MMAREF_F64 ? MMAREF_OUT_F64_RNE : MMAREF_OUT_F32_RNE;
    if (cell->algo == MMAREF_ALGO_FDRDA || cell->algo == MMAREF_ALGO_GFDRDA) {
        p.frac_bits = AMD_FDRDA_F;
        p.align_products = p.align_c = MMAREF_RD;
    } else {
        p.align_products = p.align_c = MMAREF_RNE;
    }
    return p;
}

enum { CDNA1, CDNA2, CDNA3, AMD_ARCHS };

typedef struct {
    int m, n, k, blocks;
    const mmaref_format *d, *a, *b;  /* C has D's format; a/b sets give every FP8 mix */
    const char *name[AMD_ARCHS];     /* after "v_mfma_"; %A %B: the AMD names of A's and B's formats */
    amd_cell cell[AMD_ARCHS];
} amd_row;

static const amd_row amd_rows[] = {
    /* FP64 (CDNA2 onward): IEEE FMA chain. */
    {16, 16, 4, 1, F64, F64, F64, {NULL, "f64_16x16x4f64", "f64_16x16x4_f64"}, {NA, SFMA, SFMA}},
    {4, 4, 4, 4, F64, F64, F64, {NULL, "f64_4x4x4f64", "f64_4x4x4_4b_f64"}, {NA, SFMA, SFMA}},
    /* FP32: IEEE FMA chain on every generation. */
    {32, 32, 1, 2, F32, F32, F32, {"f32_32x32x1f32", "f32_32x32x1f32", "f32_32x32x1_2b_f32"}, {SFMA, SFMA, SFMA}},
    {16, 16, 1, 4, F32, F32, F32, {"f32_16x16x1f32", "f32_16x16x1f32", "f32_16x16x1_4b_f32"}, {SFMA, SFMA, SFMA}},
    {4, 4, 1, 16, F32, F32, F32, {"f32_4x4x1f32", "f32_4x4x1f32", "f32_4x4x1_16b_f32"}, {SFMA, SFMA, SFMA}},
    {32, 32, 2, 1, F32, F32, F32, {"f32_32x32x2f32", "f32_32x32x2f32", "f32_32x32x2_f32"}, {SFMA, SFMA, SFMA}},
    {16, 16, 4, 1, F32, F32, F32, {"f32_16x16x4f32", "f32_16x16x4f32", "f32_16x16x4_f32"}, {SFMA, SFMA, SFMA}},
    /* XF32 (CDNA3 only): TF32 operands, Step 0 truncation. */
    {16, 16, 8, 1, F32, XF32, XF32, {NULL, NULL, "f32_16x16x8_xf32"}, {NA, NA, CoFDRDA}},
    {32, 32, 4, 1, F32, XF32, XF32, {NULL, NULL, "f32_32x32x4_xf32"}, {NA, NA, FDRDA}},
    /* FP16: GPS with G = 4 (CDNA1 without flushing, CDNA2 with), FDRDA on CDNA3. */
    {32, 32, 4, 2, F32, F16, F16, {"f32_32x32x4f16", "f32_32x32x4f16", "f32_32x32x4_2b_f16"}, {GPS(4), GPS_FTZ(4), FDRDA}},
    {16, 16, 4, 4, F32, F16, F16, {"f32_16x16x4f16", "f32_16x16x4f16", "f32_16x16x4_4b_f16"}, {GPS(4), GPS_FTZ(4), FDRDA}},
    {4, 4, 4, 16, F32, F16, F16, {"f32_4x4x4f16", "f32_4x4x4f16", "f32_4x4x4_16b_f16"}, {GPS(4), GPS_FTZ(4), FDRDA}},
    {32, 32, 8, 1, F32, F16, F16, {"f32_32x32x8f16", "f32_32x32x8f16", "f32_32x32x8_f16"}, {GPS(4), GPS_FTZ(4), FDRDA}},
    {16, 16, 16, 1, F32, F16, F16, {"f32_16x16x16f16", "f32_16x16x16f16", "f32_16x16x16_f16"},
     {GPS(4), GPS_FTZ(4), CoFDRDA}},
    /* Legacy BF16 (CDNA1, kept by CDNA2, dropped by CDNA3): GPS with G = 2. */
    {32, 32, 2, 2, F32, BF16, BF16, {"f32_32x32x2bf16", "f32_32x32x2bf16", NULL}, {GPS(2), GPS_FTZ(2), NA}},
    {16, 16, 2, 4, F32, BF16, BF16, {"f32_16x16x2bf16", "f32_16x16x2bf16", NULL}, {GPS(2), GPS_FTZ(2), NA}},
    {4, 4, 2, 16, F32, BF16, BF16, {"f32_4x4x2bf16", "f32_4x4x2bf16", NULL}, {GPS(2), GPS_FTZ(2), NA}},
    {32, 32, 4, 1, F32, BF16, BF16, {"f32_32x32x4bf16", "f32_32x32x4bf16", NULL}, {GPS(2), GPS_FTZ(2), NA}},
    {16, 16, 8, 1, F32, BF16, BF16, {"f32_16x16x8bf16", "f32_16x16x8bf16", NULL}, {GPS(2), GPS_FTZ(2), NA}},
    /* BF16 "_1k" (CDNA2, G = 4), renamed on CDNA3 (FDRDA). */
    {32, 32, 4, 2, F32, BF16, BF16, {NULL, "f32_32x32x4bf16_1k", "f32_32x32x4_2b_bf16"}, {NA, GPS_FTZ(4), FDRDA}},
    {16, 16, 4, 4, F32, BF16, BF16, {NULL, "f32_16x16x4bf16_1k", "f32_16x16x4_4b_bf16"}, {NA, GPS_FTZ(4), FDRDA}},
    {4, 4, 4, 16, F32, BF16, BF16, {NULL, "f32_4x4x4bf16_1k", "f32_4x4x4_16b_bf16"}, {NA, GPS_FTZ(4), FDRDA}},
    {32, 32, 8, 1, F32, BF16, BF16, {NULL, "f32_32x32x8bf16_1k", "f32_32x32x8_bf16"}, {NA, GPS_FTZ(4), FDRDA}},
    {16, 16, 16, 1, F32, BF16, BF16, {NULL, "f32_16x16x16bf16_1k", "f32_16x16x16_bf16"}, {NA, GPS_FTZ(4), CoFDRDA}},
    /* FP8 / BF8 (e4m3fnuz / e5m2fnuz, CDNA3), every mix: GFDRDA, chained for K = 32. */
    {16, 16, 32, 1, F32, FP8_BF8, FP8_BF8, {NULL, NULL, "f32_16x16x32_%A_%B"}, {NA, NA, CoGFDRDA}},
    {32, 32, 16, 1, F32, FP8_BF8, FP8_BF8, {NULL, NULL, "f32_32x32x16_%A_%B"}, {NA, NA, GFDRDA}},
};

/* The ISA's name of an operand format. */
static const char *amd_format_name(mmaref_format f)
{
    switch (f) {
    case MMAREF_E4M3FNUZ: return "fp8";
    case MMAREF_E5M2FNUZ: return "bf8";
    case MMAREF_TF32: return "xf32";
    default: return mmaref_format_name(f);
    }
}

/* "v_mfma_" + pattern with %A and %B replaced by the operand formats' ISA names. */
static void amd_name(char *out, size_t cap, const char *pattern, const mmaref_instr *in)
{
    size_t o = (size_t)snprintf(out, cap, "v_mfma_");
    for (const char *p = pattern; *p && o + 1 < cap; p++) {
        const char *piece = NULL;
        if (p[0] == '%' && (p[1] == 'A' || p[1] == 'B'))
            piece = amd_format_name(*++p == 'A' ? in->a : in->b);
        if (!piece) {
            out[o++] = *p;
            continue;
        }
        for (; *piece && o + 1 < cap; piece++)
            out[o++] = *piece;
    }
    out[o] = 0;
}

int isa_amd_each(isa_arch arch, isa_visit_fn visit, void *ctx)
{
    if (arch < ARCH_CDNA1 || arch > ARCH_CDNA3)
        return 0;
    int col = (int)arch - ARCH_CDNA1;
    for (size_t r = 0; r < sizeof amd_rows / sizeof amd_rows[0]; r++) {
        const amd_row *row = &amd_rows[r];
        const amd_cell *cell = &row->cell[col];
        if (!row->name[col] || cell->algo == MMAREF_ALGO_COUNT)
            continue;
        for (const mmaref_format *a = row->a; *a != END; a++)
            for (const mmaref_format *b = row->b; *b != END; b++) {
                mmaref_instr in;
                memset(&in, 0, sizeof in);
                in.arch = isa_arch_names[arch];
                in.m = row->m, in.n = row->n, in.k = row->k, in.blocks = row->blocks;
                in.d = in.c = row->d[0];
                in.a = *a, in.b = *b;
                in.scale = MMAREF_FORMAT_COUNT;
                schedule_split_k(&in, cell->passes, amd_pass(cell, in.d));
                amd_name(in.name, sizeof in.name, row->name[col], &in);
                /* CDNA3 still accepts the CDNA1/CDNA2 spelling of a renamed instruction */
                const char *legacy = row->name[CDNA2] ? row->name[CDNA2] : row->name[CDNA1];
                if (col == CDNA3 && legacy)
                    amd_name(in.sass, sizeof in.sass, legacy, &in);
                if (visit(&in, ctx))
                    return 1;
            }
    }
    return 0;
}
