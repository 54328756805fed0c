/* Shared pieces of the `mmaref study` commands: output directory and gnuplot (study.h). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "study.h"

int study_mkdir_p(const char *path)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0777) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

int study_gnuplot_string(char *out, size_t cap, const char *text)
{
    size_t o = 0;
    if (cap < 3)
        return 1;
    out[o++] = '\'';
    for (const char *p = text; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch < 0x20 || ch == 0x7f || o + 4 > cap) {
            snprintf(out, cap, "''");
            return 1;
        }
        if (ch == '\'')
            out[o++] = '\'';
        out[o++] = (char)ch;
    }
    out[o++] = '\'';
    out[o] = 0;
    return 0;
}

int study_run_gnuplot(const char *dir, const char *gp, const char *png, const char *csv)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL);
        if (chdir(dir))
            _exit(126);
        execlp("gnuplot", "gnuplot", gp, (char *)NULL);
        _exit(127); /* as the shell reports a missing command */
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        cli_error("study: cannot run gnuplot: %s", strerror(errno));
        return 1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        cli_error("study: gnuplot not found, so no %s (install it, e.g. 'apt-get install gnuplot-nox', then run "
                  "'gnuplot %s' in %s; the statistics and %s are complete)", png, gp, dir, csv);
        return 1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status)) {
        cli_error("study: gnuplot failed on %s in %s", gp, dir);
        return 1;
    }
    printf("  png: %s\n", png);
    return 0;
}
