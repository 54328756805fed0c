/* Coverage of the vectors a bench drove: the library's coverage model (mmaref_cov_bins, derived from the
 * instruction's formats and schedule: D classes, rounding, alignment, lanes, scale slots, passes).
 * Every vector the bench is offered is classified once, from its window (tb/tb_support.c:
 * tb_cov_count); a vector the unit got wrong is classified again into the mismatch counters.  After the
 * run the report names every reachable bin no vector hit (a hole), and the bench exits 3 when the run
 * had no mismatch but a hole (tb/tb_main.cpp).  A replay (a run from +first=N > 0, or with +show) names
 * no hole: its few chosen vectors are no run of the stream.  Pipe mode classifies nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svdpi.h"
#include "mmaref_dpi.h"
#include "tb_support.h"

typedef struct {
    uint64_t hit[MMAREF_COV_MAX_BINS], mismatch[MMAREF_COV_MAX_BINS];
    long long vectors;
} tb_cov;

static tb_cov *cov[DPI_MAX_HANDLES];
static int cov_h = -1; /* the handle the report is of: the first one classified */

void tb_cov_count(int h, uint64_t c, const uint64_t *a, const uint64_t *b, const uint64_t *sa, const uint64_t *sb,
                  uint64_t d)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    if (!in || (!cov[h] && !(cov[h] = calloc(1, sizeof *cov[h]))))
        return;
    int ns = mmaref_scale_count(in);
    if (mmaref_cov_classify(in, c, a, b, ns ? sa : NULL, ns ? sb : NULL, d, cov[h]->hit) >= 0) {
        cov[h]->vectors++;
        if (cov_h < 0)
            cov_h = h;
    }
}

void mmaref_tb_class_mismatch(int h, unsigned long long seed, unsigned long long idx)
{
    const mmaref_instr *in = mmaref_dpi_instr(h);
    uint64_t c, a[DPI_MAX_K], b[DPI_MAX_K], sa[DPI_MAX_SCALE], sb[DPI_MAX_SCALE], d;
    if (!in || !cov[h] || in->k > DPI_MAX_K || tb_vector_at(h, seed, idx, &c, a, b, sa, sb) < 0)
        return;
    int ns = mmaref_scale_count(in);
    if (mmaref_dot(in, c, a, b, ns ? sa : NULL, ns ? sb : NULL, &d, NULL, 0) == MMAREF_OK)
        mmaref_cov_classify(in, c, a, b, ns ? sa : NULL, ns ? sb : NULL, d, cov[h]->mismatch);
}

/* Holes of the run (reachable bins no vector hit), -1 when nothing was classified. */
static int holes = -1;
int mmaref_tb_coverage_holes(void) { return holes; }

int mmaref_tb_print_classes(const char *replay)
{
    if (cov_h < 0)
        return -1;
    if (replay) { /* a few chosen vectors: no table of holes, which only a run of the stream can close */
        printf("coverage of %s: %lld vectors classified, not judged on a replay (%s): a run from index 0 "
               "without +show judges it\n", mmaref_dpi_label(cov_h), cov[cov_h]->vectors, replay);
        holes = 0;
    } else {
        printf("coverage of %s: %lld vectors classified (docs/verify-your-design.md, coverage)\n",
               mmaref_dpi_label(cov_h), cov[cov_h]->vectors);
        holes = mmaref_cov_print(stdout, mmaref_dpi_instr(cov_h), cov[cov_h]->hit, cov[cov_h]->mismatch);
    }
    /* MMAREF_COV_BINS=1 (tb/run_cosim.sh --json): every bin on its own line too, for a merge of shards */
    const char *bins = getenv("MMAREF_COV_BINS");
    if (bins && !strcmp(bins, "1"))
        mmaref_cov_print_bins(stdout, mmaref_dpi_instr(cov_h), cov[cov_h]->hit, cov[cov_h]->mismatch);
    fflush(stdout);
    return holes;
}
