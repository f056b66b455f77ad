/* line_reader: fast line-by-line reading of a text file of any line length.
 *
 * stdio's getline() would do, but a large dump has millions of short lines
 * and this reader hands them out straight from one big buffer (no copy, no
 * per-line call into libc locking). */
#ifndef CYCPROF_LINE_READER_H
#define CYCPROF_LINE_READER_H

#include <stddef.h>
#include <stdio.h>

struct line_reader;

/* Reads from `f` (which stays owned by the caller). */
struct line_reader *lr_new(FILE *f);
void lr_free(struct line_reader *r);

/* For a file that its writer is still writing: at its end, wait for more
 * rather than stop, until `done_fd` (a pipe whose write end the writer
 * holds, and never writes to) is closed; then what was written last is
 * read, and the next end of file is the real one. */
void lr_follow(struct line_reader *r, int done_fd);

/* The next line without its '\n', NUL-terminated and writable; valid until
 * the next call. *len is its length, *has_newline whether a '\n' ended it
 * (only the last line of a file can lack one).
 * Returns NULL at end of file or on error: then lr_error() tells which
 * (0 at a clean end of file, else an errno value, ENOMEM included). */
char *lr_next(struct line_reader *r, size_t *len, int *has_newline);
int lr_error(const struct line_reader *r);

/* 1-based number of the line last returned. */
unsigned long lr_lineno(const struct line_reader *r);

#endif
