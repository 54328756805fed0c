/* Sequential fused multiply-add (SFMA), mma-sim.md Algorithm 1: d = FMA(a_k, b_k, d) for k = 0..K-1,
 * in IEEE binary64 (DMMA) or binary32 (AMD f32 MFMA) with round-to-nearest-even. */
#include <math.h>
#include <string.h>

#include "algo.h"
#include "format.h"

static double bits_to_f64(uint64_t x) { double d; memcpy(&d, &x, 8); return d; }
static uint64_t f64_to_bits(double d) { uint64_t x; memcpy(&x, &d, 8); return x; }
static float bits_to_f32(uint64_t x) { uint32_t w = (uint32_t)x; float f; memcpy(&f, &w, 4); return f; }
static uint64_t f32_to_bits(float f) { uint32_t w; memcpy(&w, &f, 4); return w; }

/* The FMA chains themselves.  On x86-64 a second copy uses the FMA instruction when the CPU has one
 * (the same correctly rounded result as libm's fma, without the call). */
static double fma_chain_f64(double d, const uint64_t *a, const uint64_t *b, int k)
{
    for (int i = 0; i < k; i++)
        d = fma(bits_to_f64(a[i]), bits_to_f64(b[i]), d);
    return d;
}

static float fma_chain_f32(float d, const uint64_t *a, const uint64_t *b, int k)
{
    for (int i = 0; i < k; i++)
        d = fmaf(bits_to_f32(a[i]), bits_to_f32(b[i]), d);
    return d;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("fma"))) static double fma_chain_f64_hw(double d, const uint64_t *a, const uint64_t *b, int k)
{
    for (int i = 0; i < k; i++)
        d = __builtin_fma(bits_to_f64(a[i]), bits_to_f64(b[i]), d);
    return d;
}

__attribute__((target("fma"))) static float fma_chain_f32_hw(float d, const uint64_t *a, const uint64_t *b, int k)
{
    for (int i = 0; i < k; i++)
        d = __builtin_fmaf(bits_to_f32(a[i]), bits_to_f32(b[i]), d);
    return d;
}
#define HAVE_FMA_INSN() __builtin_cpu_supports("fma")
#else
#define fma_chain_f64_hw fma_chain_f64
#define fma_chain_f32_hw fma_chain_f32
#define HAVE_FMA_INSN() 0
#endif

uint64_t algo_sfma(const mmaref_instr *in, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                   const uint64_t *b, int k, const uint64_t *sa, const uint64_t *sb)
{
    (void)c_fmt, (void)sa, (void)sb;
    /* The NaN payload of DMMA and MFMA is not documented (paper section V); mmaref returns the
     * canonical NaN with every mantissa bit set. */
    if (in->d == MMAREF_F64) {
        double d = HAVE_FMA_INSN() ? fma_chain_f64_hw(bits_to_f64(c), a, b, k) : fma_chain_f64(bits_to_f64(c), a, b, k);
        return isnan(d) ? fmt_canonical_nan(fmt_of(MMAREF_F64)) : f64_to_bits(d);
    }
    float d = HAVE_FMA_INSN() ? fma_chain_f32_hw(bits_to_f32(c), a, b, k) : fma_chain_f32(bits_to_f32(c), a, b, k);
    return isnan(d) ? fmt_canonical_nan(fmt_of(MMAREF_F32)) : f32_to_bits(d);
}
