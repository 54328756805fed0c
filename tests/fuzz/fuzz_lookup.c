/* libFuzzer: the string-taking API entries on arbitrary strings.
 * Input: "ARCH\nNAME" (no line break: the whole input is both).  Each string lives in a heap block of
 * its exact size, so a read past its NUL is an AddressSanitizer report.
 * Invariants:
 *   mmaref_lookup  the same status with a long message buffer and a short one (or msg NULL); a refusal
 *                  has a non-empty one-line message, truncated (NUL-terminated) in the short buffer; a found
 *                  record passes mmaref_check_schedule, belongs to the canonical architecture, is named
 *                  NAME (or has NAME as its SASS alias, ignoring case) and is found again by its names.
 *   mmaref_arch_canonical      NULL, or one of mmaref_arch_names() that maps to itself.
 *   mmaref_format_by_name      MMAREF_FORMAT_COUNT, or a format whose name (or a documented alias)
 *                              is the string, ignoring case.
 *   mmaref_gen_kind_by_name    MMAREF_GEN_KIND_COUNT, or a kind whose name is the string. */
#include <stddef.h>
#include <strings.h>

#include "fuzz.h"
#include "mmaref.h"

/* The format aliases DESIGN.md names: AMD fp8 = e4m3fnuz, bf8 = e5m2fnuz, xf32 = tf32; OCP spellings
 * e4m3fn = e4m3 and e8m0 = ue8m0. */
static const struct { const char *alias, *format; } format_aliases[] = {
    {"fp8", "e4m3fnuz"}, {"bf8", "e5m2fnuz"}, {"xf32", "tf32"}, {"e4m3fn", "e4m3"}, {"e8m0", "ue8m0"},
};

static void check_arch(const char *s)
{
    const char *c = mmaref_arch_canonical(s);
    if (!c)
        return;
    int listed = 0;
    for (const char *const *n = mmaref_arch_names(); *n; n++)
        listed |= *n == c;
    FUZZ_CHECK(listed, "mmaref_arch_canonical('%s') = '%s' is not in mmaref_arch_names()", s, c);
    FUZZ_CHECK(mmaref_arch_canonical(c) == c, "canonical name '%s' does not map to itself", c);
}

static void check_format(const char *s)
{
    mmaref_format f = mmaref_format_by_name(s);
    if (f == MMAREF_FORMAT_COUNT)
        return;
    FUZZ_CHECK((unsigned)f < MMAREF_FORMAT_COUNT, "mmaref_format_by_name('%s') = %d", s, (int)f);
    const char *name = mmaref_format_name(f);
    int match = !strcasecmp(s, name);
    for (size_t i = 0; i < sizeof format_aliases / sizeof format_aliases[0]; i++)
        match |= !strcasecmp(s, format_aliases[i].alias) && !strcmp(name, format_aliases[i].format);
    FUZZ_CHECK(match, "mmaref_format_by_name('%s') gives %s", s, name);
    FUZZ_CHECK(mmaref_format_by_name(name) == f, "format %s is not found by its own name", name);
}

static void check_gen_kind(const char *s)
{
    mmaref_gen_kind k = mmaref_gen_kind_by_name(s);
    if (k == MMAREF_GEN_KIND_COUNT)
        return;
    FUZZ_CHECK((unsigned)k < MMAREF_GEN_KIND_COUNT && !strcasecmp(s, mmaref_gen_kind_name(k)),
               "mmaref_gen_kind_by_name('%s') = %d", s, (int)k);
}

/* k .. checked: what the arithmetic reads and the library's checked copy; ints and bytes, no padding */
static int same_record(const mmaref_instr *x, const mmaref_instr *y)
{
    size_t from = offsetof(mmaref_instr, k), to = offsetof(mmaref_instr, checked) + sizeof x->checked;
    return x->arch == y->arch && !strcmp(x->name, y->name) && !strcmp(x->sass, y->sass) && x->m == y->m &&
           x->n == y->n && x->blocks == y->blocks && !memcmp((const char *)x + from, (const char *)y + from, to - from);
}

static void check_lookup(const char *arch, const char *name, size_t short_len)
{
    static char big[8192];
    char *small = short_len ? malloc(short_len) : NULL; /* exactly short_len bytes: a longer write is a report */
    mmaref_instr in, again;
    mmaref_status st1 = mmaref_lookup(arch, name, &in, small, short_len);
    mmaref_status st = mmaref_lookup(arch, name, &in, big, sizeof big);
    FUZZ_CHECK(st1 == st, "lookup status depends on the message buffer: %d, %d", st1, st);
    if (st != MMAREF_OK) {
        FUZZ_CHECK(st == MMAREF_ERR_ARCH || st == MMAREF_ERR_INSTRUCTION, "lookup status %d", st);
        FUZZ_CHECK(big[0] && strlen(big) < sizeof big - 1, "lookup message empty or filling its buffer");
        FUZZ_CHECK(fuzz_one_line(big, arch) || fuzz_one_line(big, name), "lookup message of two lines: %s", big);
        size_t n = short_len ? strnlen(small, short_len) : 0;
        FUZZ_CHECK(!short_len || (n < short_len && !strncmp(small, big, n)),
                   "short message buffer not a NUL-terminated prefix");
        free(small);
        return;
    }
    free(small);
    char msg[512];
    FUZZ_CHECK(mmaref_check_schedule(&in, msg, sizeof msg) == MMAREF_OK, "found record fails its check: %s", msg);
    FUZZ_CHECK(in.arch == mmaref_arch_canonical(arch), "record's arch '%s' is not the canonical name of '%s'",
               in.arch, arch);
    FUZZ_CHECK(!strcasecmp(in.name, name) || !strcasecmp(in.sass, name), "'%s' found '%s' (alias '%s')", name,
               in.name, in.sass);
    FUZZ_CHECK(mmaref_lookup(in.arch, in.name, &again, NULL, 0) == MMAREF_OK && same_record(&in, &again),
               "record %s %s differs when found by its canonical names", in.arch, in.name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    size_t arch_len = nl ? (size_t)(nl - data) : size;
    char *arch = fuzz_string(data, arch_len);
    char *name = nl ? fuzz_string(nl + 1, size - arch_len - 1) : fuzz_string(data, size);

    check_arch(arch);
    check_arch(name);
    check_format(arch);
    check_format(name);
    check_gen_kind(arch);
    check_gen_kind(name);
    check_lookup(arch, name, size % 48);

    free(arch);
    free(name);
    return 0;
}
