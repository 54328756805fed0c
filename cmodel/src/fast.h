/* The batched fast path's kernels: one per configuration of (operand formats, C, scales, K, passes,
 * each pass's F and output) that the instruction tables use, generated at build time from the tables
 * (cmodel/gen/fast_kernels_gen.c writes build/gen/fast_kernels.c), each compiled once per path
 * (fast_kernel.h).  batch.c finds an instruction's kernel by its key. */
#ifndef MMAREF_FAST_H
#define MMAREF_FAST_H

#include <stddef.h>
#include <stdint.h>

#include "mmaref.h"

/* The batch's granularity: kernels run multiples of FAST_LANES dot-adds (the rest goes to mmaref_dot),
 * a multiple of every path's vector lanes (lanes.h: 8 on AVX-512, 4 on AVX2 and the baseline ISA). */
enum { FAST_LANES = 8 };

/* The paths, fastest last; FAST_REFERENCE runs mmaref_dot one dot-add at a time. */
typedef enum { FAST_REFERENCE, FAST_GENERIC, FAST_AVX2, FAST_AVX512, FAST_PATH_COUNT } fast_path;

/* What a kernel is specialized on: everything the arithmetic of an FDA, (G)FDRDA, GDFS, SFMA or GPS
 * schedule reads. */
typedef struct {
    mmaref_algo algo;             /* every pass's: FDA, FDRDA, GFDRDA, GDFS, SFMA or GPS */
    mmaref_rounding align_products, align_c; /* FDRDA's (RD on CDNA3, RZ in the paper's variant) */
    mmaref_format a, b, c, scale; /* scale: MMAREF_FORMAT_COUNT when unscaled */
    int block_size, group, k, passes; /* group: GDFS's and GPS's G, else 0 */
    int flush;                        /* GPS's subnormal flushing (CDNA2) */
    int zero_term_exp;                /* FDA's, every pass's the same (0: the MMA-Sim convention) */
    int frac_bits[MMAREF_MAX_PASSES];
    mmaref_output out[MMAREF_MAX_PASSES];
} fast_key;

/* A kernel: the dot-adds 0 .. n-1 of x (n a multiple of FAST_LANES) into d (which may be x's C: every
 * group of lanes reads its C before it writes D); dot-adds with an inf or NaN anywhere go through
 * batch_reference_one.  *stray collects the bits of every operand outside its
 * format's width (non-zero: the caller finds and reports the bad value). */
typedef void (*fast_kernel)(const mmaref_instr *in, const mmaref_dots *x, size_t n, uint64_t *d, uint64_t *stray);

typedef struct {
    fast_key key;
    fast_kernel run[FAST_PATH_COUNT]; /* run[FAST_REFERENCE] unused */
} fast_entry;

/* The generated table (build/gen/fast_kernels.c); a build without it (the browser page, the
 * sanitizer builds) links batch.c's empty one and runs every batch on the reference path. */
extern const fast_entry *const fast_table[];
extern const size_t fast_table_count;

/* Dot-add j of x by the scalar model (its operands gathered from the layout). */
uint64_t batch_reference_one(const mmaref_instr *in, const mmaref_dots *x, size_t j);

/* For a caller that checked the record and every operand once for many batches (gemm.c), as
 * schedule_run is for single dot-adds: the kernel of `in` on the selected path (NULL: the reference
 * path, or a bad MMAREF_SIMD), found once; then batch_run with it, for any n. */
fast_kernel batch_kernel(const mmaref_instr *in);
void batch_run(const mmaref_instr *in, fast_kernel kernel, size_t n, const mmaref_dots *x, uint64_t *d);

/* The key of an instruction whose schedule a kernel runs: every pass of one kind over an equal,
 * consecutive slice of K (one run), C in the first pass; FDA passes all scaled per product (by UE8M0, a power of two) or none, FDRDA
 * and GFDRDA passes unscaled with one pair of roundings, GDFS one pass scaled per group (its blocks
 * whole groups), SFMA one unscaled pass in one IEEE format, GPS one pass of f16/bf16 products in
 * groups of a power of two.
 * 0: no kernel. */
