/* What decides a dot-add's result: instructions equal in these compute the same function (tests/api/
 * programs that visit every distinct configuration of the table once). */
#ifndef MMAREF_TESTS_CONFIG_KEY_H
#define MMAREF_TESTS_CONFIG_KEY_H

#include <string.h>

#include "mmaref.h"

typedef struct {
    int k, block_size, passes;
    mmaref_format a, b, c, d, scale;
    mmaref_pass pass[MMAREF_MAX_PASSES];
} config_key;

static inline config_key key_of(const mmaref_instr *in)
{
    config_key key;
    memset(&key, 0, sizeof key);
    key.k = in->k, key.block_size = in->block_size, key.passes = in->passes;
    key.a = in->a, key.b = in->b, key.c = in->c, key.d = in->d;
    key.scale = in->block_size ? in->scale : MMAREF_F64; /* meaningful only with scales */
    memcpy(key.pass, in->pass, (size_t)in->passes * sizeof in->pass[0]);
    return key;
}

/* 1 when in's configuration is not among the *count keys in seen yet (it is then added), else 0: the
 * walk over the table that visits each distinct configuration once, at its first instruction. */
static inline int config_first_seen(config_key *seen, size_t *count, const mmaref_instr *in)
{
    config_key key = key_of(in);
    for (size_t j = 0; j < *count; j++)
        if (!memcmp(&seen[j], &key, sizeof key))
            return 0;
    seen[(*count)++] = key;
    return 1;
}

#endif
