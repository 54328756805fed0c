/* mmaref: bit-accurate golden model of GPU matrix units (NVIDIA Tensor Cores, AMD Matrix Cores).
 *
 * Bits in, bits out: every operand and result is a raw bit pattern of its format, carried in a
 * uint64_t (low bits; FP4/FP6 values one per element, in the low bits).  The library is pure and
 * thread-safe: no global mutable state, no exit(), no allocation that outlives a call.  Errors are
 * returned as a status plus a message written into a caller-supplied buffer. */
#ifndef MMAREF_H
#define MMAREF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden visibility; only what is marked here is exported. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* The model's version: MMAREF_VERSION is the header's, mmaref_version() that of the library that runs
 * (they differ when a program meets another libmmaref.so), so that a reference result can name the
 * model that made it.  `mmaref --version` and pkg-config's mmaref.pc (mk/install.mk) read it here. */
#define MMAREF_VERSION "0.1.0"
const char *mmaref_version(void);

typedef enum {
    MMAREF_OK = 0,
    MMAREF_ERR_ARCH,        /* unknown architecture */
    MMAREF_ERR_INSTRUCTION, /* unknown instruction, or one the architecture lacks */
    MMAREF_ERR_ARGUMENT,    /* bad argument: null pointer, missing scales, bad size */
    MMAREF_ERR_VALUE        /* a value not representable in its format */
} mmaref_status;

/* Number formats (docs/algorithms.md lists their encodings). */
typedef enum {
    MMAREF_F64, MMAREF_F32, MMAREF_TF32, MMAREF_F16, MMAREF_BF16,
    MMAREF_E4M3, MMAREF_E5M2, MMAREF_E3M2, MMAREF_E2M3, MMAREF_E2M1,
    MMAREF_UE8M0, MMAREF_UE4M3, MMAREF_E4M3FNUZ, MMAREF_E5M2FNUZ,
    MMAREF_F32C, /* complex: two f32 parts in 64 bits, real in the low 32, imaginary in the high 32 */
    MMAREF_FORMAT_COUNT
} mmaref_format;

/* Limits of every instruction in the table: the longest dot-add (K = 64: Blackwell FP4), the most block
 * scales per operand, the most passes.  mmaref_check_schedule holds every entry to them
 * (tests/t_model_schedule.sh). */
#define MMAREF_MAX_K 64
#define MMAREF_MAX_SCALES 4
#define MMAREF_MAX_PASSES 8
/* The largest tile side (m, n: wgmma's N = 256) and the most concurrent MMAs in one instruction (AMD's
 * _16b); every record's m, n and blocks lie in 1 .. these. */
#define MMAREF_MAX_MN 256
#define MMAREF_MAX_BLOCKS 16

/* The summation kinds of the MMA-Sim paper, section IV: how one pass of a dot-add sums its products. */
typedef enum {
    MMAREF_ALGO_SFMA,   /* sequential IEEE fused multiply-add chain (Algorithm 1) */
    MMAREF_ALGO_FDA,    /* fused dot-add: every term aligned to e_max keeping F bits (IV-C) */
    MMAREF_ALGO_GDFS,   /* group dot, fused sum: groups of G exact products, then scaled (IV-E) */
    MMAREF_ALGO_GPS,    /* group pairwise sum in FP32, groups of G (AMD CDNA1/2, IV-B) */
    MMAREF_ALGO_FDRDA,  /* fused dot, round-down add of C (AMD CDNA3, IV-F) */
    MMAREF_ALGO_GFDRDA, /* FDRDA over the even and the odd products separately (AMD CDNA3 FP8, IV-H) */
    MMAREF_ALGO_M3XU,   /* M3XU: exact FP32 products from 12-bit halves in steps, fused sum (docs/m3xu.md) */
    MMAREF_ALGO_COUNT
} mmaref_algo;

/* Rounding of an alignment (or, for the IEEE kinds SFMA and GPS, of every operation). */
typedef enum { MMAREF_RZ, MMAREF_RD, MMAREF_RNE, MMAREF_ROUNDING_COUNT } mmaref_rounding;

/* How block scales enter a pass. */
typedef enum {
    MMAREF_SCALES_NONE,
    MMAREF_SCALES_PER_PRODUCT, /* FDA: e_k = e_a + e_b + e_sa + e_sb, before the alignment */
    MMAREF_SCALES_PER_GROUP,   /* GDFS: each group's exact sum times its block's two scales */
    MMAREF_SCALES_COUNT
} mmaref_scaling;

