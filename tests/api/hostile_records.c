/* Records the library did not make, and NULL pointers, at every public entry point (tests/t_model_schedule.sh).
 *
 * 1. Filled records: all zeros, all 0xff, random bytes.  Every entry point that takes a record refuses
 *    each (MMAREF_ERR_INSTRUCTION from the computing ones, -1, 0, "?" or "reference" from the others) and
 *    reads nothing outside it: the name is not printed when it does not end inside its array.
 * 2. A sealed record with one field changed afterwards to a value the model cannot run (k, a format,
 *    the block size, passes, c_last, a pass's kind, slice, F, output; m, n, blocks; an unterminated name
 *    or SASS alias): refused by every entry point, as in 1.  And every byte of the sealed fields flipped
 *    in turn: each entry point refuses the record exactly when mmaref_check_schedule does (a change the
 *    check accepts is a record it runs, the way `mmaref study` runs FDRDA aligned RZ).
 * 3. NULL for each pointer argument of every public function: an error status, -1, 0 or a harmless
 *    answer, never a dereference.
 * Prints "ok - ..." / "not ok - ..." lines; exits 1 on a failure. */
#include <stdio.h>
#include <stdlib.h>
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
    if (mmaref_lookup(arch, name, &in, msg, sizeof msg) != MMAREF_OK) {
        printf("not ok - lookup %s %s: %s\n", arch, name, msg);
        exit(1);
    }
    return in;
}

/* Operands large enough for any record's tile (MMAREF_MAX_MN x MMAREF_MAX_K); the generator writes them. */
#define TILE (MMAREF_MAX_MN * MMAREF_MAX_K)
static uint64_t A[TILE], B[TILE], C[MMAREF_MAX_MN * MMAREF_MAX_MN], D[MMAREF_MAX_MN * MMAREF_MAX_MN];
static uint64_t SA[TILE], SB[TILE];

static void zero_operands(void)
{
    memset(A, 0, sizeof A), memset(B, 0, sizeof B), memset(C, 0, sizeof C);
    memset(SA, 0, sizeof SA), memset(SB, 0, sizeof SB);
}

/* Which entry points refuse `in`: a bit per entry point, all set when every one refuses it.  msg gets the
 * first refusal's message. */
enum { ENTRY_POINTS = 14, ALL_REFUSE = (1 << ENTRY_POINTS) - 1 };

static int refusals(const mmaref_instr *in, char *first, size_t cap)
{
    char msg[512] = "";
    uint64_t d = 0, hit[MMAREF_COV_MAX_BINS] = {0};
    int r = 0, bit = 0, n = 0;
    mmaref_dots x = {{C, 1, 0}, {A, MMAREF_MAX_K, 1}, {B, MMAREF_MAX_K, 1}, {SA, MMAREF_MAX_SCALES, 1},
                     {SB, MMAREF_MAX_SCALES, 1}};
    mmaref_trace_line lines[4];
    mmaref_gemm_options one = {.kind = MMAREF_ACC_SERIAL, .threads = 1};
    FILE *null_out = fopen("/dev/null", "w");
#define REFUSED(cond) (r |= (cond) << bit++)
    REFUSED(mmaref_check_schedule(in, msg, sizeof msg) == MMAREF_ERR_INSTRUCTION);
    if (first && cap)
        snprintf(first, cap, "%s", msg);
    REFUSED(mmaref_dot(in, 0, A, B, SA, SB, &d, msg, sizeof msg) == MMAREF_ERR_INSTRUCTION);
    REFUSED(mmaref_dot_batch(in, 3, &x, D, msg, sizeof msg) == MMAREF_ERR_INSTRUCTION);
    REFUSED(mmaref_mma(in, A, B, C, SA, SB, D, msg, sizeof msg) == MMAREF_ERR_INSTRUCTION);
    REFUSED(mmaref_explain(in, 0, A, B, SA, SB, lines, 4, &n, &d, msg, sizeof msg) == MMAREF_ERR_INSTRUCTION);
    REFUSED(mmaref_gemm(in, 1, 1, 1, A, B, C, SA, SB, D, &one, msg, sizeof msg) == MMAREF_ERR_INSTRUCTION);
    REFUSED(mmaref_scale_count(in) == 0);
    REFUSED(!strcmp(mmaref_simd_path(in), "reference"));
    REFUSED(mmaref_gen_vector(in, MMAREF_GEN_MIXED, 1, 0, C, A, B, SA, SB) == -1);
    REFUSED(mmaref_gen_tile(in, MMAREF_GEN_RANDOM, 1, 0, C, A, B, SA, SB) == -1);
    REFUSED(mmaref_gen_directed_count(in) == 0 && !strcmp(mmaref_gen_directed_label(in, 0), "?"));
    REFUSED(mmaref_cov_bins(in, NULL, 0) == -1);
    REFUSED(mmaref_cov_classify(in, 0, A, B, SA, SB, 0, hit) == -1);
    REFUSED(mmaref_cov_print(null_out, in, hit, NULL) == -1);
#undef REFUSED
    char name[64];
    mmaref_schedule_name(in, name, sizeof name); /* any name, read inside the record */
    fclose(null_out);
    return r;
}

