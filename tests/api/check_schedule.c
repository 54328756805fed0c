/* The public API's schedule, checked from outside the library (tests/t_model_schedule.sh): a table entry's
 * passes, a copied and changed record (the way `mmaref study` runs the RZ variant of FDRDA), and the
 * rejection of schedules the model cannot run.  Every expected value is derived in the comment beside
 * it.  Prints "ok - ..." / "not ok - ..." lines. */
#include <stdio.h>
#include <string.h>

#include "mmaref.h"

static int failures;

static void check(int cond, const char *what, const char *detail)
{
    printf("%s - %s%s%s\n", cond ? "ok" : "not ok", what, cond ? "" : ": ", cond ? "" : detail);
    failures += !cond;
}

static mmaref_instr lookup(const char *arch, const char *name)
{
    mmaref_instr in;
    char msg[512];
    memset(&in, 0, sizeof in);
    if (mmaref_lookup(arch, name, &in, msg, sizeof msg))
        check(0, name, msg);
    return in;
}

/* The record is rejected with a message containing `want`. */
static void rejected(const mmaref_instr *in, const char *what, const char *want)
{
    char msg[512] = "";
    uint64_t a[MMAREF_MAX_K] = {0}, b[MMAREF_MAX_K] = {0}, d = 0;
    mmaref_status st = mmaref_dot(in, 0, a, b, NULL, NULL, &d, msg, sizeof msg);
    char detail[700];
    snprintf(detail, sizeof detail, "status %d, message '%s', wanted one containing '%s'", st, msg, want);
    check(st == MMAREF_ERR_INSTRUCTION && strstr(msg, want), what, detail);
}

