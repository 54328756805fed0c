/* The rule inventory's internals (rules.c): which rules an instruction has, and D with one broken. */
#ifndef MMAREF_RULES_H
#define MMAREF_RULES_H

#include <stdint.h>
#include "mmaref.h"
#include "rule_ids.h"

/* Can a unit that breaks rule r give a different D on some vector of `in` (a checked record)? */
int rule_applies(const mmaref_instr *in, mmaref_rule_id r);
/* D of a unit that breaks rule r (one that applies), for operands already checked; d: the model's D. */
uint64_t rule_broken_d(const mmaref_instr *in, mmaref_rule_id r, uint64_t c, const uint64_t *a, const uint64_t *b,
                       const uint64_t *sa, const uint64_t *sb, uint64_t d);

#endif