/* How a pass's fixed-point sum becomes its result (Step 5 of FDA). */
typedef enum {
    MMAREF_OUT_F32_RZ,     /* f32, round toward zero at 23 fractional bits */
    MMAREF_OUT_F32_E8M13,  /* f32 bits, round toward zero at 13 fractional bits (Ada QMMA, Hopper QGMMA) */
    MMAREF_OUT_F16_RNE,    /* f16, round to nearest even */
    MMAREF_OUT_F32_RNE,    /* f32, round to nearest even (IEEE; AMD; Blackwell mma.sync FP8) */
    MMAREF_OUT_F64_RNE,    /* f64, round to nearest even (IEEE; DMMA) */
    MMAREF_OUT_F32C_RNE,   /* f32c, each part an f32 rounded to nearest even (M3XU FP32C) */
    MMAREF_OUT_COUNT
} mmaref_output;

/* One pass of a dot-add.  The first pass takes the instruction's C (or +0, when the instruction adds C
 * last: c_last); pass i > 0 takes the result of pass i - 1 as its C (CoFDA: d = g(g(c, first half),
 * second half), the MMA-Sim paper, Equation 6). */
typedef struct {
    mmaref_algo algo;              /* summation kind */
    int k_first, k_count;          /* the products a[k] b[k] of this pass: k_first .. k_first + k_count - 1, */
    int k_run, k_stride;           /* or, with k_run > 0, runs of k_run consecutive products k_stride apart
                                    * (mmaref_pass_k): Hopper's mma.sync FP8 takes k mod 4 in {0, 1}, then
                                    * {2, 3} (k_run 2, k_stride 4); 0: one run */
    int frac_bits;                 /* F: fractional bits kept when aligning to e_max (0: SFMA, GPS) */
    int group;                     /* G: GPS pairwise group, GDFS products per group; else 0 */
    mmaref_rounding align_products; /* aligning the products (FDRDA: the fused dot) to e_max */
    mmaref_rounding align_c;       /* aligning C to e_max */
    mmaref_scaling scales;
    int flush;                     /* 1: subnormal inputs, products and partial sums flushed (GPS on CDNA2) */
    int zero_term_exp;             /* FDA: the exponent a zero term (C, or a product with a zero factor) takes
                                    * in e_max; 0: each zero operand counts as -126 (the MMA-Sim paper's
                                    * convention: a zero product a*b has exponent -126 + e_b) */
    int ab_f16;                    /* 1: A and B enter converted (exactly) to f16, the operands of an f16
                                    * tensor-core pass: an e4m3 subnormal becomes an f16 normal and keeps its
                                    * own exponent in e_max (mma.sync FP8 on Hopper and Blackwell) */
    mmaref_output out;             /* format and rounding of the result (D's, in the last pass) */
} mmaref_pass;

/* Product j (0 .. k_count - 1) of a pass: its index k into a[] and b[]. */
static inline int mmaref_pass_k(const mmaref_pass *p, int j)
{
    return p->k_run > 0 ? p->k_first + j / p->k_run * p->k_stride + j % p->k_run : p->k_first + j;
}

/* One instruction on one architecture: shape, formats and its pass schedule, from the instruction
 * table.  A caller may copy a record and change a pass (mmaref study runs FDRDA with RZ alignment):
 * every entry point that takes a record runs it only after checking it (mmaref_check_schedule: the
 * name and SASS alias end inside their arrays, m, n, blocks and k .. pass[] are a schedule the model can
 * run).  The library checks a record when it makes one (mmaref_lookup, mmaref_list) and seals it: it
 * keeps a copy of k .. pass[] in `checked`, encoded so that no fill of the record (zeros, 0xff, random
 * bytes) passes for it; while k .. pass[] match the seal, the check is skipped.  A record that is not
 * sealed or no longer matches is checked in full on each call, and one the check refuses is refused
 * with MMAREF_ERR_INSTRUCTION and the check's message.  Never write `checked`. */
