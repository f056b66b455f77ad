/* gzip_stream: a write-only gzip (RFC 1952) stream onto a FILE.
 *
 * Why not gzwrite(): we want to own the error reporting (one clean message,
 * errno preserved) and to batch the many small protobuf records cycprof
 * writes into large deflate() calls. */
#ifndef CYCPROF_GZIP_STREAM_H
#define CYCPROF_GZIP_STREAM_H

#include <stddef.h>
#include <stdio.h>

struct gzip_stream;

/* Starts a gzip member on `out` (which stays owned by the caller).
 * `level` is a zlib level (1 fastest .. 9 smallest). */
struct gzip_stream *gzs_open(FILE *out, int level);

/* Appends bytes. Returns 0, or -1 after an error (see gzs_error). */
int gzs_write(struct gzip_stream *s, const void *buf, size_t len);

/* Finishes the gzip member (trailer included) and flushes `out`.
 * Returns 0 or -1. The stream must still be freed with gzs_free. */
int gzs_finish(struct gzip_stream *s);

/* A short description of the first error, or NULL if none. */
const char *gzs_error(const struct gzip_stream *s);

void gzs_free(struct gzip_stream *s);

#endif
