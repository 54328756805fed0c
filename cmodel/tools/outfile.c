/* Files the CLI writes: a temporary beside the target, renamed into place when complete (outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return 1;
}

int out_file_open(out_file *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    struct stat st, lst;
    int exists = stat(path, &st) == 0;
    if (!exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        char to[PATH_MAX];
        ssize_t n = readlink(path, to, sizeof to - 1);
        to[n > 0 ? n : 0] = 0;
        return fail(err, errlen, "is a symbolic link to '%s', which does not exist; not replacing the link "
                    "(create the file it names, or remove the link)", to);
    }
    if (exists && !S_ISREG(st.st_mode)) { /* a device, a pipe: written in place */
        errno = 0;
        if (!(o->f = fopen(path, "wb")))
            return fail(err, errlen, "cannot open: %s", strerror(errno));
        snprintf(o->target, sizeof o->target, "%s", path);
        return 0;
    }
    /* a symbolic link is followed: the file it names is replaced and the link kept */
    if (exists && !realpath(path, o->target))
        return fail(err, errlen, "cannot resolve: %s", strerror(errno));
    if (!exists && snprintf(o->target, sizeof o->target, "%s", path) >= (int)sizeof o->target)
        return fail(err, errlen, "path is longer than %d bytes", PATH_MAX - 1);
    snprintf(o->tmp, sizeof o->tmp, "%s.tmpXXXXXX", o->target);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        o->tmp[0] = 0;
        return fail(err, errlen, "cannot create a temporary file beside it: %s", strerror(errno));
    }
    /* the permissions a plain creation would give, or those of the file being replaced */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~mask) || !(o->f = fdopen(fd, "wb"))) {
        int saved = errno;
        close(fd), unlink(o->tmp);
        o->tmp[0] = 0;
        return fail(err, errlen, "cannot write a temporary file beside it: %s", strerror(saved));
    }
    return 0;
}

int out_file_commit(out_file *o, char *err, size_t errlen)
{
    if (!o->f)
        return fail(err, errlen, "not open");
    errno = 0;
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int saved = errno;
    bad |= fclose(o->f) != 0;
    if (!saved)
        saved = errno;
    o->f = NULL;
    if (!bad && o->tmp[0] && rename(o->tmp, o->target) != 0)
        bad = 1, saved = errno;
    if (bad && o->tmp[0])
        unlink(o->tmp);
    o->tmp[0] = 0;
    return bad ? fail(err, errlen, "write error: %s", saved ? strerror(saved) : "write failed") : 0;
}

void out_file_abandon(out_file *o)
{
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    if (o->tmp[0])
        unlink(o->tmp);
    o->tmp[0] = 0;
}