typedef struct {
    const char *arch;       /* canonical architecture name, e.g. "hopper" */
    char name[96];          /* canonical instruction name, e.g. "wgmma.m64n128k16.f32.f16.f16" */
    char sass[64];          /* SASS / ISA alias from the paper's tables, "" if none */
    int m, n;
    int blocks;             /* concurrent independent MMAs in one instruction (HMMA.884: 4; AMD _Nb) */
    /* ---- what the arithmetic depends on: k .. pass[] ---- */
    int k;
    mmaref_format a, b, c, d;
    mmaref_format scale;    /* block scale format; meaningful only when block_size > 0 */
    int block_size;         /* elements of K sharing one scale factor; 0 = no scales */
    int passes;             /* 1 .. MMAREF_MAX_PASSES */
    int c_last;             /* 1: C is added last: the passes start from +0 and D = P + C for their result P,
                             * one IEEE addition rounded to nearest even in D's format (Hopper's mma.sync
                             * FP8: tensor-core passes, then an add); 0: C enters the first pass */
    mmaref_pass pass[MMAREF_MAX_PASSES];
    /* ---- the library's copy of k .. pass[] as last checked ---- */
    unsigned char checked[9 * sizeof(int) + MMAREF_MAX_PASSES * sizeof(mmaref_pass)];
} mmaref_instr;

/* Architecture names: canonical spelling for `arch` (any alias, case-insensitive), or NULL. */
const char *mmaref_arch_canonical(const char *arch);
/* All canonical architecture names, NULL-terminated. */
const char *const *mmaref_arch_names(void);

/* Look up (arch, name); name may be the canonical name or the SASS alias.  On error writes a one-line
 * message into msg (when msg != NULL) naming the bad input and, for an unknown instruction, what the
 * architecture has. */
mmaref_status mmaref_lookup(const char *arch, const char *name, mmaref_instr *out, char *msg, size_t msglen);

/* Enumerate every instruction of an architecture (arch == NULL: all architectures) in table order.
 * Returns the number of instructions; fills out[i] for i < min(count, cap). */
size_t mmaref_list(const char *arch, mmaref_instr *out, size_t cap);
/* sizeof(mmaref_instr): a binding without this header (python/mmaref) allocates records of this size. */
size_t mmaref_instr_size(void);

/* Number of scale factors one dot-add takes per operand (K / block_size), 0 without scales (and for
 * NULL or a record the check refuses). */
int mmaref_scale_count(const mmaref_instr *in);

/* One dot-add d = c + sum_k a[k] b[k] (scaled by sa[k/block] sb[k/block] when the instruction has
 * block scales).  a, b: k raw values; sa, sb: mmaref_scale_count() values or NULL without scales. */
mmaref_status mmaref_dot(const mmaref_instr *in, uint64_t c, const uint64_t *a, const uint64_t *b,
                         const uint64_t *sa, const uint64_t *sb, uint64_t *d, char *msg, size_t msglen);

/* ---- many dot-adds of one instruction in one call (cmodel/src/batch.c, docs/speed.md) ----
 * Operand i of dot-add j is p[j * lane + i * step]: the row layout of mmaref_dot (lane K, step 1), a
 * structure of arrays (lane 1, step n), or a tile's columns (mmaref_mma's B: lane 1, step N; a row of
 * A for every column: lane 0, step 1).  c takes only lane (p NULL: C = +0); sa and sb are read only for
 * an instruction with block scales. */
typedef struct {
    const uint64_t *p;
    ptrdiff_t lane, step;
} mmaref_strided;

typedef struct {
    mmaref_strided c, a, b, sa, sb;
} mmaref_dots;

/* The row layout: c[n], a[n][K], b[n][K], sa[n][S], sb[n][S] (S = mmaref_scale_count). */
static inline mmaref_dots mmaref_dots_rows(const mmaref_instr *in, const uint64_t *c, const uint64_t *a,
                                           const uint64_t *b, const uint64_t *sa, const uint64_t *sb)
{
    ptrdiff_t k = in->k, s = in->block_size > 0 ? in->k / in->block_size : 0;
    mmaref_dots x = {{c, 1, 0}, {a, k, 1}, {b, k, 1}, {sa, s, 1}, {sb, s, 1}};
    return x;
}

/* d[j] for j < n, each exactly what mmaref_dot gives for dot-add j.  The instruction's kernel for the
 * fastest path the CPU has (mmaref_simd_path) runs LANES dot-adds at once; an error names the dot-add
 * (d is then unspecified). */
mmaref_status mmaref_dot_batch(const mmaref_instr *in, size_t n, const mmaref_dots *x, uint64_t *d, char *msg,
                               size_t msglen);

/* The paths mmaref_dot_batch can take: "reference" (mmaref_dot, one at a time), "generic" (the
 * batched kernels on the baseline instruction set), "avx2", "avx512"; "auto" picks the fastest the CPU
 * has (the widest, but avx2 on AMD family 19h, whose AVX-512 runs in 256-bit halves), and is the
 * default.  The environment variable MMAREF_SIMD sets the path at the first batch;
 * mmaref_simd_select sets it in the program (before any thread runs a batch).  A path the CPU lacks or
 * an unknown name: MMAREF_ERR_ARGUMENT and a message. */