static const char *const entry_names[ENTRY_POINTS] = {
    "mmaref_check_schedule", "mmaref_dot", "mmaref_dot_batch", "mmaref_mma", "mmaref_explain", "mmaref_gemm",
    "mmaref_scale_count", "mmaref_simd_path", "mmaref_gen_vector", "mmaref_gen_tile", "mmaref_gen_directed_*",
    "mmaref_cov_bins", "mmaref_cov_classify", "mmaref_cov_print"};

static void all_refuse(const mmaref_instr *in, const char *what)
{
    char msg[512], detail[768];
    int r = refusals(in, msg, sizeof msg);
    int missing = 0;
    while (missing < ENTRY_POINTS && (r >> missing & 1))
        missing++;
    snprintf(detail, sizeof detail, "%s accepts it (the check says '%s')",
             missing < ENTRY_POINTS ? entry_names[missing] : "?", msg);
    check(r == ALL_REFUSE, what, detail);
}

/* ---- 1. filled records ---- */

static void filled(void)
{
    mmaref_instr in;
    memset(&in, 0, sizeof in);
    all_refuse(&in, "a record of zero bytes is refused by every entry point");
    memset(&in, 0xff, sizeof in);
    all_refuse(&in, "a record of 0xff bytes is refused by every entry point (its name does not end)");
    uint64_t state = 7;
    int accepted = 0;
    enum { RANDOM_FILLS = 2000 };
    for (int i = 0; i < RANDOM_FILLS; i++) {
        unsigned char *p = (unsigned char *)&in;
        for (size_t j = 0; j < sizeof in; j++)
            p[j] = (unsigned char)mmaref_rand(&state);
        if (i % 2) /* half with names that end, so that the check reaches the other fields */
            in.name[5] = in.sass[5] = 0;
        accepted += refusals(&in, NULL, 0) != ALL_REFUSE;
    }
    char detail[64], what[128];
    snprintf(detail, sizeof detail, "%d accepted by some entry point", accepted);
    snprintf(what, sizeof what, "%d records of random bytes are refused by every entry point", RANDOM_FILLS);
    check(accepted == 0, what, detail);
    /* a table record's bytes with the copy filled to match them (the pre-seal skip): refused */
    in = lookup("hopper", "mma.m16n8k16.f32.f16.f16.f32");
    memcpy(in.checked, &in.k, sizeof in.checked);
    memset(&in.k, 0, sizeof in.checked), memset(in.checked, 0, sizeof in.checked);
    all_refuse(&in, "a table record whose k .. pass[] and copy are both zeroed is refused");
}

/* ---- 2. a sealed record, changed ---- */

typedef struct {
    const char *what;
    void (*change)(mmaref_instr *in);
} change;

