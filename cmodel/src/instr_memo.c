/* The per-instruction memo (instr_memo.h): an open-addressed table of pointers to entries that never
 * change once published and are never freed (a few hundred bytes for each distinct configuration and
 * table a process asks about; still reachable at exit, so not a leak). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "instr_memo.h"

/* k .. pass[]: the fields the arithmetic reads, contiguous in the record (schedule.c's checked copy). */
#define KEY_FROM offsetof(mmaref_instr, k)
#define KEY_HEAD (offsetof(mmaref_instr, pass) - KEY_FROM)
enum { KEY_MAX = KEY_HEAD + MMAREF_MAX_PASSES * sizeof(mmaref_pass), SLOTS = 4096 };

typedef struct {
    int table;
    size_t key_size, size;
    unsigned char key[KEY_MAX];
    unsigned char value[]; /* size bytes */
} entry;

static entry *slots[SLOTS];

/* in's key bytes: their count, or 0 for a record whose pass count is out of range (never memoized). */
static size_t key_size(const mmaref_instr *in)
{
    return in && in->passes >= 1 && in->passes <= MMAREF_MAX_PASSES
               ? KEY_HEAD + (size_t)in->passes * sizeof(mmaref_pass) : 0;
}

/* FNV-1a over the table number and the key. */
static size_t slot_of(int table, const unsigned char *key, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)(unsigned)table;
    for (size_t i = 0; i < n; i++)
        h = (h ^ key[i]) * 0x100000001b3ULL;
    return (size_t)(h ^ h >> 32) % SLOTS;
}

static int same(const entry *e, int table, const unsigned char *key, size_t n, size_t size)
{
    return e->table == table && e->key_size == n && e->size == size && !memcmp(e->key, key, n);
}

int instr_memo_get(const mmaref_instr *in, int table, void *value, size_t size)
{
    size_t n = key_size(in);
    if (!n)
        return 0;
    const unsigned char *key = (const unsigned char *)in + KEY_FROM;
    for (size_t i = 0, s = slot_of(table, key, n); i < SLOTS; i++, s = (s + 1) % SLOTS) {
        entry *e = __atomic_load_n(&slots[s], __ATOMIC_ACQUIRE);
        if (!e)
            return 0;
        if (same(e, table, key, n, size)) {
            memcpy(value, e->value, size);
            return 1;
        }
    }
    return 0;
}

void instr_memo_put(const mmaref_instr *in, int table, const void *value, size_t size)
{
    size_t n = key_size(in);
    entry *mine = n ? malloc(sizeof *mine + size) : NULL;
    if (!mine)
        return;
    mine->table = table;
    mine->key_size = n;
    mine->size = size;
    memset(mine->key, 0, sizeof mine->key);
    memcpy(mine->key, (const unsigned char *)in + KEY_FROM, n);
    memcpy(mine->value, value, size);
    for (size_t i = 0, s = slot_of(table, mine->key, n); i < SLOTS; i++, s = (s + 1) % SLOTS) {
        entry *e = NULL;
        if (__atomic_compare_exchange_n(&slots[s], &e, mine, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return; /* published */
        if (same(e, table, mine->key, n, size))
            break;  /* another thread kept the same value first */
    }
    free(mine);
}