mmaref_status mmaref_simd_select(const char *path, char *msg, size_t msglen);  /* NULL: MMAREF_SIMD's */
/* The path a batch of `in` takes now: the selected one, or "reference" where the instruction has no
 * batched kernel (those summation kinds run one dot-add at a time), and for NULL or a record the check
 * refuses. */
const char *mmaref_simd_path(const mmaref_instr *in);

/* A whole tile, row-major raw bits: A[M][K], B[K][N], C[M][N] -> D[M][N]; SA[M][K/block],
 * SB[K/block][N] or NULL.  Each D element is the dot-add of a row of A and a column of B. */
mmaref_status mmaref_mma(const mmaref_instr *in, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                         const uint64_t *SA, const uint64_t *SB, uint64_t *D, char *msg, size_t msglen);

/* ---- explain: a traced evaluation of one dot-add (cmodel/src/explain.c, docs/explain.md) ----
 * One line per step of the paper's algorithm: every operand decoded, the exact products, e_max, each
 * term aligned to F fractional bits with the bits it drops, the exact sum, the normalization and its
 * rounding decision, then D; every summation kind, step by step.  The fast path does not change: the
 * traced D is held to mmaref_dot's. */
typedef struct {
    int pass;        /* the pass of the schedule (0, 1, ...); -1 for the operands and D */
    char step[16];   /* the paper's step: "Step 0" .. "Step 8", "pass", "D" */
    char what[24];   /* what the line is about: "a[3]", "p[3]", "c", "e_max", "sum", "normalize" */
    char text[320];  /* the value, readable */
    char value[64];  /* the line's value alone, exact and canonical whatever the formats and F ("+0x3p-14",
                      * "+0", "-inf", "NaN", e_max "-6"): what `explain --vs` compares; "" on lines
                      * without one (their text is compared) */
} mmaref_trace_line;

/* Fills lines[0 .. min(cap, *count) - 1] (cap 0: only count them); *count gets how many the trace has,
 * *d (when not NULL) D.  Errors as mmaref_dot's. */
mmaref_status mmaref_explain(const mmaref_instr *in, uint64_t c, const uint64_t *a, const uint64_t *b,
                             const uint64_t *sa, const uint64_t *sb, mmaref_trace_line *lines, int cap,
                             int *count, uint64_t *d, char *msg, size_t msglen);

/* ---- whole GEMMs (cmodel/src/gemm.c, docs/gemm.md) ---- */
/* How the K chunks of a GEMM are accumulated. */
typedef enum {
    MMAREF_ACC_SERIAL,  /* one chain: the D of each instruction is the C of the next (param unused) */
    MMAREF_ACC_SPLIT_K, /* param = S slices, each chained from +0, then C + P_0 + ... + P_{S-1} in FP32 */
    MMAREF_ACC_PROMOTE, /* param = N: every N instructions the chain is added into an FP32 sum (starting at
                         * C) and restarts from +0 */
    MMAREF_ACC_COUNT
} mmaref_accumulation;

typedef struct {
    mmaref_accumulation kind;
    int param;   /* S for split-k, N for promote */
    int threads; /* worker threads; 0: one per online core.  D is the same for any count */
    /* Called from the calling thread after each output tile it finishes (tiles done of total); NULL: none */
    void (*progress)(void *ctx, uint64_t tiles_done, uint64_t tiles_total);
    void *progress_ctx;
} mmaref_gemm_options;

/* D = A B + C for any M, N, K with one instruction, as a kernel computes it: output tiles of the
 * instruction's M x N; along K, instruction-sized chunks (the last one padded with zeros that change
 * nothing) chained through the accumulator as opt->kind says (opt NULL: serial, all cores).  Row-major
 * raw bits as mmaref_mma: A[M][K], B[K][N], C[M][N] (NULL: +0), D[M][N]; block-scaled instructions take
 * SA[M][K/block] and SB[K/block][N] (K a multiple of the block).  The instruction's C and D formats must
 * be equal. */
mmaref_status mmaref_gemm(const mmaref_instr *in, int m, int n, int k, const uint64_t *A, const uint64_t *B,
                          const uint64_t *C, const uint64_t *SA, const uint64_t *SB, uint64_t *D,
                          const mmaref_gemm_options *opt, char *msg, size_t msglen);

