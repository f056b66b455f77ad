/* gzip_stream: see gzip_stream.h. */
#include "write/gzip_stream.h"
#include "util/cmdutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Input is gathered until this many bytes before deflate() sees it: cycprof
 * writes records of a few dozen bytes, and one deflate() call per record
 * would cost more than the compression itself. */
#define GZS_IN_SIZE  (256u * 1024u)
#define GZS_OUT_SIZE (256u * 1024u)

struct gzip_stream {
    FILE *out;
    z_stream z;
    int z_ready;                 /* deflateInit2 succeeded: deflateEnd needed */
    unsigned char *in;
    size_t in_len;
    unsigned char *obuf;
    char err[128];               /* first error; empty while all is well */
};

static int fail(struct gzip_stream *s, const char *what, int errnum)
{
    if (s->err[0] == '\0') {
        if (errnum)
            snprintf(s->err, sizeof s->err, "%s: %s", what, strerror(errnum));
        else
            snprintf(s->err, sizeof s->err, "%s", what);
    }
    return -1;
}

struct gzip_stream *gzs_open(FILE *out, int level)
{
    struct gzip_stream *s = cu_calloc(1, sizeof *s);
    s->out = out;
    s->in = cu_malloc(GZS_IN_SIZE);
    s->obuf = cu_malloc(GZS_OUT_SIZE);
    /* windowBits 15 + 16 asks zlib for a gzip header and trailer. With a
     * level of 1 to 9 (the callers check it), deflateInit2 fails only for
     * want of memory. */
    if (deflateInit2(&s->z, level, Z_DEFLATED, 15 + 16, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK)
        cu_oom();
    s->z_ready = 1;
    return s;
}

/* Runs deflate over the gathered input with `flush` and writes whatever it
 * produces. With Z_FINISH, loops until the stream end is written. */
static int pump(struct gzip_stream *s, int flush)
{
    s->z.next_in = s->in;
    s->z.avail_in = (uInt)s->in_len;
    for (;;) {
        s->z.next_out = s->obuf;
        s->z.avail_out = GZS_OUT_SIZE;
        int rc = deflate(&s->z, flush);
        if (rc == Z_STREAM_ERROR)
            return fail(s, "zlib deflate failed", 0);
        size_t have = GZS_OUT_SIZE - s->z.avail_out;
        if (have && fwrite(s->obuf, 1, have, s->out) != have)
            return fail(s, "write failed", errno ? errno : EIO);
        if (flush == Z_FINISH) {
            if (rc == Z_STREAM_END)
                break;
        } else if (s->z.avail_in == 0 && s->z.avail_out != 0) {
            break;
        }
    }
    s->in_len = 0;
    return 0;
}

int gzs_write(struct gzip_stream *s, const void *buf, size_t len)
{
    const unsigned char *p = buf;
    if (s->err[0])
        return -1;
    while (len > 0) {
        size_t room = GZS_IN_SIZE - s->in_len;
        size_t n = len < room ? len : room;
        memcpy(s->in + s->in_len, p, n);
        s->in_len += n;
        p += n;
        len -= n;
        if (s->in_len == GZS_IN_SIZE && pump(s, Z_NO_FLUSH) != 0)
            return -1;
    }
    return 0;
}

int gzs_finish(struct gzip_stream *s)
{
    if (s->err[0])
        return -1;
    if (pump(s, Z_FINISH) != 0)
        return -1;
    if (fflush(s->out) != 0 || ferror(s->out))
        return fail(s, "write failed", errno ? errno : EIO);
    return 0;
}

const char *gzs_error(const struct gzip_stream *s)
{
    return s->err[0] ? s->err : NULL;
}

void gzs_free(struct gzip_stream *s)
{
    if (!s)
        return;
    if (s->z_ready)
        deflateEnd(&s->z);
    free(s->in);
    free(s->obuf);
    free(s);
}