int main(void)
{
    char detail[256];

    /* Ampere HMMA.16816.F32 is CoFDA (the MMA-Sim paper, Table III): two FDA passes over k = 0..7 and 8..15, F = 24. */
    mmaref_instr co = lookup("ampere", "mma.m16n8k16.f32.f16.f16.f32");
    snprintf(detail, sizeof detail, "passes %d, slices %d+%d, %d+%d, F %d", co.passes, co.pass[0].k_first,
             co.pass[0].k_count, co.pass[1].k_first, co.pass[1].k_count, co.pass[0].frac_bits);
    check(co.passes == 2 && co.pass[0].k_first == 0 && co.pass[0].k_count == 8 && co.pass[1].k_first == 8 &&
          co.pass[1].k_count == 8 && co.pass[0].frac_bits == 24 && co.pass[1].algo == MMAREF_ALGO_FDA,
          "ampere CoFDA is two FDA passes over the halves of K", detail);

    /* Hopper's is one FDA pass, F = 25. */
    mmaref_instr h = lookup("hopper", "mma.m16n8k16.f32.f16.f16.f32");
    check(h.passes == 1 && h.pass[0].k_count == 16 && h.pass[0].frac_bits == 25, "hopper FDA is one pass, F = 25",
          "");

    /* FDRDA on CDNA3 rounds the alignment down; the RZ copy is the paper's hypothetical _rz instruction.
     * a = (1, 0...), b = (1, 0...), c = -2^-40: s_dot = 1 at e_dot = 0; c aligned to e_max = 0 at 24
     * fractional bits is -2^-16 units: RD gives -1 unit (-2^-24), RZ gives 0.  D = 1 - 2^-24 = 0x3f7fffff
     * (exact in f32) with RD, 1.0 = 0x3f800000 with RZ. */
    mmaref_instr rd = lookup("cdna3", "v_mfma_f32_32x32x8_f16"), rz = rd;
    for (int i = 0; i < rz.passes; i++)
        rz.pass[i].align_products = rz.pass[i].align_c = MMAREF_RZ;
    uint64_t a[MMAREF_MAX_K] = {0x3c00}, b[MMAREF_MAX_K] = {0x3c00}, c = 0xAB800000; /* -2^-40 */
    uint64_t d_rd = 0, d_rz = 0;
    mmaref_status s1 = mmaref_dot(&rd, c, a, b, NULL, NULL, &d_rd, NULL, 0);
    mmaref_status s2 = mmaref_dot(&rz, c, a, b, NULL, NULL, &d_rz, NULL, 0);
    snprintf(detail, sizeof detail, "status %d/%d, RD 0x%llx, RZ 0x%llx", s1, s2, (unsigned long long)d_rd,
             (unsigned long long)d_rz);
    check(!s1 && !s2 && d_rd == 0x3f7fffff && d_rz == 0x3f800000, "FDRDA with the schedule's alignment RD vs RZ",
          detail);

    /* Schedules the model cannot run are refused, naming the field. */
    mmaref_instr x = co;
    x.pass[1].k_first = 7;
    rejected(&x, "a pass that does not start where the last ended", "pass 1 takes 8 products from 7");
    x = co;
    x.passes = 1;
    rejected(&x, "passes that do not cover K", "cover 8 of K = 16");
    x = h;
    x.pass[0].align_products = MMAREF_RD;
    rejected(&x, "FDA with round-down alignment (not implemented)", "FDA does not implement products aligned rd");
    x = h;
    x.k = MMAREF_MAX_K + 1;
    x.pass[0].k_count = x.k;
    rejected(&x, "K above MMAREF_MAX_K", "outside 1..64 (MMAREF_MAX_K)");
    x = h;
    x.passes = MMAREF_MAX_PASSES + 1;
    rejected(&x, "more passes than MMAREF_MAX_PASSES", "9 passes (1..8)");
    x = lookup("cdna2", "v_mfma_f32_32x32x8f16");
    x.pass[0].group = 3;
    rejected(&x, "a GPS group that does not divide the pass", "group G = 3 does not divide its 8 products");
    x = h;
    x.pass[0].out = MMAREF_OUT_F16_RNE;
    rejected(&x, "a last pass writing another format than D", "the last pass writes f16-rne, D is f32");

    /* M3XU (docs/m3xu.md) runs f32 or f32c operands, F up to the product register's 46, output RNE. */
    mmaref_instr m3 = lookup("m3xu", "m3xu.f32");
    x = m3;
    x.a = x.b = MMAREF_F16;
    rejected(&x, "M3XU with f16 operands", "pass 0: M3XU with output f32-rne does not take f16 x f16 operands");
    x = m3;
    x.pass[0].frac_bits = 47;
    rejected(&x, "M3XU with F = 47", "F = 47 is outside 1..46 for M3XU");
    x = m3;
    x.pass[0].out = MMAREF_OUT_F32_RZ;
    rejected(&x, "M3XU rounding toward zero", "M3XU does not implement products aligned rz, C aligned rz, scales none, output f32-rz");
    /* The measured mma.sync FP8 schedule's fields: runs of products, operands as f16, C added last, a
     * zero term's own exponent. */
    mmaref_instr q = lookup("hopper", "mma.m16n8k32.f32.e4m3.e5m2.f32");
    x = q;
    x.pass[1].k_first = 1;
    rejected(&x, "a pass whose runs meet the other pass's products", "pass 1 takes 16 products from 1 (runs of 2, 4 apart)");
    x = q;
    x.pass[0].k_stride = 1;
    rejected(&x, "runs closer than their length", "pass 0 takes 16 products from 0 (runs of 2, 1 apart)");
    x = q;
    x.pass[0].k_run = 3;
    rejected(&x, "runs that do not divide the pass", "the runs do not fit");
    x = q;
    x.c = MMAREF_F16;
    rejected(&x, "C added last in another format than D's", "c_last = 1: C is added last only as 1, with C in D's format");
    x = q;
    x.c_last = 2;
    rejected(&x, "c_last other than 0 or 1", "c_last = 2");
    x = h;
    x.a = x.b = MMAREF_BF16;
    x.pass[0].ab_f16 = 1;
    rejected(&x, "bf16 operands taken as f16 (not exact)", "pass 0: FDA does not implement");
    x = lookup("rtx-blackwell", "mma.m16n8k64.block16.f32.e2m1.e2m1.f32.ue8m0");
    x.pass[0].zero_term_exp = -133;
    rejected(&x, "a zero term's exponent on a GDFS pass", "only an FDA pass without scales takes one");
    x = h;
    x.pass[0].zero_term_exp = -126;
    rejected(&x, "a zero term's exponent not below -126", "zero_term_exp = -126");

    /* A record built at run time: one M3XU pass over K = 8 (a naive FP32 unit of 8 lanes).  Lanes 0-3
     * (1 + 2^-23)(1 + 2^-22) = 1 + 2^-22 + 2^-23 + 2^-45, lanes 4-7 (-1)(1), c = 0: e_max = 0 keeps every
     * product bit, sum 4 (2^-22 + 2^-23 + 2^-45) = 2^-20 + 2^-21 + 2^-43: 0x35800000 | 2^-1 relative
     * (0x400000) | the last bit (2^-43 = 2^-20 * 2^-23): 0x35c00001. */
    x = m3;
    x.k = x.pass[0].k_count = 8;
    uint64_t ma[8] = {0x3f800001, 0x3f800001, 0x3f800001, 0x3f800001, 0xbf800000, 0xbf800000, 0xbf800000, 0xbf800000};
    uint64_t mb[8] = {0x3f800002, 0x3f800002, 0x3f800002, 0x3f800002, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000};
    uint64_t md = 0;
    mmaref_status ms = mmaref_dot(&x, 0, ma, mb, NULL, NULL, &md, NULL, 0);
    snprintf(detail, sizeof detail, "status %d, d 0x%llx", ms, (unsigned long long)md);
    check(!ms && md == 0x35c00001, "an M3XU pass over K = 8 built at run time", detail);

    /* mmaref_mma checks the schedule too. */
    x = h;
    x.pass[0].k_count = 15;
    char msg[256] = "";
    uint64_t A[16] = {0}, B[16 * 8] = {0}, C[16 * 8] = {0}, D[16 * 8];
    x.m = 1, x.n = 8;
    check(mmaref_mma(&x, A, B, C, NULL, NULL, D, msg, sizeof msg) == MMAREF_ERR_INSTRUCTION,
          "mmaref_mma refuses a bad schedule", msg);

    /* Names of the schedule. */
    char name[32];
    mmaref_schedule_name(&co, name, sizeof name);
    check(!strcmp(name, "CoFDA"), "two FDA passes are named CoFDA", name);
    mmaref_instr g = lookup("cdna3", "v_mfma_f32_16x16x32_fp8_bf8");
    mmaref_schedule_name(&g, name, sizeof name);
    check(!strcmp(name, "CoGFDRDA") && g.pass[0].align_c == MMAREF_RD, "cdna3 K=32 fp8 is CoGFDRDA, C aligned RD",
          name);

    /* TF32 keeps 10 mantissa bits; round once, at those.  1 + 2^-11 + 2^-40 is above half a TF32 ulp
     * (2^-10) past 1: nearest is 1 + 2^-10 = 0x3f800000 | 1 << 13 = 0x3f802000 (rounding first to f32
     * drops 2^-40 and then ties to even, 0x3f800000: the old defect).  1 + 2^-11 is a tie: even,
     * 0x3f800000.  1 + 3 * 2^-11 ties between 1 + 2^-10 and 1 + 2^-9; even is 1 + 2^-9 = 0x3f804000. */
    struct { double x; uint64_t want; } tf32[] = {
        {1 + 0x1p-11 + 0x1p-40, 0x3f802000}, {1 + 0x1p-11, 0x3f800000}, {1 + 3 * 0x1p-11, 0x3f804000},
        {-(1 + 0x1p-11 + 0x1p-40), 0xbf802000},
    };
    for (size_t i = 0; i < sizeof tf32 / sizeof tf32[0]; i++) {
        uint64_t bits = 0;
        mmaref_status st = mmaref_format_round_double(MMAREF_TF32, tf32[i].x, &bits);
        snprintf(detail, sizeof detail, "%a -> 0x%llx, expected 0x%llx", tf32[i].x, (unsigned long long)bits,
                 (unsigned long long)tf32[i].want);
        check(!st && bits == tf32[i].want, "tf32 rounds once to nearest even at 10 mantissa bits", detail);
    }
    /* An exact TF32 value converts; one with an 11th mantissa bit does not. */
    uint64_t bits = 0;
    check(mmaref_format_from_double(MMAREF_TF32, 1 + 0x1p-10, &bits) == MMAREF_OK && bits == 0x3f802000,
          "tf32 1 + 2^-10 is exact", "");
    check(mmaref_format_from_double(MMAREF_TF32, 1 + 0x1p-11, &bits) == MMAREF_ERR_VALUE,
          "tf32 1 + 2^-11 is not exact", "");

    /* Format fields from the one table: f16 is IEEE binary16; tf32 keeps 10 of its 23 mantissa bits. */
    /* f16 is IEEE binary16: largest finite 65504 = 0x7bff, +inf 0x7c00, NaN 0x7fff. */
    mmaref_format_info f16;
    check(!mmaref_format_get_info(MMAREF_F16, &f16) && f16.width == 16 && f16.exp_bits == 5 && f16.man_bits == 10 &&
          f16.bias == 15 && f16.specials == MMAREF_SPECIALS_IEEE && f16.max_finite == 0x7bff && f16.inf == 0x7c00 &&
          f16.nan == 0x7fff, "f16 fields", "");
    check(mmaref_format_precision(MMAREF_TF32) == 10 && mmaref_format_get_info(MMAREF_FORMAT_COUNT, &f16),
          "tf32 precision 10; an unknown code has no fields", "");
    /* f32c: two f32 parts, real in the low 32 bits.  1 + 2i = 0x40000000_3f800000; the format's special
     * values are f32's in both parts; a real value converts to value + 0i; only a real f32c has a double. */
    mmaref_format_info fc;
    uint64_t z = 0, parts[2] = {0x3f800000, 0x40000000};
    check(mmaref_format_parts(MMAREF_F32C) == 2 && mmaref_format_part(MMAREF_F32C) == MMAREF_F32 &&
          mmaref_format_parts(MMAREF_F16) == 1 && mmaref_format_part(MMAREF_F16) == MMAREF_F16 &&
          mmaref_format_join_parts(MMAREF_F32C, parts) == 0x400000003f800000ULL &&
          mmaref_format_part_bits(MMAREF_F32C, 0x400000003f800000ULL, 1) == 0x40000000 &&
          mmaref_format_part_bits(MMAREF_F32C, 0x400000003f800000ULL, 2) == 0,
          "f32c parts: real low, imaginary high", "");
    check(!mmaref_format_get_info(MMAREF_F32C, &fc) && fc.width == 64 && fc.parts == 2 && fc.part == MMAREF_F32 &&
          fc.man_bits == 23 && fc.nan == 0x7fffffff7fffffffULL && fc.inf == 0x7f8000007f800000ULL &&
          fc.max_finite == 0x7f7fffff7f7fffffULL, "f32c fields: f32's, in both parts", "");
    check(!mmaref_format_from_double(MMAREF_F32C, 1.5, &z) && z == 0x3fc00000 &&
          mmaref_format_to_double(MMAREF_F32C, 0x800000003fc00000ULL) == 1.5 &&
          mmaref_format_to_double(MMAREF_F32C, 0x400000003f800000ULL) != mmaref_format_to_double(MMAREF_F32C, 0x400000003f800000ULL),
          "f32c from and to a double: 1.5 + 0i; 1 + 2i has none", "");
    /* A format code outside the enum is refused, never read out of the table. */
    uint64_t raw = 7;
    check(mmaref_format_width((mmaref_format)99) == 0 && !mmaref_format_valid_bits((mmaref_format)99, 0) &&
          mmaref_format_round_double((mmaref_format)99, 1.0, &raw) == MMAREF_ERR_ARGUMENT && raw == 7 &&
          mmaref_format_from_double((mmaref_format)-1, 1.0, &raw) == MMAREF_ERR_ARGUMENT &&
          mmaref_format_to_double((mmaref_format)99, 0) != mmaref_format_to_double((mmaref_format)99, 0),
          "format functions refuse an unknown code", "");
    return failures != 0;
}
