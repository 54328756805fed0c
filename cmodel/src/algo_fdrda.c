/* Fused dot round-down add (FDRDA) and its grouped form (GFDRDA), mma-sim.md sections IV-F to IV-I:
 * AMD CDNA3.  To be written (issue 3); no instruction in the table uses them yet. */
#include "algo.h"
#include "format.h"

uint64_t algo_fdrda(const mmaref_instr *in, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                    const uint64_t *b, int k, const uint64_t *sa, const uint64_t *sb)
{
    (void)c_fmt, (void)c, (void)a, (void)b, (void)k, (void)sa, (void)sb;
    return fmt_canonical_nan(fmt_of(in->d));
}

uint64_t algo_gfdrda(const mmaref_instr *in, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                     const uint64_t *b, int k, const uint64_t *sa, const uint64_t *sb)
{
    (void)c_fmt, (void)c, (void)a, (void)b, (void)k, (void)sa, (void)sb;
    return fmt_canonical_nan(fmt_of(in->d));
}