static void k0(mmaref_instr *in) { in->k = 0; }
static void k65(mmaref_instr *in) { in->k = MMAREF_MAX_K + 1; }
static void a_bad(mmaref_instr *in) { in->a = (mmaref_format)-1; }
static void d_bad(mmaref_instr *in) { in->d = MMAREF_FORMAT_COUNT; }
static void block_bad(mmaref_instr *in) { in->block_size = -1; }
static void passes0(mmaref_instr *in) { in->passes = 0; }
static void passes9(mmaref_instr *in) { in->passes = MMAREF_MAX_PASSES + 1; }
static void c_last2(mmaref_instr *in) { in->c_last = 2; }
static void algo_bad(mmaref_instr *in) { in->pass[0].algo = MMAREF_ALGO_COUNT; }
static void slice_bad(mmaref_instr *in) { in->pass[0].k_count = in->k + 1; }
static void f_bad(mmaref_instr *in) { in->pass[0].frac_bits = 1000; }
static void out_bad(mmaref_instr *in) { in->pass[0].out = (mmaref_output)-7; }
static void m0(mmaref_instr *in) { in->m = 0; }
static void n_big(mmaref_instr *in) { in->n = MMAREF_MAX_MN + 1; }
static void blocks_bad(mmaref_instr *in) { in->blocks = -1; }
static void name_open(mmaref_instr *in) { memset(in->name, 'x', sizeof in->name); }
static void sass_open(mmaref_instr *in) { memset(in->sass, 'y', sizeof in->sass); }

static const change changes[] = {
    {"k = 0", k0}, {"k = MMAREF_MAX_K + 1", k65}, {"a = -1", a_bad}, {"d = MMAREF_FORMAT_COUNT", d_bad},
    {"block_size = -1", block_bad}, {"passes = 0", passes0}, {"passes = MMAREF_MAX_PASSES + 1", passes9},
    {"c_last = 2", c_last2}, {"pass[0].algo out of range", algo_bad}, {"pass[0].k_count = K + 1", slice_bad},
    {"pass[0].frac_bits = 1000", f_bad}, {"pass[0].out = -7", out_bad}, {"m = 0", m0},
    {"n = MMAREF_MAX_MN + 1", n_big}, {"blocks = -1", blocks_bad}, {"a name without its terminating zero", name_open},
    {"a SASS alias without its terminating zero", sass_open},
};

static void changed(void)
{
    static const char *const instrs[][2] = {
        {"hopper", "mma.m16n8k16.f32.f16.f16.f32"}, {"cdna3", "v_mfma_f32_16x16x32_fp8_bf8"},
        {"blackwell", "tcgen05.mma.m128n8k32.block32.f32.e4m3.e4m3.ue8m0"}, {"hopper", "mma.m16n8k4.f64.f64.f64.f64"},
    };
    for (size_t i = 0; i < sizeof instrs / sizeof instrs[0]; i++) {
        const mmaref_instr sealed = lookup(instrs[i][0], instrs[i][1]);
        for (size_t c = 0; c < sizeof changes / sizeof changes[0]; c++) {
            mmaref_instr in = sealed;
            changes[c].change(&in);
            char what[256];
            snprintf(what, sizeof what, "%s %s sealed, then %s: refused by every entry point", instrs[i][0],
                     instrs[i][1], changes[c].what);
            all_refuse(&in, what);
        }
        /* every byte of m .. pass[passes - 1], XOR-ed with a few masks: the entry points agree with the check */
        size_t from = offsetof(mmaref_instr, m), to = offsetof(mmaref_instr, pass) +
                                                     (size_t)sealed.passes * sizeof(mmaref_pass);
        static const unsigned char masks[] = {0x01, 0x80, 0xff, 0xa5};
        int disagree = 0, refused = 0, tried = 0;
        char first[256] = "";
        for (size_t b = from; b < to; b++)
            for (size_t m = 0; m < sizeof masks; m++) {
                mmaref_instr in = sealed;
                ((unsigned char *)&in)[b] ^= masks[m];
                int r = refusals(&in, NULL, 0), check_refuses = r & 1;
                tried++;
                refused += check_refuses;
                /* the check refuses: so does every entry point; it accepts: the computing ones run it */
                int agree = check_refuses ? r == ALL_REFUSE : !(r & 0x3e);
                if (!agree && disagree++ == 0)
                    snprintf(first, sizeof first, "byte %zu ^ 0x%02x: refusals 0x%x", b, masks[m], (unsigned)r);
            }
        char what[256], detail[320];
        snprintf(what, sizeof what, "%s %s sealed, each of %d one-byte changes of m .. pass[]: the check refuses %d, "
                 "and every entry point refuses exactly those", instrs[i][0], instrs[i][1], tried, refused);
        snprintf(detail, sizeof detail, "%d disagree; first: %s", disagree, first);
        check(!disagree && refused > 0, what, detail);
    }
    /* a change the check accepts runs: FDRDA aligned RZ (the paper's variant `mmaref study` runs) */
    zero_operands();
    mmaref_instr rz = lookup("cdna3", "v_mfma_f32_16x16x32_fp8_bf8");
    for (int i = 0; i < rz.passes; i++)
        rz.pass[i].align_products = rz.pass[i].align_c = MMAREF_RZ;
    uint64_t d = 1;
    char msg[256] = "";
    check(mmaref_dot(&rz, 0, A, B, NULL, NULL, &d, msg, sizeof msg) == MMAREF_OK && d == 0,
          "a sealed record changed to a schedule the check accepts (FDRDA aligned RZ) runs: 0 + 0 = +0", msg);
}

