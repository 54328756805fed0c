/* mmaref probe: the device's answers, one D per line, read from a descriptor (the device's stdout, or a
 * --results file) with a time limit on each line.  Every byte is untrusted: a line is one hex field
 * fitting D's format and nothing else (no NUL byte, at most PROBE_ANSWER_MAX characters). */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "probe.h"

int probe_parse_answer(mmaref_format d, const char *line, size_t len, uint64_t *v)
{
    if (memchr(line, 0, len))
        return 2;
    char buf[PROBE_ANSWER_MAX + 1];
    if (len > PROBE_ANSWER_MAX)
        return 1;
    memcpy(buf, line, len);
    buf[len] = 0; /* cli_parse_hex_field stops at the NUL */
    const char *p = buf + strspn(buf, " \t");
    uint64_t x;
    if (cli_parse_hex_field(&p, &x) || p[strspn(p, " \t\r")] || !mmaref_format_valid_bits(d, x))
        return 1;
    *v = x;
    return 0;
}

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Waits until fd is readable or the deadline passes (deadline < 0: no limit); 0 readable, 1 too late. */
static int wait_readable(int fd, long long deadline)
{
    for (;;) {
        long long left = deadline < 0 ? -1 : deadline - now_ms();
        if (deadline >= 0 && left <= 0)
            return 1;
        struct pollfd p = {fd, POLLIN, 0};
        int n = poll(&p, 1, left < 0 ? -1 : left > 1000000 ? 1000000 : (int)left);
        if (n > 0)
            return 0;
        if (n < 0 && errno != EINTR)
            return 0; /* let read() report it */
    }
}

int probe_read_answers(const probe_queries *q, int fd, int timeout_ms, const char *what, uint64_t *answers,
                       size_t *got, char *err, size_t cap)
{
    char buf[PROBE_ANSWER_MAX + 2];
    size_t have = 0, n = 0, total = probe_total(q);
    int eof = 0;
    long long deadline = timeout_ms > 0 ? now_ms() + timeout_ms : -1;
    *got = 0;
    for (;;) {
        char *nl = memchr(buf, '\n', have);
        if (!nl && !eof && have < sizeof buf) {
            if (wait_readable(fd, deadline)) {
                *got = n;
                if (n == total)
                    snprintf(err, cap, "probe: %s answered all %zu lines but did not close its output within %d s",
                             what, total, timeout_ms / 1000);
                else
                    snprintf(err, cap, "probe: %s gave no answer line for %d s (%zu of the %zu lines answered)",
                             what, timeout_ms / 1000, n, total);
                return PROBE_ANSWERS_SLOW;
            }
            ssize_t r = read(fd, buf + have, sizeof buf - have);
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0) {
                *got = n;
                snprintf(err, cap, "probe: %s: read error: %s", what, strerror(errno));
                return PROBE_ANSWERS_BAD;
            }
            eof = r == 0;
            have += (size_t)r;
            continue;
        }
        if (!nl && !have) /* the end */
            break;
        size_t len = nl ? (size_t)(nl - buf) : have; /* a last line may lack its newline */
        *got = n;
        if (!nl && !eof) {
            snprintf(err, cap, "probe: %s line %zu is longer than %d characters", what, n + 1, PROBE_ANSWER_MAX);
            return PROBE_ANSWERS_BAD;
        }
        if (n == total) {
            snprintf(err, cap, "probe: %s answered more than the %zu lines asked", what, total);
            return PROBE_ANSWERS_BAD;
        }
        int bad = probe_parse_answer(q->shape.d, buf, len, &answers[n]);
        if (bad == 2) {
            snprintf(err, cap, "probe: %s line %zu has a NUL byte", what, n + 1);
            return PROBE_ANSWERS_BAD;
        }
        if (bad) {
            buf[len < 40 ? len : 40] = 0;
            buf[strcspn(buf, "\r")] = 0;
            snprintf(err, cap, "probe: %s line %zu is not a hex %s value: '%s'", what, n + 1,
                     mmaref_format_name(q->shape.d), buf);
            return PROBE_ANSWERS_BAD;
        }
        n++;
        size_t used = nl ? len + 1 : len;
        memmove(buf, buf + used, have - used);
        have -= used;
        if (timeout_ms > 0)
            deadline = now_ms() + timeout_ms; /* each line gets the whole limit */
    }
    *got = n;
    if (n < total) {
        snprintf(err, cap, "probe: %s answered %zu of the %zu lines asked", what, n, total);
        return PROBE_ANSWERS_SHORT;
    }
    return PROBE_ANSWERS_OK;
}
