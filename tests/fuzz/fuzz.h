/* Shared by the libFuzzer harnesses tests/fuzz/fuzz_*.c (one per target; built by mk/fuzz.mk).
 * A broken invariant prints what broke on stderr and aborts: libFuzzer reports that as a crash and
 * keeps the input as the reproducer (`build/fuzz/<harness> FILE` runs it again). */
#ifndef MMAREF_FUZZ_H
#define MMAREF_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond, ...)                                                     \
    do {                                                                          \
        if (!(cond)) {                                                            \
            fprintf(stderr, "fuzz invariant broken (%s:%d): ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                         \
            fputc('\n', stderr);                                                  \
            abort();                                                              \
        }                                                                         \
    } while (0)

/* bytes [p, p+n) as a NUL-terminated string in a heap block of exactly n + 1 bytes, so that a read
 * past its end is an AddressSanitizer report (the string ends early at an embedded NUL) */
static inline char *fuzz_string(const uint8_t *p, size_t n)
{
    char *s = malloc(n + 1);
    if (!s)
        abort();
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

/* A library or CLI message is one line, unless the input it quotes brought a line break itself
 * (with two inputs, OR the two calls). */
static inline int fuzz_one_line(const char *msg, const char *quoted_input)
{
    return !strchr(msg, '\n') || strpbrk(quoted_input, "\n\r");
}

/* Reads the next n bytes little-endian from *p (missing bytes at the end of the input are 0). */
static inline uint64_t fuzz_take(const uint8_t **p, const uint8_t *end, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        if (*p < end)
            v |= (uint64_t)*(*p)++ << (8 * i);
    return v;
}

#endif