/* ---- 3. NULL pointers ---- */

static void null_pointers(void)
{
    zero_operands();
    mmaref_instr in = lookup("hopper", "mma.m16n8k16.f32.f16.f16.f32");
    mmaref_instr sc = lookup("blackwell", "tcgen05.mma.m128n8k32.block32.f32.e4m3.e4m3.ue8m0");
    uint64_t d, hit[MMAREF_COV_MAX_BINS] = {0};
    char msg[256], buf[32];
    int n = 0;
    mmaref_trace_line lines[2];
    mmaref_dots x = mmaref_dots_rows(&in, C, A, B, NULL, NULL), no_a = x;
    no_a.a.p = NULL;
    struct { const char *what; int ok; } t[] = {
        {"mmaref_arch_canonical(NULL) is NULL", mmaref_arch_canonical(NULL) == NULL},
        {"mmaref_lookup(NULL arch)", mmaref_lookup(NULL, "x", &in, msg, sizeof msg) == MMAREF_ERR_ARCH},
        {"mmaref_lookup(NULL name)", mmaref_lookup("hopper", NULL, &in, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_lookup(NULL out)",
         mmaref_lookup("hopper", "HMMA.16816.F32", NULL, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_lookup(NULL msg)", mmaref_lookup("nope", "x", &in, NULL, 0) == MMAREF_ERR_ARCH},
        {"mmaref_list(NULL arch, NULL out, 5) counts", mmaref_list(NULL, NULL, 5) > 1000},
        {"mmaref_scale_count(NULL) is 0", mmaref_scale_count(NULL) == 0},
        {"mmaref_dot(NULL in)", mmaref_dot(NULL, 0, A, B, NULL, NULL, &d, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_dot(NULL a)", mmaref_dot(&in, 0, NULL, B, NULL, NULL, &d, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_dot(NULL b)", mmaref_dot(&in, 0, A, NULL, NULL, NULL, &d, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_dot(NULL d)", mmaref_dot(&in, 0, A, B, NULL, NULL, NULL, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_dot(NULL scales) of a scaled instruction",
         mmaref_dot(&sc, 0, A, B, NULL, SB, &d, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_dot_batch(NULL in)", mmaref_dot_batch(NULL, 1, &x, D, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_dot_batch(NULL x)", mmaref_dot_batch(&in, 1, NULL, D, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_dot_batch(NULL d)", mmaref_dot_batch(&in, 1, &x, NULL, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_dot_batch(x.a.p NULL)", mmaref_dot_batch(&in, 1, &no_a, D, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_simd_path(NULL) is reference", !strcmp(mmaref_simd_path(NULL), "reference")},
        {"mmaref_mma(NULL in)", mmaref_mma(NULL, A, B, C, NULL, NULL, D, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_mma(NULL A)", mmaref_mma(&in, NULL, B, C, NULL, NULL, D, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_mma(NULL D)", mmaref_mma(&in, A, B, C, NULL, NULL, NULL, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_mma(NULL SA) of a scaled instruction",
         mmaref_mma(&sc, A, B, C, NULL, SB, D, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_explain(NULL in)",
         mmaref_explain(NULL, 0, A, B, NULL, NULL, lines, 2, &n, &d, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_explain(NULL count)",
         mmaref_explain(&in, 0, A, B, NULL, NULL, lines, 2, NULL, &d, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_explain(NULL lines, cap 2)",
         mmaref_explain(&in, 0, A, B, NULL, NULL, NULL, 2, &n, &d, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_gemm(NULL in)",
         mmaref_gemm(NULL, 1, 1, 1, A, B, NULL, NULL, NULL, D, NULL, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_gemm(NULL A)",
         mmaref_gemm(&in, 1, 1, 1, NULL, B, NULL, NULL, NULL, D, NULL, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_gemm(NULL D)",
         mmaref_gemm(&in, 1, 1, 1, A, B, NULL, NULL, NULL, NULL, NULL, msg, sizeof msg) == MMAREF_ERR_ARGUMENT},
        {"mmaref_format_by_name(NULL)", mmaref_format_by_name(NULL) == MMAREF_FORMAT_COUNT},
        {"mmaref_format_from_double(NULL raw)",
         mmaref_format_from_double(MMAREF_F16, 1.0, NULL) == MMAREF_ERR_ARGUMENT},
        {"mmaref_format_round_double(NULL raw)",
         mmaref_format_round_double(MMAREF_F16, 1.0, NULL) == MMAREF_ERR_ARGUMENT},
        {"mmaref_format_join_parts(NULL) is 0", mmaref_format_join_parts(MMAREF_F32C, NULL) == 0},
        {"mmaref_format_get_info(NULL)", mmaref_format_get_info(MMAREF_F16, NULL) == MMAREF_ERR_ARGUMENT},
        {"mmaref_check_schedule(NULL)", mmaref_check_schedule(NULL, msg, sizeof msg) == MMAREF_ERR_INSTRUCTION},
        {"mmaref_rand(NULL) is 0", mmaref_rand(NULL) == 0},
        {"mmaref_gen_kind_by_name(NULL)", mmaref_gen_kind_by_name(NULL) == MMAREF_GEN_KIND_COUNT},
        {"mmaref_gen_directed_count(NULL) is 0", mmaref_gen_directed_count(NULL) == 0},
        {"mmaref_gen_directed_label(NULL) is ?", !strcmp(mmaref_gen_directed_label(NULL, 0), "?")},
        {"mmaref_gen_vector(NULL in)", mmaref_gen_vector(NULL, MMAREF_GEN_RAW, 1, 0, C, A, B, NULL, NULL) == -1},
        {"mmaref_gen_vector(NULL a)", mmaref_gen_vector(&in, MMAREF_GEN_RAW, 1, 0, C, NULL, B, NULL, NULL) == -1},
        {"mmaref_gen_vector(NULL c)", mmaref_gen_vector(&in, MMAREF_GEN_RAW, 1, 0, NULL, A, B, NULL, NULL) == -1},
        {"mmaref_gen_vector(NULL scales) of a scaled instruction",
         mmaref_gen_vector(&sc, MMAREF_GEN_RAW, 1, 0, C, A, B, NULL, NULL) == -1},
        {"mmaref_gen_tile(NULL B)", mmaref_gen_tile(&in, MMAREF_GEN_RAW, 1, 0, C, A, NULL, NULL, NULL) == -1},
        {"mmaref_cov_bins(NULL in)", mmaref_cov_bins(NULL, NULL, 0) == -1},
        {"mmaref_cov_bins(NULL bins, cap 4)", mmaref_cov_bins(&in, NULL, 4) == -1},
        {"mmaref_cov_classify(NULL a)", mmaref_cov_classify(&in, 0, NULL, B, NULL, NULL, 0, hit) == -1},
        {"mmaref_cov_classify(NULL hit)", mmaref_cov_classify(&in, 0, A, B, NULL, NULL, 0, NULL) == -1},
        {"mmaref_cov_print(NULL out)", mmaref_cov_print(NULL, &in, hit, NULL) == -1},
        {"mmaref_cov_print(NULL hit)", mmaref_cov_print(stdout, &in, NULL, NULL) == -1},
    };
    mmaref_schedule_name(NULL, buf, sizeof buf);
    mmaref_schedule_name(&in, NULL, 8);
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!t[i].ok)
            check(0, t[i].what, "not refused");
    char what[160];
    snprintf(what, sizeof what, "NULL for a pointer argument: %zu calls refused or answered harmlessly, "
             "mmaref_schedule_name(NULL) is \"%s\"", sizeof t / sizeof t[0], buf);
    check(!strcmp(buf, "?"), what, buf);
}

int main(void)
{
    filled();
    changed();
    null_pointers();
    return failures != 0;
}
