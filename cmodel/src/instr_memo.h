/* Values computed once per instruction and kept for the life of the process (instr_memo.c), such as
 * the layout of the generator's directed stream: keyed by the fields the arithmetic reads (k ..
 * pass[passes - 1]) and a table number, so that a copied record finds its original's value and a changed
 * one computes its own.  Safe from any number of threads at once (no lock: a slot is claimed by one
 * compare-and-swap; of two threads that compute the same value at once, the first to store it wins). */
#ifndef MMAREF_INSTR_MEMO_H
#define MMAREF_INSTR_MEMO_H

#include <stddef.h>

#include "mmaref.h"

/* The tables, one per kind of value. */
enum { MEMO_GEN_LAYOUT };

/* The value of `in` in `table` (size bytes, as stored) into value: 1; or 0 when there is none yet. */
int instr_memo_get(const mmaref_instr *in, int table, void *value, size_t size);

/* Keep value (size bytes) as in's value in `table`.  Where memory or the slots run out, nothing is kept
 * and the next get computes it again: a memo only saves time. */
void instr_memo_put(const mmaref_instr *in, int table, const void *value, size_t size);

#endif
