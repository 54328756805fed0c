/* AMD Matrix Core instructions (CDNA1-CDNA3): mma-sim.md Table IV.  Not yet modelled (issue 3): the
 * walk yields no instruction, so lookups on cdna1..cdna3 report that the architecture has none. */
#include "isa.h"

int isa_amd_each(isa_arch arch, isa_visit_fn visit, void *ctx)
{
    (void)arch, (void)visit, (void)ctx;
    return 0;
}
