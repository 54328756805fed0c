/* The coverage model closes on every distinct configuration of the table (tests/t_model_coverage.sh):
 * the default bench stream (every directed vector, then N random ones of seed 1, a rule vector after each
 * three of them) hits every bin the
 * instruction can reach, and no vector lands in a bin derived as unreachable (that would be a wrong
 * derivation).  usage: coverage_closure [N random vectors (default 2000)] [ARCH INSTR: that one only,
 * every bin printed]; COVERAGE_DIRECTED=L drives only the first L directed vectors (the check's own
 * mutant: with L = 0 and N = 0 every configuration must report holes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmaref.h"
#include "config_key.h"

static int check(const mmaref_instr *in, uint64_t n_random, int verbose)
{
    static mmaref_cov_bin bins[MMAREF_COV_MAX_BINS];
    uint64_t hit[MMAREF_COV_MAX_BINS] = {0};
    int nb = mmaref_cov_bins(in, bins, MMAREF_COV_MAX_BINS), ns = mmaref_scale_count(in);
    if (nb < 0) {
        printf("not ok - coverage: %s %s: no bins\n", in->arch, in->name);
        return 1;
    }
    uint64_t directed = mmaref_gen_directed_count(in), total;
    const char *limit = getenv("COVERAGE_DIRECTED");
    if (limit && strtoull(limit, NULL, 10) < directed)
        directed = strtoull(limit, NULL, 10);
    /* the mixed stream (mmaref_gen_mixed_at) until it has given the directed and the random vectors:
     * one rule vector after each three of them */
    uint64_t others = directed + n_random;
    total = others + others / 3 + (others % 3 != 0);
    uint64_t c, a[MMAREF_MAX_K], b[MMAREF_MAX_K], sa[MMAREF_MAX_SCALES], sb[MMAREF_MAX_SCALES], d;
    for (uint64_t i = 0; i < total; i++) {
        uint64_t at;
        mmaref_gen_kind kind = mmaref_gen_mixed_at(directed, i, &at);
        mmaref_gen_vector(in, kind, 1, at, &c, a, b, sa, sb);
        if (mmaref_dot(in, c, a, b, ns ? sa : NULL, ns ? sb : NULL, &d, NULL, 0) != MMAREF_OK ||
            mmaref_cov_classify(in, c, a, b, ns ? sa : NULL, ns ? sb : NULL, d, hit) < 0) {
            printf("not ok - coverage: %s %s: vector %llu not classified\n", in->arch, in->name,
                   (unsigned long long)i);
            return 1;
        }
    }
    int holes = 0, wrong = 0, reachable = 0;
    char list[2048] = "";
    for (int i = 0; i < nb; i++) {
        int unreach = bins[i].unreachable[0] != 0;
        reachable += !unreach;
        if (verbose)
            printf("  %-10s %-52s %10llu  %s\n", bins[i].group, bins[i].name, (unsigned long long)hit[i],
                   unreach ? bins[i].unreachable : "");
        if ((!unreach && !hit[i]) || (unreach && hit[i])) {
            holes += !unreach;
            wrong += unreach;
            if (strlen(list) < sizeof list - 200)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s '%s'", unreach ? " HIT-UNREACHABLE" : "",
                         bins[i].name);
        }
    }
    if (holes || wrong) {
        printf("not ok - coverage: %s %s: %d of %d reachable bins unhit, %d unreachable hit:%s\n", in->arch,
               in->name, holes, reachable, wrong, list);
        return 1;
    }
    if (verbose)
        printf("ok - coverage: %s %s: %d of %d bins reachable, every one hit by %llu vectors\n", in->arch, in->name,
               reachable, nb, (unsigned long long)total);
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t n_random = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000;
    if (argc > 3) {
        mmaref_instr in;
        if (mmaref_lookup(argv[2], argv[3], &in, NULL, 0) != MMAREF_OK) {
            printf("not ok - coverage: no instruction %s %s\n", argv[2], argv[3]);
            return 1;
        }
        return check(&in, n_random, 1);
    }
    size_t n = mmaref_list(NULL, NULL, 0), nseen = 0;
    mmaref_instr *all = malloc(n * sizeof *all);
    config_key *seen = malloc(n * sizeof *seen);
    if (!all || !seen)
        return 2;
    mmaref_list(NULL, all, n);
    int configs = 0, failed = 0;
    for (size_t i = 0; i < n; i++)
        if (config_first_seen(seen, &nseen, &all[i])) {
            configs++;
            failed += check(&all[i], n_random, 0);
        }
    if (!failed)
        printf("ok - coverage: every reachable bin of all %d configurations hit by the directed vectors%s; no "
               "unreachable bin hit%s\n", configs, n_random ? " (and random ones)" : " alone",
               n_random ? " by them or by the random ones" : "");
    free(all);
    free(seen);
    return failed != 0;
}
