/* libFuzzer: mmaref_dot on arbitrary bits, and on instruction records with fuzzed fields.
 * Input bytes:
 *   [0]      mode: bit 0 edit the record's fields; bit 1 set one stray bit above an operand's width;
 *            bit 2 pass no scale arrays
 *   [1..2]   the instruction: index into the table's distinct arithmetic configurations, in
 *            mmaref_list(NULL) order (little-endian, modulo their number)
 *   edits    (bit 0) a count byte (mod 8), then per edit: a field byte (an int of k .. pass[], modulo
 *            their number) and a tag byte: odd, a 4-byte value follows; even, the value is tag / 2 - 64
 *   operands c, a[k], b[k], sa[], sb[]: each its format's width in whole bytes, little-endian, masked
 *            to the width (missing bytes are 0)
 *   stray    (bit 1) a byte choosing which operand gets the bit just above its width
 * Invariants:
 *   - a record mmaref_check_schedule refuses, mmaref_dot refuses with the same status, without reading
 *     the operands (they are heap blocks of exactly the record's k, so a read past them is a report);
 *   - a record it accepts runs: valid operands give MMAREF_OK, D fits its format's width
 *     (mmaref_format_valid_bits), the same D twice, and the same D from a copy whose checked copy is
 *     cleared (the full check instead of the cached one);
 *   - one stray bit gives MMAREF_ERR_VALUE; missing scale arrays MMAREF_ERR_ARGUMENT. */
#include <stddef.h>

#include "fuzz.h"
#include "mmaref.h"

/* The status mmaref_dot (and mmaref_check_schedule) gives a record it cannot run.  The library
 * returns MMAREF_ERR_INSTRUCTION (tests/api/check_schedule.c holds it to that); if the API moves to
 * MMAREF_ERR_ARGUMENT, this is the one line to change. */
#define REFUSED_RECORD MMAREF_ERR_INSTRUCTION

static mmaref_instr *table;
static size_t table_len;

/* k .. pass[] are ints (enums included): the fields a caller may change in a record */
#define RECORD_FIELDS ((offsetof(mmaref_instr, pass) + sizeof(((mmaref_instr *)0)->pass) - offsetof(mmaref_instr, k)) / sizeof(int))
_Static_assert((offsetof(mmaref_instr, pass) + sizeof(((mmaref_instr *)0)->pass) - offsetof(mmaref_instr, k)) %
                   sizeof(int) == 0 && sizeof(mmaref_pass) % sizeof(int) == 0 && sizeof(mmaref_format) == sizeof(int),
               "mmaref_instr's k .. pass[] is not an array of ints");

