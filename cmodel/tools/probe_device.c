/* mmaref probe: the device channel.  COMMAND is started once; a writer child feeds it the query lines
 * (what `mmaref gen` writes and `mmaref batch` reads) while this process reads one D per line, so a
 * large round cannot deadlock on full pipes.  Offline: the same lines written to a file, and the D
 * lines a GPU produced for them read back. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"
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

/* Waits up to ms (< 0: no limit) for pid to exit; 0 with its status in *st, 1 if it still runs. */
static int wait_exit(pid_t pid, int ms, int *st)
{
    for (int waited = 0;; waited += 10) {
        pid_t r = waitpid(pid, st, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            return 0;
        if (ms >= 0 && waited >= ms)
            return 1;
        usleep(10000);
    }
}

/* Stops the device and everything it started (its process group): SIGTERM, then SIGKILL if the device
 * has not exited PROBE_GRACE_S later (and to what it left behind: a child holding the pipe).  Returns
 * how, for the message. */
static const char *stop_group(pid_t dev, int *st)
{
    static char how[128];
    kill(-dev, SIGTERM);
    int ignored = wait_exit(dev, PROBE_GRACE_S * 1000, st);
    kill(-dev, SIGKILL);
    if (ignored)
        wait_exit(dev, -1, st);
    snprintf(how, sizeof how, ignored ? "stopped it and its process group (SIGTERM ignored: SIGKILL after %d s)"
                                      : "stopped it and its process group (SIGTERM)", PROBE_GRACE_S);
    return how;
}

int probe_device_run(const probe_queries *q, char *const argv[], int timeout_s, uint64_t *answers)
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
        signal(SIGPIPE, SIG_DFL); /* the device's own default, whatever this process does */
        dup2(to_dev[0], 0);
        dup2(from_dev[1], 1);
        close(to_dev[0]), close(to_dev[1]), close(from_dev[0]), close(from_dev[1]);
        execvp(argv[0], argv);
        _exit(127); /* reported by the parent, as the shell does: status 127 */
    }
    setpgid(dev, dev); /* also here: the group exists before any kill(-dev) below */
    close(to_dev[0]);
    close(from_dev[1]);
    pid_t writer = fork();
    if (writer < 0) {
        kill(-dev, SIGKILL);
        waitpid(dev, NULL, 0);
        return cli_error("probe: fork: %s", strerror(errno));
    }
    if (writer == 0) {
        close(from_dev[0]);
        signal(SIGPIPE, SIG_IGN); /* a device that stops reading is a write error (EPIPE), reported below */
        FILE *f = fdopen(to_dev[1], "w");
        _exit(!f || write_queries(q, f) || fclose(f));
    }
    close(to_dev[1]);
    int timeout_ms = timeout_s * 1000;
    char err[700], what[300];
    snprintf(what, sizeof what, "device '%s'", argv[0]);
    size_t got;
    int how = probe_read_answers(q, from_dev[0], timeout_ms, what, answers, &got, err, sizeof err);
    close(from_dev[0]); /* a device still writing now gets EPIPE (or SIGPIPE) */
    int st_dev = 0, st_writer = 0;
    const char *stopped = NULL;
    if (how == PROBE_ANSWERS_SLOW || wait_exit(dev, how == PROBE_ANSWERS_BAD ? PROBE_GRACE_S * 1000 : timeout_ms, &st_dev))
        stopped = stop_group(dev, &st_dev);
    /* the writer ends when the device's stdin closes; a child of the device holding it open was stopped
     * above with its group, or is stopped here */
    if (wait_exit(writer, stopped ? 0 : timeout_ms, &st_writer)) {
        kill(writer, SIGKILL);
        wait_exit(writer, -1, &st_writer);
    }
    kill(-dev, SIGKILL); /* what the device left running in its group (it is done: one run per probe) */
    if (how == PROBE_ANSWERS_BAD) /* the answer is the fault, not how the device ended after it */
        return cli_error("%s", err);
    if (how == PROBE_ANSWERS_SLOW)
        return cli_error("%s; %s (see --timeout)", err, stopped);
    if (stopped)
        return cli_error("probe: device '%s' %s %zu of the %zu lines and then did not exit within %d s; %s (see "
                         "--timeout)", argv[0], how == PROBE_ANSWERS_OK ? "answered all" : "closed its output after",
                         got, probe_total(q), timeout_s, stopped);
    if (!WIFEXITED(st_dev) || WEXITSTATUS(st_dev))
        return cli_error("probe: device '%s' %s %d%s", argv[0], WIFEXITED(st_dev) ? "exited with status" : "killed by signal",
                         WIFEXITED(st_dev) ? WEXITSTATUS(st_dev) : WTERMSIG(st_dev),
                         WIFEXITED(st_dev) && WEXITSTATUS(st_dev) == 127 ? " (not found or not executable?)" : "");
    if (how == PROBE_ANSWERS_SHORT)
        return cli_error("%s", err);
    if (!WIFEXITED(st_writer) || WEXITSTATUS(st_writer))
        return cli_error("probe: device '%s' did not read all %zu query lines", argv[0], probe_total(q));
    return 0;
}

int probe_write_queries(const probe_queries *q, const char *path)
{
    out_file o;
    char err[300];
    if (out_file_open(&o, path, err, sizeof err))
        return cli_error("probe: --queries '%s': %s", path, err);
    if (write_queries(q, o.f)) {
        int saved = errno;
        out_file_abandon(&o);
        return cli_error("probe: --queries '%s': write error: %s", path, saved ? strerror(saved) : "write failed");
    }
    if (out_file_commit(&o, err, sizeof err))
        return cli_error("probe: --queries '%s': %s", path, err);
    return 0;
}

int probe_read_results(const probe_queries *q, const char *path, uint64_t *answers)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return cli_error("probe: --results %s: %s", path, strerror(errno));
    char what[300], err[600];
    snprintf(what, sizeof what, "--results %s", path);
    size_t got;
    int how = probe_read_answers(q, fd, 0, what, answers, &got, err, sizeof err);
    close(fd);
    return how != PROBE_ANSWERS_OK ? cli_error("%s", err) : 0;
}
