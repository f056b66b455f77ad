/* out_file: opening an output the way every cycprof output is written.
 *
 * OUT is followed through its symlinks. A regular file (or a name that
 * does not exist yet) is written to "TARGET.tmp.<pid>" beside it and
 * renamed over it once complete, so it is either the old file or the whole
 * new one. Anything else (a device, a FIFO, /dev/stdout, /proc/self/fd/N)
 * is written in place and never replaced. */
#ifndef CYCPROF_OUT_FILE_H
#define CYCPROF_OUT_FILE_H

#include <stddef.h>
#include <stdio.h>

struct out_file {
    FILE *f;
    char *target;        /* OUT with its symlinks followed */
    char *tmp;           /* NULL when written in place */
};

/* 0 with o->f open for writing, or -1 with "OUT: why" in err. */
int of_open(struct out_file *o, const char *path, char *err, size_t errlen);

/* Closes and renames into place: 0, or -1 with "OUT: why" in err (then
 * nothing is left at the temporary name). */
int of_commit(struct out_file *o, char *err, size_t errlen);

/* Closes and removes the temporary file. */
void of_abort(struct out_file *o);

#endif
