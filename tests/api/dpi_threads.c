/* The DPI bridge's shared state under threads: THREADS threads look up every instruction of
 * every architecture, each in its own order, at the same time, and read labels.  Every thread must get
 * the same handle for the same instruction, distinct handles for distinct ones, a record naming the
 * instruction asked for, and its own label text.  Built with -fsanitize=thread by tests/t_rtl_dpi.sh. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "svdpi.h"
#include "mmaref_dpi.h"

/* The open-array accessors the bridge's dot_arr uses come from the simulator; not called here. */
int svSize(const svOpenArrayHandle h, int d) { (void)h, (void)d; abort(); }
int svLow(const svOpenArrayHandle h, int d) { (void)h, (void)d; abort(); }
void *svGetArrElemPtr1(const svOpenArrayHandle h, int i) { (void)h, (void)i; abort(); }

enum { THREADS = 8, MAX_NAMES = DPI_MAX_HANDLES };

static mmaref_instr list[MAX_NAMES];
static const char *arch_of[MAX_NAMES], *name_of[MAX_NAMES];
static int names, got[THREADS][MAX_NAMES], errors[THREADS];

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    for (int round = 0; round < 5; round++)
        for (int j = 0; j < names; j++) {
            int i = (j * (2 * t + 1) + round) % names; /* a different order in every thread */
            int h = mmaref_dpi_lookup(arch_of[i], name_of[i]);
            const mmaref_instr *in = mmaref_dpi_instr(h);
            char want[160];
            snprintf(want, sizeof want, "%s:%s", arch_of[i], name_of[i]);
            if (!in || strcmp(in->name, name_of[i]) || strcmp(mmaref_dpi_label(h), want) ||
                (round && got[t][i] != h))
                errors[t]++;
            got[t][i] = h;
        }
    return NULL;
}

int main(void)
{
    /* the instructions of every architecture, up to the bridge's table size */
    size_t n = mmaref_list(NULL, list, MAX_NAMES);
    names = n < MAX_NAMES ? (int)n : MAX_NAMES;
    for (int i = 0; i < names; i++)
        arch_of[i] = list[i].arch, name_of[i] = list[i].name;
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    int bad = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(th[t], NULL);
        bad += errors[t];
    }
    for (int t = 1; t < THREADS; t++)
        for (int i = 0; i < names; i++)
            bad += got[t][i] != got[0][i];
    for (int i = 0; i < names; i++)
        for (int j = 0; j < i; j++)
            bad += got[0][i] == got[0][j];
    printf("%d threads x %d instructions x 5 rounds: %d disagreements\n", THREADS, names, bad);
    return bad != 0;
}
