/* mmaref probe: the device channel.  COMMAND is started once; a writer child feeds it the query lines
 * (what `mmaref gen` writes and `mmaref batch` reads) while this process reads one D per line, so a
 * large round cannot deadlock on full pipes.  Offline: the same lines written to a file, and the D
 * lines a GPU produced for them read back. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "probe.h"

static int write_queries(const probe_queries *q, FILE *f)
{
    uint64_t row[PROBE_ROW_MAX];
    static char line[PROBE_ROW_MAX * 20 + 2];
    for (size_t i = 0; i < probe_total(q); i++) {
        probe_row(q, i, row);
        probe_format_row(q, row, line, sizeof line);
        if (fputs(line, f) == EOF || fputc('\n', f) == EOF)
            return 1;
    }
    return fflush(f) != 0;
}

/* One D from a line: one hex field (0x optional) fitting D's format, alone on the line; 0 on success. */
static int parse_d(const char *line, mmaref_format d, uint64_t *v)
{
    const char *p = line + strspn(line, " \t");
    uint64_t x;
    if (cli_parse_hex_field(&p, &x) || p[strspn(p, " \t\r\n")] || !mmaref_format_valid_bits(d, x))
        return 1;
    *v = x;
    return 0;
}

/* Read exactly probe_total(q) D lines from f; `what` names the source in the message written to err. */
static int read_answers(const probe_queries *q, FILE *f, const char *what, uint64_t *answers, char *err, size_t cap)
{
    static char line[256];
    size_t n = 0, total = probe_total(q);
    while (fgets(line, sizeof line, f)) {
        if (n == total) {
            snprintf(err, cap, "probe: %s answered more than the %zu lines asked", what, total);
            return 1;
        }
        if (parse_d(line, q->shape.d, &answers[n])) {
            line[strcspn(line, "\r\n")] = 0;
            snprintf(err, cap, "probe: %s line %zu is not a hex %s value: '%.40s'", what, n + 1,
                     mmaref_format_name(q->shape.d), line);
            return 1;
        }
        n++;
    }
    if (n < total) {
        snprintf(err, cap, "probe: %s answered %zu of the %zu lines asked", what, n, total);
        return 1;
    }
    return 0;
}

int probe_device_run(const probe_queries *q, char *const argv[], uint64_t *answers)
{
    int to_dev[2], from_dev[2];
    if (pipe(to_dev) || pipe(from_dev))
        return cli_error("probe: pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t dev = fork();
    if (dev < 0)
        return cli_error("probe: fork: %s", strerror(errno));
    if (dev == 0) {
        setpgid(0, 0); /* a group of its own, so that a hung device can be stopped with its children */
        dup2(to_dev[0], 0);
        dup2(from_dev[1], 1);
        close(to_dev[0]), close(to_dev[1]), close(from_dev[0]), close(from_dev[1]);
        execvp(argv[0], argv);
        _exit(127); /* reported by the parent, as the shell does: status 127 */
    }
    close(to_dev[0]);
    close(from_dev[1]);
    pid_t writer = fork();
    if (writer < 0)
        return cli_error("probe: fork: %s", strerror(errno));
    if (writer == 0) {
        close(from_dev[0]);
        signal(SIGPIPE, SIG_DFL);
        FILE *f = fdopen(to_dev[1], "w");
        _exit(!f || write_queries(q, f) || fclose(f));
    }
    close(to_dev[1]);
    /* the answers' errors wait until the device's exit status is known: a failing device is the cause */
    char err[300] = "";
    FILE *in = fdopen(from_dev[0], "r");
    int bad = !in || read_answers(q, in, "device", answers, err, sizeof err);
    if (in)
        fclose(in);
    else
        close(from_dev[0]);
    int st_dev = 0, st_writer = 0;
    if (bad) {
        /* a device that stopped answering but lives on gets 5 s to exit with its own status */
        kill(writer, SIGTERM);
        int waited = 0;
        while (waitpid(dev, &st_dev, WNOHANG) == 0 && waited++ < 50)
            usleep(100000);
        if (waited > 50) {
            kill(-dev, SIGTERM); /* its process group: what it started goes too */
            waitpid(dev, &st_dev, 0);
            waitpid(writer, &st_writer, 0);
            return cli_error("%s; the device did not exit within 5 s and was stopped", err);
        }
    } else {
        waitpid(dev, &st_dev, 0);
    }
    waitpid(writer, &st_writer, 0);
    if (!WIFEXITED(st_dev) || WEXITSTATUS(st_dev))
        return cli_error("probe: device '%s' %s %d%s", argv[0], WIFEXITED(st_dev) ? "exited with status" : "killed by signal",
                         WIFEXITED(st_dev) ? WEXITSTATUS(st_dev) : WTERMSIG(st_dev),
                         WIFEXITED(st_dev) && WEXITSTATUS(st_dev) == 127 ? " (not found or not executable?)" : "");
    if (bad)
        return cli_error("%s", err[0] ? err : "probe: device: cannot read its output");
    if (!WIFEXITED(st_writer) || WEXITSTATUS(st_writer))
        return cli_error("probe: device '%s' did not read all %zu query lines", argv[0], probe_total(q));
    return 0;
}

int probe_write_queries(const probe_queries *q, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return cli_error("probe: --queries %s: %s", path, strerror(errno));
    int bad = write_queries(q, f);
    if (fclose(f) || bad)
        return cli_error("probe: --queries %s: write failed", path);
    return 0;
}

int probe_read_results(const probe_queries *q, const char *path, uint64_t *answers)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return cli_error("probe: --results %s: %s", path, strerror(errno));
    char what[300];
    snprintf(what, sizeof what, "--results %s", path);
    char err[400];
    int bad = read_answers(q, f, what, answers, err, sizeof err);
    fclose(f);
    return bad ? cli_error("%s", err) : 0;
}
