/* Folding the lanes of an explain trace that contribute nothing (explain_fold.h).  A lane k folds when
 * its product is an exact zero at every step that holds it (Step 2's exact product, each aligned term
 * kept) and it is not the term e_max comes from: a zero product with a large exponent (the MMA-Sim
 * convention, 0 x 2^127) sets e_max and so shapes every other term, and stays shown.  Its p[k] lines
 * fold, and its operand lines a[k], b[k] where the operand is itself zero (a non-zero factor of a zero
 * product stays shown).  Lines with no value (explain's text-only steps) never fold. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain_fold.h"

static int is_zero(const mmaref_trace_line *l)
{
    return !strcmp(l->value, "+0") || !strcmp(l->value, "-0");
}

/* The lane of a line about one ("a[3]", "b[3]", "p[3]"): its k and its letter; -1 when none. */
static int lane_of(const mmaref_trace_line *l, char *letter)
{
    int k;
    char close;
    if ((l->what[0] == 'a' || l->what[0] == 'b' || l->what[0] == 'p') &&
        sscanf(l->what + 1, "[%d%c", &k, &close) == 2 && close == ']' && k >= 0 && k < MMAREF_MAX_K) {
        *letter = l->what[0];
        return k;
    }
    return -1;
}

void explain_fold(const mmaref_trace_line *line, int n, int keep, unsigned char *fold)
{
    /* per lane: 1 = a zero product seen, 2 = shown (a non-zero value, a line without one, e_max's source) */
    unsigned char lane[MMAREF_MAX_K] = {0};
    char letter, from[32];
    for (int i = 0; i < n; i++) {
        int k = lane_of(&line[i], &letter);
        if (k >= 0 && letter == 'p') {
            if (!is_zero(&line[i]))
                lane[k] = 2;
            else if (lane[k] == 0 && !strcmp(line[i].step, "Step 2"))
                lane[k] = 1;
        }
    }
    for (int i = 0; i < n; i++) /* "e_max ... from p[k]" */
        for (int k = 0; k < MMAREF_MAX_K; k++)
            if (lane[k] == 1 && !strcmp(line[i].what, "e_max") &&
                (snprintf(from, sizeof from, "from p[%d]", k), strstr(line[i].text, from)))
                lane[k] = 2;
    for (int i = 0; i < n; i++) {
        int k = lane_of(&line[i], &letter);
        fold[i] = i != keep && k >= 0 && lane[k] == 1 && is_zero(&line[i]) ? FOLD_INSIDE : FOLD_SHOWN;
    }
    /* runs: consecutive folding lines of one pass, step and letter; a run of one line is shown */
    for (int i = 0; i < n;) {
        if (fold[i] == FOLD_SHOWN) {
            i++;
            continue;
        }
        char first;
        lane_of(&line[i], &first);
        int j = i + 1;
        while (j < n && fold[j] != FOLD_SHOWN && line[j].pass == line[i].pass && !strcmp(line[j].step, line[i].step) &&
               lane_of(&line[j], &letter) >= 0 && letter == first)
            j++;
        if (j - i == 1)
            fold[i] = FOLD_SHOWN;
        else
            fold[i] = FOLD_FIRST;
        i = j;
    }
}

int explain_fold_summary(const mmaref_trace_line *line, int n, const unsigned char *fold, int i, char *what,
                         size_t what_cap, char *text, size_t text_cap)
{
    char letter;
    int lo = lane_of(&line[i], &letter), hi = lo, j = i + 1, gaps = 0;
    for (; j < n && fold[j] == FOLD_INSIDE; j++) {
        int k = lane_of(&line[j], &letter);
        gaps |= k != hi + 1;
        hi = k;
    }
    snprintf(what, what_cap, "%c[%d..%d]", letter, lo, hi);
    snprintf(text, text_cap, "%s 0 (%d lanes%s)", !strncmp(line[i].text, "shifted", 7) ? "kept" : "=", j - i,
             gaps ? " of this pass" : "");
    return j;
}
