/* Crafted dot-adds for the hardware cross-check (tools/gpu/session.sh --crafted DIR): for each rule the
 * table extrapolates to an instruction instead of measuring it there (mmaref_rule_silicon_of), a file of
 * vectors on which the table's rule and its alternative give different D, so that the next run on a GPU
 * decides the rule (docs/hardware-validation.md, "Rules silicon has not decided").
 *   zero-term  a zero term's exponent in e_max.  The table gives Hopper's FDA passes -133, measured on
 *              bf16 and tf32 (docs/algorithms.md, FDA Step 3); the alternative is the MMA-Sim
 *              convention (zero_term_exp 0: a zero operand counts as -126).  Every product is a zero
 *              times a large power of two of the other factor's format, C tiny or subnormal: under the
 *              convention the zero products set e_max and C drops below the grid, under -133 C stays.
 *   every other extrapolated rule of the inventory (mmaref rules): the vectors of the rule stream
 *              (mmaref gen --kind rule, shaped for each rule) on which a unit breaking it gives another D.
 * Writes DIR/RULE__NAME.txt ("C A0..A(K-1) B0..B(K-1)" in hex, as `mmaref batch` reads them, after '#'
 * lines naming the rule) for every harness instruction (tools/gpu/hw.c) where at least one vector tells
 * the two apart, and prints per instruction how many do.
 * usage: craft DIR [--n N] [--seed S]     (N vectors a file, default 2000; S the stream's seed, default 1) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hw.h"
#include "mmaref.h"

/* splitmix64: the vectors of (seed, instruction, index) are the same on every host */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

typedef struct {
    uint64_t state;
} rng;
static uint64_t next(rng *r) { return mix(r->state++); }

static int width_of(mmaref_format f)
{
    mmaref_format_info i;
    mmaref_format_get_info(f, &i);
    return i.width;
}

/* The largest power of two of a format, as bits (its sign set by neg), or 0 when it has none. */
static uint64_t top_power(mmaref_format f, int neg)
{
    mmaref_format_info i;
    mmaref_format_get_info(f, &i);
    uint64_t bits;
    for (int e = ilogb(mmaref_format_to_double(f, i.max_finite)); e > -1100; e--)
        if (mmaref_format_from_double(f, ldexp(neg ? -1.0 : 1.0, e), &bits) == MMAREF_OK)
            return bits;
    return 0;
}

/* A tiny C: a subnormal (random nonzero mantissa) or one of the three smallest binades of normals, either
 * sign. */
static uint64_t tiny_of(mmaref_format f, rng *r)
{
    mmaref_format_info i;
    mmaref_format_get_info(f, &i);
    uint64_t man = next(r) & ((1ULL << i.man_bits) - 1), sign = (next(r) & 1) << (i.width - 1);
    uint64_t exp = next(r) % 2 ? 0 : 1 + next(r) % 3;
    if (exp == 0 && man == 0)
        man = 1;
    return sign | exp << i.man_bits | man;
}

/* A vector of the zero-term rule: lane k's product +0 (A's or B's, by a coin) times the other format's
 * largest power of two, of either sign (so the product's sign varies). */
static void zero_term_vector(const mmaref_instr *in, rng *r, uint64_t *c, uint64_t *a, uint64_t *b)
{
    *c = tiny_of(in->c, r);
    for (int k = 0; k < in->k; k++) {
        uint64_t bits = next(r);
        if (bits & 1)
            a[k] = 0, b[k] = top_power(in->b, bits & 2);
        else
            a[k] = top_power(in->a, bits & 2), b[k] = 0;
    }
}

/* The record with the alternative rule: every pass's zero term at the convention's -126 per operand. */
static int zero_term_alternative(const mmaref_instr *in, mmaref_instr *alt)
{
    int changed = 0;
    *alt = *in;
    for (int p = 0; p < alt->passes; p++)
        if (alt->pass[p].algo == MMAREF_ALGO_FDA && alt->pass[p].zero_term_exp != 0)
            alt->pass[p].zero_term_exp = 0, changed = 1;
    return changed;
}

static void put_hex(FILE *f, uint64_t x, mmaref_format fmt)
{
    fprintf(f, "0x%0*llx", (width_of(fmt) + 3) / 4, (unsigned long long)x);
}

static void put_vector(FILE *f, const mmaref_instr *in, uint64_t c, const uint64_t *a, const uint64_t *b)
{
    put_hex(f, c, in->c);
    for (int k = 0; k < in->k; k++)
        fputc(' ', f), put_hex(f, a[k], in->a);
    for (int k = 0; k < in->k; k++)
        fputc(' ', f), put_hex(f, b[k], in->b);
    fputc('\n', f);
}

/* DIR/RULE__NAME.txt of up to n vectors of the rule stream that catch rule r (every one it tries: at most
 * 8 n times the instruction's rule count); prints how many.  0, or 1 after a message. */
