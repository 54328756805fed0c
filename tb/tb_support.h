/* C-side helpers of the testbench support shared by its files and tests (tb/tb_support.c defines them):
 * the mixed stimulus stream, its windows with the model's D, packing values into a unit's operand word. */
#ifndef TB_SUPPORT_H
#define TB_SUPPORT_H
#include <stdint.h>
#include "svdpi.h"

/* Vector idx of the (handle, seed) stream: the testbench's corner sets, the library's directed vectors,
 * then random ones.  Returns its mmaref_gen_kind, or -1.  Counts nothing. */
int tb_vector_at(int h, uint64_t seed, uint64_t idx, uint64_t *c, uint64_t *a, uint64_t *b, uint64_t *sa,
                 uint64_t *sb);
/* The stimulus the benches take (tb/tb_support_pkg.sv imports them): vector idx of the stream as 32-bit
 * lanes or packed at the format's width, with the model's D.  The D's are computed TB_WINDOW vectors at a
 * time, [idx, idx + TB_WINDOW) from an index outside the handle's current window, by one mmaref_dot_batch
 * call.  Return the kind, or -1 (a batch error is printed on one line). */
enum { TB_WINDOW = 256 };
int mmaref_tb_gen(int h, unsigned long long seed, unsigned long long idx, unsigned int *c, svBitVecVal *a,
                  svBitVecVal *b, svBitVecVal *sa, svBitVecVal *sb, unsigned long long *d);
int mmaref_tb_gen_packed(int h, int lane_w, unsigned long long seed, unsigned long long idx,
                         unsigned long long *c, svBitVecVal *a, svBitVecVal *b, unsigned long long *d);
/* A bad plusarg (+cfg, +instr): "tb_mma: MSG" on stderr, one line, then exit status 2. */
void mmaref_tb_arg_error(const char *msg);
/* Count one offered vector in handle h's coverage bins (tb/tb_coverage.c). */
void tb_cov_count(int h, uint64_t c, const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb,
                  uint64_t d);
/* k values of w bits each into a packed vector of `words` 32-bit words, value i at bits [i*w, (i+1)*w) */
void tb_pack(svBitVecVal *dst, int words, const uint64_t *v, int k, int w);
#endif
