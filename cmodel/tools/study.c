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
#include "outfile.h"
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
    /* gnuplot draws into a temporary beside the PNG (outfile.h), renamed over it when gnuplot succeeds;
     * the script's variable png names it, relative to DIR where gnuplot runs (absolute through a link) */
    out_file o;
    char err[300], name[2 * PATH_MAX + 8], expr[2 * PATH_MAX + 16];
    if (out_file_open(&o, png, err, sizeof err)) {
        cli_error("study: cannot write '%s': %s", png, err);
        return 1;
    }
    const char *t = o.tmp[0] ? o.tmp : o.target;
    size_t n = strlen(dir);
    const char *rel = !strncmp(t, dir, n) && t[n] == '/' ? t + n + 1 : t;
    if (study_gnuplot_string(name, sizeof name, rel)) {
        out_file_abandon(&o);
        cli_error("study: cannot name '%s' in a gnuplot script", t);
        return 1;
    }
    snprintf(expr, sizeof expr, "png = %s", name);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL);
        if (chdir(dir))
            _exit(126);
        execlp("gnuplot", "gnuplot", "-e", expr, gp, (char *)NULL);
        _exit(127); /* as the shell reports a missing command */
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        out_file_abandon(&o);
        cli_error("study: cannot run gnuplot: %s", strerror(errno));
        return 1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        out_file_abandon(&o);
        cli_error("study: gnuplot not found, so no %s (install it, e.g. 'apt-get install gnuplot-nox', then run "
                  "'gnuplot %s' in %s; the statistics and %s are complete)", png, gp, dir, csv);
        return 1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status)) {
        out_file_abandon(&o);
        cli_error("study: gnuplot failed on %s in %s", gp, dir);
        return 1;
    }
    if (out_file_commit(&o, err, sizeof err)) {
        cli_error("study: cannot write '%s': %s", png, err);
        return 1;
    }
    printf("  png: %s\n", png);
    return 0;
}
