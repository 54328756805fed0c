/* The M3XU design as instruction data (the M3XU paper, section IV and Fig. 3; docs/m3xu.md): the paper's
 * 8 x 4 x 8 Tensor Core tile, each output element one dot-product unit of L = 8 lanes of 12-bit
 * multipliers, in each of its modes.  One row per mode; this table is the only place the modes'
 * parameters are written.  The FP16/BF16 baseline is Ampere's HMMA arithmetic, taken from the NVIDIA
 * table (isa_nvidia.c) rather than written again. */
#include <stdio.h>
#include <string.h>

#include "algo.h"
#include "isa.h"
#include "schedule.h"

/* The tile: M x N dot-product units. */
enum { M3XU_M = 8, M3XU_N = 4 };

typedef struct {
    int k;              /* products per dot-add: 8 lanes, one FP16 product or half an FP32 one per lane */
    mmaref_format ab;   /* A and B */
    mmaref_format cd;   /* C and D */
    const char *alias;  /* the short name (listed as the instruction's alias) */
} m3xu_row;

static const m3xu_row m3xu_rows[] = {
    /* FP16 / BF16 (baseline), 1 step: 8 products accumulated into f32 exactly as Ampere does. */
    {8, MMAREF_F16, MMAREF_F32, "m3xu.f16"},
    {8, MMAREF_BF16, MMAREF_F32, "m3xu.bf16"},
    /* FP32, 2 steps: a lane pair per product (K = L / 2). */
    {4, MMAREF_F32, MMAREF_F32, "m3xu.f32"},
    /* FP32C, 4 steps: two lane pairs per complex product, real part then imaginary part (K = L / 4). */
    {2, MMAREF_F32C, MMAREF_F32C, "m3xu.f32c"},
};

/* The baseline's pass: the first FDA pass of Ampere's mma.m16n8k16.f32.<ab>.<ab>.f32 (CoFDA, F = 24, RZ,
 * out f32-rz), whose K/2 = 8 products are one M3XU unit's. */
typedef struct {
    char name[96];
    mmaref_pass pass;
    int found;
} ampere_find;

static int find_visit(const mmaref_instr *in, void *p)
{
    ampere_find *f = p;
    if (strcmp(in->name, f->name))
        return 0;
    f->pass = in->pass[0];
    f->found = 1;
    return 1;
}

static mmaref_pass baseline_pass(mmaref_format ab, int k)
{
    ampere_find f;
    memset(&f, 0, sizeof f);
    snprintf(f.name, sizeof f.name, "mma.m16n8k16.f32.%s.%s.f32", mmaref_format_name(ab), mmaref_format_name(ab));
    isa_nvidia_each(ARCH_AMPERE, find_visit, &f);
    f.pass.k_first = 0;
    f.pass.k_count = k;  /* not found: a zero pass, which mmaref_check_schedule refuses */
    return f.pass;
}

/* FP32 and FP32C: one M3XU pass, F_w = 46 (the product register's fractional bits: a product at e_max
 * enters exactly), alignment truncated (RZ), each result part rounded to nearest even. */
static mmaref_pass m3xu_pass(mmaref_format d, int k)
{
    mmaref_pass p;
    memset(&p, 0, sizeof p);
    p.algo = MMAREF_ALGO_M3XU;
    p.k_count = k;
    p.frac_bits = M3XU_PRODUCT_FRAC_BITS;
    p.align_products = p.align_c = MMAREF_RZ;
    p.scales = MMAREF_SCALES_NONE;
    p.out = d == MMAREF_F32C ? MMAREF_OUT_F32C_RNE : MMAREF_OUT_F32_RNE;
    return p;
}

int isa_m3xu_each(isa_arch arch, isa_visit_fn visit, void *ctx)
{
    if (arch != ARCH_M3XU)
        return 0;
    for (size_t r = 0; r < sizeof m3xu_rows / sizeof m3xu_rows[0]; r++) {
        const m3xu_row *row = &m3xu_rows[r];
        mmaref_instr in;
        memset(&in, 0, sizeof in);
        in.arch = isa_arch_names[arch];
        in.m = M3XU_M, in.n = M3XU_N, in.k = row->k, in.blocks = 1;
        in.a = in.b = row->ab;
        in.c = in.d = row->cd;
        in.scale = MMAREF_FORMAT_COUNT;
        in.passes = 1;
        in.pass[0] = row->ab == row->cd ? m3xu_pass(row->cd, row->k) : baseline_pass(row->ab, row->k);
        snprintf(in.name, sizeof in.name, "m3xu.m%dn%dk%d.%s.%s.%s.%s", in.m, in.n, in.k, mmaref_format_name(in.d),
                 mmaref_format_name(in.a), mmaref_format_name(in.b), mmaref_format_name(in.c));
        snprintf(in.sass, sizeof in.sass, "%s", row->alias);
        if (visit(&in, ctx))
            return 1;
    }
    return 0;
}
