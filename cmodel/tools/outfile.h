/* Every file the CLI writes (-o, --out, --queries) goes through here.  A regular file, or a new one, is
 * written to a temporary file beside it (same directory, so the rename is atomic) and renamed over it
 * only when every byte is written: a failure leaves what was there untouched and no partial file.  A
 * symbolic link is followed (the file it names is replaced, the link kept); a dangling one is refused,
 * since renaming over it would replace the link.  Anything else that exists (a device, a pipe,
 * /dev/stdout) is written directly and never removed. */
#ifndef MMAREF_OUTFILE_H
#define MMAREF_OUTFILE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    FILE *f;                 /* write here between open and commit */
    char target[PATH_MAX];   /* the file that gets the bytes */
    char tmp[PATH_MAX + 16]; /* the temporary renamed over target; empty when writing directly */
} out_file;

/* Opens path for writing; nonzero with a message (without the path: the caller names it) in err. */
int out_file_open(out_file *o, const char *path, char *err, size_t errlen);
/* Flushes, closes and renames into place; on failure removes the temporary and returns nonzero with a
 * message in err.  Either way o->f is closed. */
int out_file_commit(out_file *o, char *err, size_t errlen);
/* Closes and removes the temporary: the target keeps what it had.  Harmless on a closed out_file. */
void out_file_abandon(out_file *o);

#endif