/* ---- formats ---- */
/* How a format encodes special values. */
typedef enum {
    MMAREF_SPECIALS_IEEE,  /* all-ones exponent: inf (mantissa 0) or NaN */
    MMAREF_SPECIALS_FN,    /* no inf; all-ones exponent and mantissa is NaN (e4m3, ue4m3) */
    MMAREF_SPECIALS_FNUZ,  /* no inf, no -0; the pattern 1000...0 is the only NaN (AMD fp8/bf8) */
    MMAREF_SPECIALS_NONE,  /* every pattern is a finite number (e3m2, e2m3, e2m1) */
    MMAREF_SPECIALS_E8M0,  /* unsigned powers of two 2^-127..2^127, all-ones is NaN, no zero (ue8m0) */
    MMAREF_SPECIALS_COUNT
} mmaref_specials;

const char *mmaref_specials_name(mmaref_specials s);
/* Mantissa bits a format's values carry: man_bits less the ignored low bits (tf32: 10). */
int mmaref_format_precision(mmaref_format f);  /* "ieee" "fn" "fnuz" "none" "e8m0" */
const char *mmaref_format_name(mmaref_format f);
/* Format by name ("e4m3", AMD "fp8"/"bf8"/"xf32" accepted); returns MMAREF_FORMAT_COUNT if unknown. */
mmaref_format mmaref_format_by_name(const char *name);
/* Every format function refuses a code outside the enum: width 0, valid_bits 0, to_double NaN, the
 * conversions MMAREF_ERR_ARGUMENT. */
int mmaref_format_width(mmaref_format f); /* storage width in bits (tf32: 32, e2m1: 4, ...) */
/* Is raw a valid encoding of the format (fits in its width)? */
int mmaref_format_valid_bits(mmaref_format f, uint64_t raw);
/* The conversions between a format and the host's double decode and encode binary64 bit patterns with
 * integer operations: the same bits under any rounding mode and with x86's FTZ or DAZ set (a binary64
 * subnormal stays itself).  The generator and the coverage model, which compute with doubles, run in
 * the default floating-point environment and give the caller's back.
 * Exact value as a double (every format's values are doubles), for display.  A complex format (f32c):
 * the real part when the imaginary part is zero, else NaN (a complex value has no double; read the
 * parts with mmaref_format_part_bits). */
double mmaref_format_to_double(mmaref_format f, uint64_t raw);
/* Raw bits of x rounded to the nearest value of f (ties to even; overflow to inf, or NaN in a format
 * without inf); MMAREF_ERR_VALUE if f cannot hold the sign or the class (e.g. -1 in ue8m0), or the
 * overflow (a format with neither inf nor NaN: 7 in e2m1).  A complex format gets x + 0i. */
mmaref_status mmaref_format_round_double(mmaref_format f, double x, uint64_t *raw);
/* Raw bits of x if x is exactly representable in f (NaN -> the format's canonical NaN). */
mmaref_status mmaref_format_from_double(mmaref_format f, double x, uint64_t *raw);
/* Complex formats: how many parts a value has (f32c: 2, real first; every other format: 1), the format
 * of one part (f32c: f32; any other: itself), part i of a raw value, and a raw value from its parts. */
int mmaref_format_parts(mmaref_format f);
mmaref_format mmaref_format_part(mmaref_format f);
uint64_t mmaref_format_part_bits(mmaref_format f, uint64_t raw, int i);
uint64_t mmaref_format_join_parts(mmaref_format f, const uint64_t *parts);

/* ---- names of the schedule's codes (the schema: `mmaref list --schema --json`) ---- */
const char *mmaref_algo_name(mmaref_algo a);          /* "FDA" */
const char *mmaref_output_name(mmaref_output o);      /* "f32-rz" */
const char *mmaref_rounding_name(mmaref_rounding r);  /* "rz" */
const char *mmaref_scaling_name(mmaref_scaling s);    /* "per-product" */
/* The format an output kind writes (f32 for both f32 kinds) and its rounding. */
mmaref_format mmaref_output_format(mmaref_output o);
mmaref_rounding mmaref_output_rounding(mmaref_output o);
int mmaref_output_precision(mmaref_output o);  /* fractional bits kept: f32-rz 23, f32_e8m13-rz 13 */
int mmaref_output_signed_zero(mmaref_output o);  /* 1: a negative value rounding to zero gives -0 (IEEE) */
/* The paper's name of a whole schedule: "FDA", "CoFDA" (two passes of one kind), "SFMA"...; "?" for NULL. */
void mmaref_schedule_name(const mmaref_instr *in, char *buf, size_t cap);
/* MMAREF_OK if the record is one the model can run (its name and SASS alias end inside their arrays;
 * m, n, blocks, K and the scales within the limits; passes cover K in order, each pass's rounding and
 * scaling supported by its kind); otherwise MMAREF_ERR_INSTRUCTION and a one-line message naming the
 * field (NULL: MMAREF_ERR_INSTRUCTION, "no instruction given"). */