/* The table's distinct arithmetic (k .. pass[]): a wgmma family's N variants compute alike. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    size_t n = mmaref_list(NULL, NULL, 0);
    mmaref_instr *all = malloc(n * sizeof *all);
    table = malloc(n * sizeof *table);
    if (!all || !table || mmaref_list(NULL, all, n) != n)
        abort();
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < table_len && memcmp(&table[j].k, &all[i].k, RECORD_FIELDS * sizeof(int)))
            j++;
        if (j == table_len)
            table[table_len++] = all[i];
    }
    free(all);
    return 0;
}

static int width_of(mmaref_format f) { return (unsigned)f < MMAREF_FORMAT_COUNT ? mmaref_format_width(f) : 64; }

static uint64_t take_operand(const uint8_t **p, const uint8_t *end, mmaref_format f)
{
    int w = width_of(f);
    uint64_t v = fuzz_take(p, end, (w + 7) / 8);
    return w == 64 ? v : v & ((1ULL << w) - 1);
}

/* n values in a heap block of exactly n (at least 1) */
static uint64_t *values(int n)
{
    uint64_t *v = calloc(n > 0 ? (size_t)n : 1, sizeof *v);
    if (!v)
        abort();
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    const uint8_t *p = data, *end = data + size;
    int mode = *p++;
    size_t idx = (size_t)fuzz_take(&p, end, 2) % table_len;
    mmaref_instr in = table[idx];

    if (mode & 1) {
        int *field = &in.k;
        int edits = (int)(fuzz_take(&p, end, 1) % 8);
        for (int e = 0; e < edits; e++) {
            size_t i = (size_t)fuzz_take(&p, end, 1) % RECORD_FIELDS;
            int tag = (int)fuzz_take(&p, end, 1);
            field[i] = tag & 1 ? (int)(uint32_t)fuzz_take(&p, end, 4) : tag / 2 - 64;
        }
    }
    char msg[1024];
    mmaref_status check = mmaref_check_schedule(&in, msg, sizeof msg);
    int scales = mmaref_scale_count(&in); /* defined for any record */
    FUZZ_CHECK(check != MMAREF_OK || (scales >= 0 && scales <= MMAREF_MAX_SCALES), "%d scales", scales);

    /* operands sized by the record as it stands: a bad k or block size gets the largest valid size,
     * which a refused record must not read either */
    int k = in.k >= 1 && in.k <= MMAREF_MAX_K ? in.k : MMAREF_MAX_K;
    int ns = check == MMAREF_OK ? scales : MMAREF_MAX_SCALES;
    uint64_t c = take_operand(&p, end, in.c), *a = values(k), *b = values(k), *sa = values(ns), *sb = values(ns);
    for (int i = 0; i < k; i++)
        a[i] = take_operand(&p, end, in.a);
    for (int i = 0; i < k; i++)
        b[i] = take_operand(&p, end, in.b);
    for (int i = 0; i < ns; i++)
        sa[i] = take_operand(&p, end, in.scale);
    for (int i = 0; i < ns; i++)
        sb[i] = take_operand(&p, end, in.scale);
    const uint64_t *sa_arg = mode & 4 ? NULL : sa, *sb_arg = mode & 4 ? NULL : sb;

    /* one stray bit: operand number s among c, a[], b[], sa[], sb[] */
    mmaref_status want = MMAREF_OK;
    if ((mode & 2) && check == MMAREF_OK) {
        int s = (int)(fuzz_take(&p, end, 1) % (unsigned)(1 + 2 * k + 2 * ns));
        mmaref_format f = s == 0 ? in.c : s <= k ? in.a : s <= 2 * k ? in.b : in.scale;
        uint64_t *v = s == 0 ? &c : s <= k ? &a[s - 1] : s <= 2 * k ? &b[s - 1 - k] : s <= 2 * k + ns ? &sa[s - 1 - 2 * k]
                                                                                             : &sb[s - 1 - 2 * k - ns];
        if (width_of(f) < 64) {
            *v |= 1ULL << width_of(f);
            want = MMAREF_ERR_VALUE;
        }
    }
    if (check == MMAREF_OK && ns && (mode & 4))
        want = MMAREF_ERR_ARGUMENT; /* scales are checked before the operands' bits */

    uint64_t d1 = 0, d2 = 0, d3 = 0;
    mmaref_status st = mmaref_dot(&in, c, a, b, sa_arg, sb_arg, &d1, msg, sizeof msg);
    if (check != MMAREF_OK) {
        FUZZ_CHECK(check == REFUSED_RECORD && st == check,
                   "record refused by mmaref_check_schedule with %d, mmaref_dot gives %d (%s)", check, st, msg);
    } else if (want != MMAREF_OK) {
        FUZZ_CHECK(st == want, "%s %s: mmaref_dot gives %d, expected %d (%s)", in.arch, in.name, st, want,
                   st ? msg : "no message");
        FUZZ_CHECK(msg[0] && !strchr(msg, '\n'), "refusal message empty or of two lines: '%s'", msg);
    } else {
        FUZZ_CHECK(st == MMAREF_OK, "%s %s (record %sedited): valid operands refused: %s", in.arch, in.name,
                   mode & 1 ? "" : "not ", msg);
        FUZZ_CHECK(mmaref_format_valid_bits(in.d, d1), "%s %s: D = 0x%llx does not fit %s", in.arch, in.name,
                   (unsigned long long)d1, mmaref_format_name(in.d));
        st = mmaref_dot(&in, c, a, b, sa_arg, sb_arg, &d2, msg, sizeof msg);
        mmaref_instr fresh = in;
        memset(fresh.checked, 0, sizeof fresh.checked);
        mmaref_status st3 = mmaref_dot(&fresh, c, a, b, sa_arg, sb_arg, &d3, msg, sizeof msg);
        FUZZ_CHECK(st == MMAREF_OK && st3 == MMAREF_OK && d1 == d2 && d1 == d3,
                   "%s %s: D = 0x%llx, then 0x%llx, then 0x%llx unchecked (status %d, %d)", in.arch, in.name,
                   (unsigned long long)d1, (unsigned long long)d2, (unsigned long long)d3, st, st3);
    }
    free(a), free(b), free(sa), free(sb);
    return 0;
}
