/* The CLI's standard output at its end: a failed write reported once, and a reader that has gone
 * (`mmaref list --json | head`) ended as cat ends it, by SIGPIPE, quietly (cli.h).  POSIX: not part of
 * the web page's build (mk/web.mk), which has no stdout to lose. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Set once a write to stdout found no reader left. */
static int stdout_unread;

/* Whether stdout has no reader left: the failed write said so (EPIPE), or stdout is a pipe whose read
 * end is closed (poll reports an error on it; a later write found a full buffer's worth gone, errno
 * since overwritten). */
static int stdout_reader_gone(void)
{
    if (errno == EPIPE)
        return 1;
    struct pollfd p = {.fd = STDOUT_FILENO, .events = POLLOUT};
    return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

int cli_stdout_error(const char *cmd)
{
    static int reported;
    if (stdout_unread || (stdout_unread = stdout_reader_gone()))
        return 2;
    if (!reported++)
        cli_error("%s: error writing standard output: %s", cmd, errno ? strerror(errno) : "write failed");
    return 2;
}

int cli_stdout_finish(const char *cmd, int rc)
{
    errno = 0;
    if (fflush(stdout) || ferror(stdout) || fclose(stdout))
        rc = cli_stdout_error(cmd); /* one line, if the command has not reported it already */
    if (stdout_unread) { /* end as cat does when its reader goes: by SIGPIPE, quietly */
        sigset_t pipe_only;
        sigemptyset(&pipe_only);
        sigaddset(&pipe_only, SIGPIPE);
        signal(SIGPIPE, SIG_DFL);
        sigprocmask(SIG_UNBLOCK, &pipe_only, NULL);
        raise(SIGPIPE);
    }
    return rc;
}
