/* Sequential fused multiply-add (SFMA), the MMA-Sim paper, Algorithm 1: d = FMA(a_k, b_k, d) for k = 0..K-1,
 * in IEEE binary64 (DMMA) or binary32 (AMD f32 MFMA), each FMA rounded once to nearest even, subnormals
 * kept.  The FMA is the project's integer one (ieee_arith.h), so D does not depend on the host's
 * floating-point environment (rounding mode, flush-to-zero) or on the CPU having an FMA instruction. */
#include "algo.h"
#include "ieee_arith.h"

/* The chain in format f (A, B, C and D share it), inlined once per format so that the format's constants
 * fold in.  While d is a normal number the shortcut runs on it unpacked (ieee_fma_normal); any other
 * step is ieee_fma.  The NaN payload of DMMA and MFMA is not documented (paper section V); ieee_fma
 * returns the canonical NaN with every mantissa bit set. */
static inline __attribute__((always_inline)) uint64_t sfma_chain(const fmt_desc *f, uint64_t d, const uint64_t *a,
                                                                 const uint64_t *b, int k)
{
    const uint64_t *end = a + k;
    while (a < end) {
        ieee_normal dn;
        if (ieee_normal_of(f, d, &dn)) {
            while (a < end && ieee_fma_normal(f, *a, *b, &dn))
                a++, b++;
            d = ieee_normal_bits(f, dn);
            if (a == end)
                break;
        }
        d = ieee_fma(f, ieee_decode(f, *a), ieee_decode(f, *b), ieee_decode(f, d));
        a++, b++;
    }
    return d;
}

/* The chain traced: Algorithm 1 as written, one ieee_fma and one line per product (the shortcut above
 * computes the same d at every step). */
uint64_t algo_sfma_trace(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t d,
                         const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb, trace_sink *t)
{
    (void)in, (void)c_fmt, (void)sa, (void)sb;
    const fmt_desc *f = pass_out_format(p);
    for (int i = 0; i < p->k_count; i++) {
        d = ieee_fma(f, ieee_decode(f, a[i]), ieee_decode(f, b[i]), ieee_decode(f, d));
        trace_result(t, "FMA", "d", mmaref_pass_k(p, i), "RNE(a*b + d), rounded once = ", f, d, 0);
    }
    return d;
}

uint64_t algo_sfma(const mmaref_instr *in, const mmaref_pass *p, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                   const uint64_t *b, const uint64_t *sa, const uint64_t *sb)
{
    (void)in, (void)c_fmt, (void)sa, (void)sb; /* A, B, C and D: the pass's output format (f64 or f32-rne) */
    if (out_table[p->out].format == MMAREF_F64)
        return sfma_chain(fmt_of(MMAREF_F64), c, a, b, p->k_count);
    return sfma_chain(fmt_of(MMAREF_F32), c, a, b, p->k_count);
}