static inline int fast_key_of(const mmaref_instr *in, fast_key *key)
{
    const mmaref_pass *p0 = &in->pass[0];
    fast_key k = {p0->algo, p0->align_products, p0->align_c, in->a, in->b, in->c,
                  MMAREF_FORMAT_COUNT, 0, 0, in->k, in->passes, p0->flush, p0->zero_term_exp, {0}, {0}};
    if (in->passes < 1 || in->passes > MMAREF_MAX_PASSES || in->k % in->passes || in->c_last)
        return 0;
    switch (k.algo) {
    case MMAREF_ALGO_M3XU:
        /* M3XU's FP32 mode is FDA on exact f32 products (its two multiply steps leave sig_a * sig_b whole,
         * docs/m3xu.md), F = 46: the FDA kernel runs it; FP32C's interleaved parts have no kernel */
        if (in->a != MMAREF_F32 || in->b != MMAREF_F32 || in->c != MMAREF_F32)
            return 0;
        k.algo = MMAREF_ALGO_FDA;
        /* fall through */
    case MMAREF_ALGO_FDA: /* its alignments are RZ by definition */
        k.align_products = k.align_c = MMAREF_RZ;
        if (p0->scales == MMAREF_SCALES_PER_PRODUCT && in->scale != MMAREF_UE8M0)
            return 0;
        if (p0->scales != MMAREF_SCALES_PER_PRODUCT && p0->scales != MMAREF_SCALES_NONE)
            return 0;
        break;
    case MMAREF_ALGO_FDRDA:
    case MMAREF_ALGO_GFDRDA: /* GFDRDA's lanes take every pass with both even and odd products */
        if (p0->scales != MMAREF_SCALES_NONE || (k.algo == MMAREF_ALGO_GFDRDA && in->k / in->passes < 2))
            return 0;
        break;
    case MMAREF_ALGO_SFMA: /* one chain of FMAs in the format of A, B, C and D (f64 or f32), rounded RNE */
        if (in->passes != 1 || p0->scales != MMAREF_SCALES_NONE || in->a != in->b || in->a != in->c ||
            in->a != mmaref_output_format(p0->out) || (in->a != MMAREF_F64 && in->a != MMAREF_F32) ||
            mmaref_output_rounding(p0->out) != MMAREF_RNE || !mmaref_output_signed_zero(p0->out) ||
            mmaref_output_precision(p0->out) != mmaref_format_precision(in->a))
            return 0;
        break;
    case MMAREF_ALGO_GPS: /* one pass of f16 or bf16 products into f32 C and D; G a power of two */
        k.group = p0->group;
        if (in->passes != 1 || p0->scales != MMAREF_SCALES_NONE || k.group < 1 || (k.group & (k.group - 1)) ||
            in->k % k.group || (in->a != MMAREF_F16 && in->a != MMAREF_BF16) ||
            (in->b != MMAREF_F16 && in->b != MMAREF_BF16) || in->c != MMAREF_F32 ||
            mmaref_output_format(p0->out) != MMAREF_F32 || mmaref_output_rounding(p0->out) != MMAREF_RNE ||
            !mmaref_output_signed_zero(p0->out) ||
            mmaref_output_precision(p0->out) != mmaref_format_precision(MMAREF_F32))
            return 0;
        break;
    case MMAREF_ALGO_GDFS:
        k.align_products = k.align_c = MMAREF_RZ;
        k.group = p0->group;
        if (in->passes != 1 || p0->scales != MMAREF_SCALES_PER_GROUP || k.group < 1 || in->k % k.group ||
            in->block_size % k.group)
            return 0;
        break;
    default: return 0;
    }
    if (p0->scales != MMAREF_SCALES_NONE) {
        k.scale = in->scale;
        k.block_size = in->block_size;
    }
    for (int i = 0; i < in->passes; i++) {
        const mmaref_pass *p = &in->pass[i];
        if (p->algo != p0->algo || p->flush != (k.algo == MMAREF_ALGO_GPS && k.flush) ||
            p->k_count != in->k / in->passes ||
            ((k.algo == MMAREF_ALGO_FDRDA || k.algo == MMAREF_ALGO_GFDRDA) &&
             (p->align_products != k.align_products || p->align_c != k.align_c)) ||
            p->k_first != i * p->k_count || p->k_run || p->scales != p0->scales ||
            p->zero_term_exp != p0->zero_term_exp)
            return 0;
        k.frac_bits[i] = p->frac_bits;
        k.out[i] = p->out;
    }
    *key = k;
    return 1;
}

static inline int fast_key_equal(const fast_key *x, const fast_key *y)
{
    if (x->algo != y->algo || x->align_products != y->align_products || x->align_c != y->align_c ||
        x->a != y->a || x->b != y->b || x->c != y->c || x->scale != y->scale || x->block_size != y->block_size ||
        x->group != y->group || x->flush != y->flush || x->zero_term_exp != y->zero_term_exp || x->k != y->k ||
        x->passes != y->passes)
        return 0;
    for (int i = 0; i < x->passes; i++)
        if (x->frac_bits[i] != y->frac_bits[i] || x->out[i] != y->out[i])
            return 0;
    return 1;
}

#endif
