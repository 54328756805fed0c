/* Folding the lanes of an explain trace that contribute nothing (explain_fold.c): the CLI's text trace
 * and the web page show such lanes as one line, "p[5..31] = 0 (27 lanes)", unless asked for all. */
#ifndef MMAREF_EXPLAIN_FOLD_H
#define MMAREF_EXPLAIN_FOLD_H

#include <stddef.h>
#include "mmaref.h"

enum { FOLD_SHOWN = 0, FOLD_FIRST = 1, FOLD_INSIDE = 2 };

/* fold[i] for every line: FOLD_FIRST on the first line of a run of two or more consecutive lines of
 * lanes that fold (shown as one summary), FOLD_INSIDE on the rest of the run, FOLD_SHOWN elsewhere.
 * Line `keep` (-1: none) never folds (the --vs marker's). */
void explain_fold(const mmaref_trace_line *line, int n, int keep, unsigned char *fold);

/* The summary of the run starting at line i (fold[i] == FOLD_FIRST): its "what" ("p[5..31]") and its
 * text ("= 0 (27 lanes)"); returns the index after the run. */
int explain_fold_summary(const mmaref_trace_line *line, int n, const unsigned char *fold, int i, char *what,
                         size_t what_cap, char *text, size_t text_cap);

#endif
