/* Group pairwise sum (GPS), mma-sim.md section IV-B: AMD CDNA1/CDNA2.  To be written (issue 3); no
 * instruction in the table uses it yet. */
#include "algo.h"
#include "format.h"

uint64_t algo_gps(const mmaref_instr *in, mmaref_format c_fmt, uint64_t c, const uint64_t *a,
                  const uint64_t *b, int k, const uint64_t *sa, const uint64_t *sb)
{
    (void)c_fmt, (void)c, (void)a, (void)b, (void)k, (void)sa, (void)sb;
    return fmt_canonical_nan(fmt_of(in->d));
}