mmaref_status mmaref_check_schedule(const mmaref_instr *in, char *msg, size_t msglen);
/* A one-pass instruction run with K lanes instead of its own (make verify's configurations with a K of
 * their own, `mmaref gen --k`): *out is *in with k and its pass's k_count set to K and the name
 * "NAME[k=K]" (no lookup finds it).  K equal to the instruction's own K on a multi-pass instruction: *out
 * is *in unchanged.  Otherwise MMAREF_ERR_INSTRUCTION and a one-line message: more than one pass, or a
 * record the model cannot run (mmaref_check_schedule: K outside 1..MMAREF_MAX_K, a block size that does
 * not divide K ...). */
mmaref_status mmaref_with_k(const mmaref_instr *in, int k, mmaref_instr *out, char *msg, size_t msglen);



/* ==== format fields and the stimulus generator (cmodel/src/format.c, cmodel/src/gen.c) ==============
 * One generator for every user (the RTL testbench, the GPU harness, `mmaref gen`, the tests), in the
 * manner of TestFloat's testfloat_gen: vectors and tiles of raw operand bits addressed by (instruction,
 * seed, index), so that any one of them can be regenerated from those three numbers. */
/* A format's fields, from the library's format table (the one place they are written).  A complex
 * format (parts == 2) gives the fields of one part, except width (the whole value's 64 bits); its
 * max_finite, inf and nan are the part's in both parts. */
typedef struct {
    const char *name;
    int width, exp_bits, man_bits, bias; /* storage bits; exponent and mantissa fields; exponent bias */
    int has_sign;                        /* 0 for the unsigned scale formats */
    mmaref_specials specials;
    uint64_t ignored;    /* bits the hardware treats as zero: TF32's low 13 mantissa bits, UE4M3's sign */
    uint64_t max_finite; /* the largest finite value (its ignored bits clear) */
    int has_inf, has_nan;
    uint64_t inf, nan;   /* +inf and the canonical NaN; 0 where the format has none */
    int parts;           /* 1; 2 for a complex format (f32c) */
    mmaref_format part;  /* the format of each part (f32c: f32; otherwise the format itself) */
} mmaref_format_info;

mmaref_status mmaref_format_get_info(mmaref_format f, mmaref_format_info *info);

/* splitmix64: *state advances by one step; returns 64 uniform bits.  The same stream on every host.
 * NULL: 0. */
uint64_t mmaref_rand(uint64_t *state);

typedef enum {
    MMAREF_GEN_RAW,      /* every operand, C and scale: uniform random bits of its storage width */
    MMAREF_GEN_CLUSTER,  /* exponents clustered around one centre per operand, C near the products or 0 */
    MMAREF_GEN_CANCEL,   /* clustered, products in x, -x pairs, sometimes a small residue */
    MMAREF_GEN_SPECIAL,  /* clustered, 1..3 operands per dot-add special (inf, NaN, zeros, subnormals, max) */
    MMAREF_GEN_EXTREME,  /* every exponent within 2 of the top of its range */
    MMAREF_GEN_DIRECTED, /* the directed corner cases (the papers' experiments, the battery of `mmaref
                          * probe`: special values, alignment and rounding ladders; special values on
                          * every lane, alignment shifts 0..F+3, carry chains, cancellation, overflow,
                          * f16 ties; vectors for every bin of the coverage model the others may miss);
                          * index i is directed vector i mod mmaref_gen_directed_count() */
    MMAREF_GEN_RANDOM,   /* each index draws its kind: 25 % raw, 40 % cluster, 15 % cancel, 15 % special,
                          * 5 % extreme */
    MMAREF_GEN_MIXED,    /* the testbench stream.  Of single vectors (mmaref_gen_vector), index i with
                          * i mod 4 = 3 is rule vector i / 4, and the others make the stream j = 3 (i / 4)
                          * + i mod 4: directed j while j < mmaref_gen_directed_count(), else random j.
                          * Of tiles (mmaref_gen_tile), index i is directed i, then random i.  (The
                          * directed count is made once per instruction and kept for the process: a
                          * directed vector costs its own family's enumeration, not the families before it) */
    MMAREF_GEN_RULE,     /* vectors that catch the rules of the inventory (mmaref.h, "rules"): vector i
                          * aims at the instruction's rule i mod (how many it has), shaped for it and
                          * kept from the first of up to 24 candidates on which a unit breaking the rule
                          * gives another D; single vectors only */
    MMAREF_GEN_KIND_COUNT
} mmaref_gen_kind;