static int rule_file(const char *dir, const hw_instr *hi, const mmaref_instr *in, int r, long long n,
                     long long seed)
{
    int rules = 0;
    for (int i = 1; i <= mmaref_rule_count(); i++)
        rules += mmaref_rule_applies(in, i);
    const char *name = mmaref_rule_at(r)->name;
    char path[4096], tmp[4200], msg[256];
    snprintf(path, sizeof path, "%s/%s__%s.txt", dir, name, hi->name);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "craft: cannot write %s: %s\n", tmp, strerror(errno));
        return 1;
    }
    fprintf(f, "# %s: %s, against a unit where %s\n", name, mmaref_rule_at(r)->rule, mmaref_rule_at(r)->bug);
    long long kept = 0;
    uint64_t a[MMAREF_MAX_K], b[MMAREF_MAX_K], c, d, d_alt;
    for (uint64_t i = 0; kept < n && i < (uint64_t)(8 * n * rules); i++) {
        if (mmaref_gen_vector(in, MMAREF_GEN_RULE, (uint64_t)seed, i, &c, a, b, NULL, NULL) < 0 ||
            mmaref_dot(in, c, a, b, NULL, NULL, &d, msg, sizeof msg) != MMAREF_OK ||
            mmaref_rule_broken_dot(in, r, c, a, b, NULL, NULL, &d_alt, msg, sizeof msg) != MMAREF_OK) {
            fprintf(stderr, "craft: %s: %s\n", hi->name, msg);
            fclose(f);
            remove(tmp);
            return 1;
        }
        if (d != d_alt)
            put_vector(f, in, c, a, b), kept++;
    }
    if (fclose(f) != 0 || (kept == 0 ? remove(tmp) : rename(tmp, path)) != 0) {
        fprintf(stderr, "craft: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    printf("%s %s: %lld vectors catch it%s\n", name, hi->name, kept, kept ? "" : " (no file)");
    return 0;
}

static int usage(const char *why)
{
    fprintf(stderr, "craft: %s (usage: craft DIR [--n N] [--seed S])\n", why);
    return 2;
}

/* A decimal option value in 1 .. max, or -1. */
static long long number(const char *s, long long max)
{
    char *end;
    if (!*s || *s < '0' || *s > '9' || (s[0] == '0' && s[1]))
        return -1;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    return *end || errno || v < 1 || v > max ? -1 : v;
}

int main(int argc, char **argv)
{
    const char *dir = NULL;
    long long n = 2000, seed = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--n") || !strcmp(argv[i], "--seed")) {
            if (i + 1 == argc)
                return usage("an option without its value");
            long long v = number(argv[i + 1], !strcmp(argv[i], "--n") ? 1000000 : (1LL << 62));
            if (v < 0)
                return usage("--n takes 1 .. 1000000, --seed a positive decimal integer");
            *(!strcmp(argv[i], "--n") ? &n : &seed) = v;
            i++;
        } else if (!dir && argv[i][0] != '-') {
            dir = argv[i];
        } else {
            return usage("unexpected argument");
        }
    }
    if (!dir)
        return usage("no output directory");
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return usage("DIR must be an existing directory");

    for (int h = 0; h < hw_instr_count; h++) {
        const hw_instr *hi = &hw_instrs[h];
        mmaref_instr in, alt;
        char msg[256];
        if (mmaref_lookup(hi->arch, hi->name, &in, msg, sizeof msg) != MMAREF_OK) {
            fprintf(stderr, "craft: %s\n", msg);
            return 1;
        }
        for (int r = 1; r <= mmaref_rule_count(); r++) {
            mmaref_rule_evidence ev;
            /* zero-term-exp has the shaped stream below */
            if (r != mmaref_rule_by_name("zero-term-exp") && mmaref_rule_silicon_of(&in, r, &ev) == MMAREF_OK &&
                ev.kind == MMAREF_SILICON_EXTRAPOLATED && rule_file(dir, hi, &in, r, n, seed))
                return 1;
        }
        if (!zero_term_alternative(&in, &alt))
            continue;
        char path[4096], tmp[4200];
        snprintf(path, sizeof path, "%s/zero-term__%s.txt", dir, hi->name);
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        FILE *f = fopen(tmp, "w");
        if (!f) {
            fprintf(stderr, "craft: cannot write %s: %s\n", tmp, strerror(errno));
            return 1;
        }
        fprintf(f, "# zero-term: a zero term's exponent in e_max, -133 (the table) against the MMA-Sim convention\n");
        long long told = 0;
        uint64_t a[MMAREF_MAX_K], b[MMAREF_MAX_K], c, d, d_alt;
        for (long long i = 0; i < n; i++) {
            rng r = {mix((uint64_t)seed) ^ mix((uint64_t)h << 40 ^ (uint64_t)i)};
            zero_term_vector(&in, &r, &c, a, b);
            if (mmaref_dot(&in, c, a, b, NULL, NULL, &d, msg, sizeof msg) != MMAREF_OK ||
                mmaref_dot(&alt, c, a, b, NULL, NULL, &d_alt, msg, sizeof msg) != MMAREF_OK) {
                fprintf(stderr, "craft: %s: %s\n", hi->name, msg);
                fclose(f);
                remove(tmp);
                return 1;
            }
            told += d != d_alt;
            put_vector(f, &in, c, a, b);
        }
        if (fclose(f) != 0 || (told == 0 ? remove(tmp) : rename(tmp, path)) != 0) {
            fprintf(stderr, "craft: cannot write %s: %s\n", path, strerror(errno));
            return 1;
        }
        printf("zero-term %s: %lld of %lld vectors tell -133 from the convention%s\n", hi->name, told, n,
               told ? "" : " (no file)");
    }
    return 0;
}
