/* libFuzzer: the probe's reader of device answers (cmodel/tools/probe_answers.c: what `mmaref probe`
 * reads from a device's stdout and from a --results file) on arbitrary bytes, given as a file (a memfd).
 * Input: byte 0 picks D's format (modulo the format count), byte 1 the answers asked (0..255); the rest
 * is the device's output.
 * Invariants:
 *   - the status is OK, BAD or SHORT (no time limit here, so never SLOW); *got <= the answers asked;
 *   - OK: the output is exactly that many lines (the last may lack its newline), no NUL byte in it, each
 *     line one hex value that fits D, as probe_parse_answer reads it, in order;
 *   - SHORT: fewer lines than asked, every one an answer (*got of them);
 *   - BAD and SHORT: a message "probe: device ..." on one line (a control byte of the input may be in it:
 *     cli_error escapes it when printing, but never a newline: a line ends at one). */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz.h"
#include "probe.h"

static int fd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fd = memfd_create("fuzz_probe_answers", 0);
    if (fd < 0)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    probe_queries q = {0};
    q.shape.d = (mmaref_format)(data[0] % MMAREF_FORMAT_COUNT);
    q.confirm = data[1];
    const uint8_t *out = data + 2;
    size_t len = size - 2;
    if (ftruncate(fd, 0) || pwrite(fd, out, len, 0) != (ssize_t)len || lseek(fd, 0, SEEK_SET) != 0)
        abort();
    uint64_t answers[256];
    size_t got = 999;
    char err[600] = "";
    int st = probe_read_answers(&q, fd, 0, "device", answers, &got, err, sizeof err);
    FUZZ_CHECK(st == PROBE_ANSWERS_OK || st == PROBE_ANSWERS_BAD || st == PROBE_ANSWERS_SHORT, "status %d", st);
    FUZZ_CHECK(got <= q.confirm, "got %zu of %zu", got, q.confirm);
    if (st != PROBE_ANSWERS_OK)
        FUZZ_CHECK(!strncmp(err, "probe: device ", 14) && !strchr(err, '\n'), "message '%s'", err);

    /* the lines, cut here independently of the reader */
    size_t lines = 0, at = 0;
    int all_answers = 1;
    while (at < len) {
        const uint8_t *nl = memchr(out + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - out) : len;
        uint64_t v;
        int bad = probe_parse_answer(q.shape.d, (const char *)out + at, end - at, &v);
        if (bad == 2)
            FUZZ_CHECK(memchr(out + at, 0, end - at), "a NUL byte reported where none is");
        if (!bad) {
            FUZZ_CHECK(mmaref_format_valid_bits(q.shape.d, v), "0x%llx does not fit", (unsigned long long)v);
            if (lines < got)
                FUZZ_CHECK(answers[lines] == v, "answer %zu: 0x%llx, the line says 0x%llx", lines,
                           (unsigned long long)answers[lines], (unsigned long long)v);
        } else if (lines < got) {
            FUZZ_CHECK(0, "line %zu is not an answer but was taken as one", lines + 1);
        }
        all_answers &= !bad;
        lines++;
        at = end + 1;
    }
    if (st == PROBE_ANSWERS_OK)
        FUZZ_CHECK(lines == q.confirm && all_answers && !memchr(out, 0, len) && got == q.confirm,
                   "OK on %zu lines (asked %zu), all answers %d", lines, q.confirm, all_answers);
    if (st == PROBE_ANSWERS_SHORT)
        FUZZ_CHECK(lines == got && got < q.confirm && all_answers, "SHORT after %zu of %zu lines", got, lines);
    return 0;
}
