/* The directed stream from several threads at once (tests/t_cli_gen.sh).  The generator counts each
 * instruction's directed families once and keeps the layout for the process (cmodel/src/instr_memo.c):
 * threads that ask about the same instructions at the same moment must each get the stream one thread
 * alone gets, and a record whose arithmetic fields change in place must get its new instruction's
 * stream, not the one kept for its address.
 * usage: gen_threads serial | threads
 *   serial   one line per distinct configuration: arch, name, directed count, a hash of a sample of its
 *            directed vectors and their labels, all in one thread; then the in-place check
 *   threads  the same lines, from 4 threads that each walk every configuration (in different orders)
 *            in a fresh process: the lines of every thread must agree; t_cli_gen compares them with
 *            serial's, and runs this mode under ThreadSanitizer as well */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_key.h"
#include "mmaref.h"

enum { THREADS = 4, SAMPLES = 31 };

static mmaref_instr *configs;
static size_t nconfigs;

static uint64_t mix(uint64_t h, uint64_t x) { return (h ^ x) * 0x100000001b3ULL + (h >> 29); }

/* The count and a hash over SAMPLES directed vectors spread over the stream, the last one included. */
static uint64_t stream_hash(const mmaref_instr *in, uint64_t *count)
{
    uint64_t n = mmaref_gen_directed_count(in), h = 0xcbf29ce484222325ULL;
    uint64_t c, a[MMAREF_MAX_K], b[MMAREF_MAX_K], sa[MMAREF_MAX_SCALES], sb[MMAREF_MAX_SCALES];
    int ns = mmaref_scale_count(in);
    for (uint64_t s = 0; s < SAMPLES && n; s++) {
        uint64_t i = s == SAMPLES - 1 ? n - 1 : s * n / SAMPLES;
        h = mix(h, (uint64_t)mmaref_gen_vector(in, MMAREF_GEN_DIRECTED, 1, i, &c, a, b, sa, sb));
        h = mix(h, c);
        for (int k = 0; k < in->k; k++)
            h = mix(mix(h, a[k]), b[k]);
        for (int k = 0; k < ns; k++)
            h = mix(mix(h, sa[k]), sb[k]);
        for (const char *l = mmaref_gen_directed_label(in, i); *l; l++)
            h = mix(h, (unsigned char)*l);
    }
    *count = n;
    return h;
}

typedef struct {
    int id;
    uint64_t *count, *hash; /* per configuration */
} job;

static void *walk(void *arg)
{
    job *j = arg;
    for (size_t t = 0; t < nconfigs; t++) {
        size_t i = j->id & 1 ? nconfigs - 1 - t : t; /* two threads from each end: they meet twice */
        j->hash[i] = stream_hash(&configs[i], &j->count[i]);
    }
    return NULL;
}

static void print(const uint64_t *count, const uint64_t *hash)
{
    for (size_t i = 0; i < nconfigs; i++)
        printf("%s %s %llu %016llx\n", configs[i].arch, configs[i].name, (unsigned long long)count[i],
               (unsigned long long)hash[i]);
}

/* One record, its arithmetic fields overwritten in place: X, then Y, then X again. */
static int in_place(void)
{
    if (nconfigs < 2)
        return 1;
    const mmaref_instr *x = &configs[0], *y = &configs[nconfigs - 1];
    uint64_t cx, cy, c;
    uint64_t hx = stream_hash(x, &cx), hy = stream_hash(y, &cy);
    mmaref_instr r = *x;
    int bad = stream_hash(&r, &c) != hx || c != cx;
    r = *y;
    bad |= stream_hash(&r, &c) != hy || c != cy;
    r = *x;
    bad |= stream_hash(&r, &c) != hx || c != cx;
    printf("%s - gen: one record changed in place from %s %s to %s %s and back: each time that instruction's "
           "directed stream (%llu, %llu vectors)\n", bad ? "not ok" : "ok", x->arch, x->name, y->arch, y->name,
           (unsigned long long)cx, (unsigned long long)cy);
    return bad;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 && !strcmp(argv[1], "threads");
    if (argc != 2 || (!threads && strcmp(argv[1], "serial"))) {
        fprintf(stderr, "usage: gen_threads serial | threads\n");
        return 2;
    }
    size_t n = mmaref_list(NULL, NULL, 0), nseen = 0;
    mmaref_instr *all = calloc(n, sizeof *all);
    config_key *seen = calloc(n, sizeof *seen);
    configs = calloc(n, sizeof *configs);
    uint64_t *count = calloc(THREADS * n, sizeof *count), *hash = calloc(THREADS * n, sizeof *hash);
    if (!all || !seen || !configs || !count || !hash || mmaref_list(NULL, all, n) != n)
        return 2;
    for (size_t i = 0; i < n; i++)
        if (config_first_seen(seen, &nseen, &all[i]))
            configs[nconfigs++] = all[i];
    int bad = 0;
    if (!threads) {
        walk(&(job){0, count, hash});
        print(count, hash);
        bad = in_place();
    } else {
        /* the IEEE corner sets of the SFMA instructions are built once under C11 call_once, whose
         * synchronization inside glibc ThreadSanitizer does not see: built here first */
        for (size_t i = 0; i < nconfigs; i++)
            if (configs[i].pass[0].algo == MMAREF_ALGO_SFMA)
                mmaref_gen_directed_count(&configs[i]);
        pthread_t tid[THREADS];
        job jobs[THREADS];
        int started = 0;
        for (int t = 0; t < THREADS; t++) {
            jobs[t] = (job){t, count + t * nconfigs, hash + t * nconfigs};
            started += !pthread_create(&tid[t], NULL, walk, &jobs[t]);
        }
        for (int t = 0; t < started; t++)
            pthread_join(tid[t], NULL);
        for (int t = 1; t < THREADS; t++)
            if (memcmp(count, jobs[t].count, nconfigs * sizeof *count) ||
                memcmp(hash, jobs[t].hash, nconfigs * sizeof *hash))
                bad = 1;
        bad |= started != THREADS;
        print(count, hash);
        printf("%s - gen: %d threads drew the directed streams of %zu configurations at once and agree\n",
               bad ? "not ok" : "ok", started, nconfigs);
    }
    free(all), free(seen), free(configs), free(count), free(hash);
    return bad;
}