/* Single vector i of the mixed stream, for a caller that keeps the instruction's directed count
 * (mmaref_gen_directed_count): its kind (rule, directed or random) and, in *index, its index in that
 * kind's stream -- mmaref_gen_vector(in, kind, seed, *index, ...) is mixed vector i. */
mmaref_gen_kind mmaref_gen_mixed_at(uint64_t directed, uint64_t i, uint64_t *index);
const char *mmaref_gen_kind_name(mmaref_gen_kind kind);
/* Kind by name ("raw", "cluster", ...); MMAREF_GEN_KIND_COUNT if unknown. */
mmaref_gen_kind mmaref_gen_kind_by_name(const char *name);
/* Number of directed vectors of an instruction (0 for a bad argument). */
uint64_t mmaref_gen_directed_count(const mmaref_instr *in);
/* What directed vector `index` (mod the count) asks, a static string: the papers' one-row experiments by
 * their question, "topic: detail" ("NaN encoding: C is NaN", "sign of zero: ..."), the ladders as
 * "alignment ladder: ..." and "rounding ladder: ...", every other family by a short name without a colon
 * ("special values per lane", "alignment shifts"); "?" for a bad argument.  Thread-safe. */
const char *mmaref_gen_directed_label(const mmaref_instr *in, uint64_t index);

/* Vector `index` of the (instruction, kind, seed) stream: c, a[k], b[k], and sa, sb
 * (mmaref_scale_count() values; may be NULL without scales).  A vector of one random kind is the one the
 * random stream has at the same index when it draws that kind.  Returns the kind of the vector made
 * (for random and mixed, which one), or -1 for a bad argument (k above MMAREF_MAX_K included). */
int mmaref_gen_vector(const mmaref_instr *in, mmaref_gen_kind kind, uint64_t seed, uint64_t index,
                      uint64_t *c, uint64_t *a, uint64_t *b, uint64_t *sa, uint64_t *sb);

/* Tile `index`: C[M][N], A[M][K], B[K][N], SA[M][S], SB[S][N] row-major as mmaref_mma takes them
 * (S = mmaref_scale_count()).  One draw of the kind's parameters per tile (one exponent centre per
 * operand, ...), so every dot-add of the tile is one of that kind; a vector is the 1 x 1 tile.  Directed
 * tiles put directed vector index * max(M, N) + i on dot-add (i, i). */
int mmaref_gen_tile(const mmaref_instr *in, mmaref_gen_kind kind, uint64_t seed, uint64_t index,
                    uint64_t *C, uint64_t *A, uint64_t *B, uint64_t *SA, uint64_t *SB);
/* ==== end of format fields and the stimulus generator ============================================= */

/* ==== rules: the arithmetic rules the model encodes (cmodel/src/rules.c, docs/rules.md) =============
 * Each rule is a choice a unit could make otherwise -- how a zero operand enters e_max, how many bits the
 * alignment keeps, which way C rounds -- with the bug that makes the other choice.  A vector catches a
 * rule when a unit with that bug gives a different D on it; the coverage model counts such vectors per
 * rule ("rule" bins), and a run below a rule's floor has a hole. */
typedef struct {
    const char *name;    /* e.g. "zero-operand-exp" */
    const char *step;    /* the model's step that encodes it */
    const char *rule;    /* what the model does */
    const char *bug;     /* what a unit that breaks it does */
} mmaref_rule;
/* Rules are numbered 1 .. mmaref_rule_count(). */
int mmaref_rule_count(void);
const mmaref_rule *mmaref_rule_at(int i); /* NULL outside 1 .. count */
int mmaref_rule_by_name(const char *name); /* its number, or -1 */
/* Can a unit that breaks rule i give a different D on some vector of `in`?  0 for a bad argument. */
int mmaref_rule_applies(const mmaref_instr *in, int i);
/* D of `in` computed by a unit that breaks rule i (the model's D where the rule does not apply). */
mmaref_status mmaref_rule_broken_dot(const mmaref_instr *in, int i, uint64_t c, const uint64_t *a,
                                     const uint64_t *b, const uint64_t *sa, const uint64_t *sb, uint64_t *d,
                                     char *msg, size_t msglen);
