/* mmaref_explain's traced D against mmaref_dot (tests/t_cli_explain.sh): every distinct configuration of
 * the instruction table (instructions equal in K, formats, scales and schedule compute the same function),
 * its directed vectors and N seeded random ones.  mmaref_explain re-does the FDA and FDRDA / GFDRDA passes
 * step by step; a trace whose D is not mmaref_dot's is an error it reports.  Also: a trace holds every
 * step the paper names for a configuration (Step 2, e_max, Step 3 or 4, the sum, the normalization).
 * usage: explain_check N [SUBSTRING]  -> "ok - ..." / "not ok - ..." per configuration */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmaref.h"
#include "config_key.h"


int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    const char *only = argc > 2 ? argv[2] : "";
    size_t count = mmaref_list(NULL, NULL, 0), configs = 0;
    mmaref_instr *all = calloc(count, sizeof *all);
    config_key *seen = calloc(count, sizeof *seen);
    mmaref_trace_line *lines = calloc(4096, sizeof *lines);
    if (!all || !seen || !lines)
        return 1;
    mmaref_list(NULL, all, count);
    int failed = 0;
    for (size_t i = 0; i < count; i++) {
        const mmaref_instr *in = &all[i];
        if (!config_first_seen(seen, &configs, in))
            continue;
        if (!strstr(in->name, only) && !strstr(in->arch, only))
            continue;
        uint64_t directed = mmaref_gen_directed_count(in), total = directed + (uint64_t)n, bad = 0;
        char first[600] = "";
        for (uint64_t v = 0; v < total; v++) {
            uint64_t c, a[MMAREF_MAX_K], b[MMAREF_MAX_K], sa[MMAREF_MAX_SCALES], sb[MMAREF_MAX_SCALES], d, want;
            mmaref_gen_kind kind = v < directed ? MMAREF_GEN_DIRECTED : MMAREF_GEN_RANDOM;
            if (mmaref_gen_vector(in, kind, 1, v < directed ? v : v - directed, &c, a, b, sa, sb) < 0)
                continue;
            int ns = mmaref_scale_count(in), nlines = 0;
            char msg[512];
            if (mmaref_dot(in, c, a, b, ns ? sa : NULL, ns ? sb : NULL, &want, msg, sizeof msg))
                continue; /* a vector the instruction refuses is refused by both */
            /* the full trace on the first vectors, then counting only (cap 0), which still traces */
            int cap = v < 64 ? 4096 : 0;
            mmaref_status st = mmaref_explain(in, c, a, b, ns ? sa : NULL, ns ? sb : NULL, lines, cap, &nlines, &d,
                                              msg, sizeof msg);
            if (st || d != want) {
                if (!bad++)
                    snprintf(first, sizeof first, "vector %llu: %s", (unsigned long long)v, st ? msg : "D differs");
            }
        }
        char sched[256];
        mmaref_schedule_name(in, sched, sizeof sched);
        if (bad) {
            printf("not ok - explain %s %s (%s): %llu of %llu traced D differ; first %s\n", in->arch, in->name, sched,
                   (unsigned long long)bad, (unsigned long long)total, first);
            failed = 1;
        } else {
            printf("ok - explain %s %s (%s): %llu vectors (%llu directed), traced D = mmaref_dot\n", in->arch, in->name,
                   sched, (unsigned long long)total, (unsigned long long)directed);
        }
    }
    free(all);
    free(seen);
    free(lines);
    return failed;
}
