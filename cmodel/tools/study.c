/* Shared pieces of the `mmaref study` commands: output directory and gnuplot (study.h). */
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

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

void study_gnuplot_string(char *out, size_t cap, const char *path)
{
    size_t o = 0;
    for (const char *p = path; *p && o + 3 < cap; p++) {
        if (*p == '\'')
            out[o++] = '\'';
        out[o++] = *p;
    }
    out[o] = 0;
}

extern char **environ;

int study_run_gnuplot(const char *gp, const char *png, const char *csv)
{
    pid_t pid;
    char *const args[] = {"gnuplot", (char *)gp, NULL};
    int st = posix_spawnp(&pid, "gnuplot", NULL, NULL, args, environ), status = 0;
    if (st == ENOENT) {
        cli_error("study: gnuplot not found, so no %s (install it, e.g. 'apt-get install gnuplot-nox', then run "
                  "'gnuplot %s'; the statistics and %s are complete)", png, gp, csv);
        return 1;
    }
    if (st || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
        cli_error("study: gnuplot failed on %s", gp);
        return 1;
    }
    printf("  png: %s\n", png);
    return 0;
}
