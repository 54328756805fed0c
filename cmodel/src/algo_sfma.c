/* Sequential fused multiply-add (SFMA), the MMA-Sim paper, Algorithm 1: d = FMA(a_k, b_k, d) for k = 0..K-1,
 * in IEEE binary64 (DMMA) or binary32 (AMD f32 MFMA) with round-to-nearest-even. */
#include <math.h>
#include <string.h>

#include "algo.h"
#include "format.h"

static double bits_to_f64(uint64_t x) { double d; memcpy(&d, &x, 8); return d; }
static uint64_t f64_to_bits(double d) { uint64_t x; memcpy(&x, &d, 8); return x; }
static float bits_to_f32(uint64_t x) { uint32_t w = (uint32_t)x; float f; memcpy(&f, &w, 4); return f; }
static uint64_t f32_to_bits(float f) { uint32_t w; memcpy(&w, &f, 4); return w; }

/* On x86-64 the pass is compiled twice, and the loader picks the copy for the CPU once: with the FMA
 * instruction where the CPU has one (the same correctly rounded result as libm's fma, without the
 * call), else calling libm. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define FMA_CLONES
#endif

FMA_CLONES ALGO_PASS(algo_sfma)
{
    (void)in, (void)c_fmt, (void)sa, (void)sb; /* C and D share the format: f64 (DMMA) or f32 (MFMA) */
    const int k = p->k_count;
    /* The NaN payload of DMMA and MFMA is not documented (paper section V); mmaref returns the
     * canonical NaN with every mantissa bit set. */
    if (out_table[p->out].format == MMAREF_F64) {
        double d = bits_to_f64(c);
        for (int i = 0; i < k; i++)
            d = __builtin_fma(bits_to_f64(a[i]), bits_to_f64(b[i]), d);
        return isnan(d) ? fmt_canonical_nan(fmt_of(MMAREF_F64)) : f64_to_bits(d);
    }
    float d = bits_to_f32(c);
    for (int i = 0; i < k; i++)
        d = __builtin_fmaf(bits_to_f32(a[i]), bits_to_f32(b[i]), d);
    return isnan(d) ? fmt_canonical_nan(fmt_of(MMAREF_F32)) : f32_to_bits(d);
}