/* How silicon decided a rule on an instruction (cmodel/src/rules_silicon.c, docs/rules.md): measured by
 * a run of this project's GPU harness (its vectors catch the rule and silicon gave the model's D), stated
 * by a paper's experiments on the architecture's GPU, or extrapolated from another architecture, format
 * or convention. */
typedef enum { MMAREF_SILICON_MEASURED = 1, MMAREF_SILICON_PAPER, MMAREF_SILICON_EXTRAPOLATED } mmaref_silicon;
typedef struct {
    mmaref_silicon kind;
    const char *source; /* the run, the paper's section, or what the rule is extrapolated from */
    const char *gpu;    /* with MMAREF_SILICON_PAPER: the paper's GPU of the architecture; else NULL */
    int row;            /* the evidence's entry: equal for instructions the same evidence covers */
} mmaref_rule_evidence;
/* The evidence for rule i on `in`; MMAREF_ERR_ARGUMENT where the rule does not apply. */
mmaref_status mmaref_rule_silicon_of(const mmaref_instr *in, int i, mmaref_rule_evidence *out);
const char *mmaref_silicon_name(mmaref_silicon kind); /* "measured", "paper", "extrapolated" */
/* ==== end of rules ================================================================================= */

/* ==== coverage: the bins a dot-add falls in (cmodel/src/coverage.c, docs/verify-your-design.md) =====
 * A coverage model derived from the instruction's formats and schedule, the same for every bench:
 *   D          how D came about: +-0 by each route (every term +0, C = -0 with every product -0, zeros
 *              of both signs, exact cancellation, a nonzero sum below D's range), -0, subnormal, the
 *              smallest normal, the largest finite, a sum past it that rounds back (saturation) or to
 *              inf, NaN from each source (A, B, C, a scale, 0 x inf, +inf and -inf), inf from C and from
 *              a product
 *   rounding   where the exact input of D's rounding lies against D's last place: exactly on it, below
 *              half, a tie, above half; a sum that carries 1 and 2 binades above its largest term, a tie
 *              and a sticky bit under such a carry, a tie broken only by the last bit F keeps
 *   alignment  a term partly and wholly below the F fractional bits kept at e_max
 *   lane i     lane i's product alone at the largest exponent; NaN, inf, subnormal, +0, -0 in lane i
 *   scale      each scale slot of SA and SB at its smallest positive value, its largest, NaN
 *   pass i     an intermediate pass of a multi-pass schedule whose result is rounded (inexact)
 * A bin the instruction cannot reach says why (e.g. "the output gives +0 for every zero result"). */
#define MMAREF_COV_MAX_BINS 512

typedef struct {
    const char *group;       /* "D", "rounding", "alignment", "lane", "scale", "pass" */
    char name[80];           /* e.g. "+-0, C = -0 and every product -0", "lane 3: NaN" */
    char unreachable[160];   /* "" when the instruction can reach the bin; else why not */
} mmaref_cov_bin;

/* The bins of an instruction, in a fixed order: fills bins[0 .. min(cap, n) - 1] and returns n
 * (at most MMAREF_COV_MAX_BINS), or -1 for a bad argument. */
int mmaref_cov_bins(const mmaref_instr *in, mmaref_cov_bin *bins, int cap);

/* The bins one dot-add falls in: hit[i] += 1 for each (hit has mmaref_cov_bins() counters); d is the
 * model's D for the operands.  Returns how many bins it hit, or -1 for a bad argument. */
int mmaref_cov_classify(const mmaref_instr *in, uint64_t c, const uint64_t *a, const uint64_t *b,
                        const uint64_t *sa, const uint64_t *sb, uint64_t d, uint64_t *hit);
/* The coverage report of a run (hit and mismatch: per-bin counters, mismatch may be NULL) to out: one
 * line per bin of D, rounding, alignment and pass, one per class for the lanes and the scale slots (the
 * vectors and mismatches summed over them, how many were hit, the fewest vectors), each unreachable
 * bin with its reason, then each hole (a reachable bin no vector hit) on a line "COVERAGE HOLE: ...".
 * Returns the holes, or -1 for a bad argument. */
int mmaref_cov_print(FILE *out, const mmaref_instr *in, const uint64_t *hit, const uint64_t *mismatch);
/* Every reachable bin, lanes and scale slots each on its own, one line each for tools that merge runs:
 * "COVERAGE BIN <vectors> <mismatches> <group>: <bin>".  Returns the lines, or -1 for a bad argument. */
int mmaref_cov_print_bins(FILE *out, const mmaref_instr *in, const uint64_t *hit, const uint64_t *mismatch);
/* ==== end of coverage ============================================================================== */

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
