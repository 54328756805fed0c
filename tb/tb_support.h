/* C-side helpers of the testbench support shared by its files (tb/tb_support.c defines them): the mixed
 * stimulus stream and packing values into a unit's operand word. */
#ifndef TB_SUPPORT_H
#define TB_SUPPORT_H
#include <stdint.h>
#include "svdpi.h"

/* Vector idx of the (handle, seed) stream: the testbench's corner sets, the library's directed vectors,
 * then random ones.  Returns its mmaref_gen_kind, or -1.  Counts nothing. */
int tb_vector_at(int h, uint64_t seed, uint64_t idx, uint64_t *c, uint64_t *a, uint64_t *b, uint64_t *sa,
                 uint64_t *sb);
/* k values of w bits each into a packed vector of `words` 32-bit words, value i at bits [i*w, (i+1)*w) */
void tb_pack(svBitVecVal *dst, int words, const uint64_t *v, int k, int w);
#endif
