/* The dry run of the hardware cross-check: the same seeded tiles and the same line writer as the GPU
 * run (driver.c), with D computed by the C model (mmaref_dot) instead of a tensor core.  Its files must
 * pass `mmaref batch --check`; tests/t_gpu_harness.sh runs it without nvcc or a GPU. */
#include <stdio.h>
#include <string.h>

#include "driver.h"
#include "gen.h"

/* The model's table and the harness's must agree on shape and formats, or a file would be checked
 * against the wrong instruction. */
static int matches_table(const hw_instr *in, const mmaref_instr *mi, char *msg, size_t msglen)
{
    mmaref_format a = gen_model_format(in->a), b = gen_model_format(in->b), c = gen_model_format(in->c);
    if (mi->m != in->m || mi->n != in->n || mi->k != in->k || mi->a != a || mi->b != b || mi->c != c ||
        mi->d != c || mi->block_size != 0) {
        snprintf(msg, msglen, "harness and model disagree on shape or formats of %s", in->name);
        return 1;
    }
    return 0;
}

static int model_compute(const hw_instr *in, long tiles, const uint64_t *A, const uint64_t *B,
                         const uint64_t *C, uint64_t *D, char *msg, size_t msglen)
{
    mmaref_instr mi;
    if (mmaref_lookup(in->arch, in->name, &mi, msg, msglen) != MMAREF_OK || matches_table(in, &mi, msg, msglen))
        return 1;
    size_t na = (size_t)in->m * in->k, nb = (size_t)in->k * in->n, nc = (size_t)in->m * in->n;
    uint64_t a[64], b[64];
    for (long t = 0; t < tiles; t++)
        for (int i = 0; i < in->m; i++)
            for (int j = 0; j < in->n; j++) {
                for (int k = 0; k < in->k; k++) {
                    a[k] = A[t * na + (size_t)i * in->k + k];
                    b[k] = B[t * nb + (size_t)k * in->n + j];
                }
                size_t e = t * nc + (size_t)i * in->n + j;
                if (mmaref_dot(&mi, C[e], a, b, NULL, NULL, &D[e], msg, msglen) != MMAREF_OK)
                    return 1;
            }
    return 0;
}

int main(int argc, char **argv)
{
    return hw_main(argc, argv, "mmagpu-dryrun", "mmaref C model (dry run)", model_compute);
}
