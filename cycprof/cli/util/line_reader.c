/* line_reader: see line_reader.h. The buffer holds [start, end) unread bytes;
 * it is refilled by moving the partial line to the front and reading more,
 * and doubled when one line does not fit. */
#include "util/line_reader.h"
#include "util/cmdutil.h"

#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

/* The fuzz harness makes it small: sanitizers make each 1 MB allocation
 * cost more than parsing a small input. */
#ifndef LR_INITIAL
#define LR_INITIAL (1u << 20)
#endif

struct line_reader {
    FILE *f;
    char *buf;
    size_t size, start, end;
    int eof, err;
    unsigned long lineno;
    int done_fd;                 /* lr_follow's, -1: not following */
};

struct line_reader *lr_new(FILE *f)
{
    struct line_reader *r = cu_calloc(1, sizeof *r);
    r->buf = cu_malloc(LR_INITIAL + 1);   /* + 1: room for the final NUL */
    r->f = f;
    r->size = LR_INITIAL;
    r->done_fd = -1;
    return r;
}

void lr_free(struct line_reader *r)
{
    if (r) {
        free(r->buf);
        free(r);
    }
}

void lr_follow(struct line_reader *r, int done_fd)
{
    r->done_fd = done_fd;
}

/* Whether the writer has finished, waiting up to timeout_ms for it: its
 * end of the pipe closed (or the pipe failed, which ends the wait too). */
static int writer_done(int fd, int timeout_ms)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    int n = poll(&p, 1, timeout_ms);
    return n > 0 || (n < 0 && errno != EINTR);
}

/* fread, which at the end of a followed file waits for the writer to add
 * more or to finish. */
static size_t read_more(struct line_reader *r)
{
    size_t n = fread(r->buf + r->end, 1, r->size - r->end, r->f);
    while (n == 0 && r->done_fd >= 0 && !ferror(r->f)) {
        int done = writer_done(r->done_fd, 20);
        clearerr(r->f);
        n = fread(r->buf + r->end, 1, r->size - r->end, r->f);
        if (done)
            r->done_fd = -1;
    }
    return n;
}

/* Makes room and reads more. Returns 0 if bytes were added, -1 at EOF or on
 * error. */
static int fill(struct line_reader *r)
{
    if (r->eof || r->err)
        return -1;
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    if (r->end == r->size) {
        size_t size = r->size * 2;
        if (size <= r->size)
            cu_oom();
        r->buf = cu_realloc(r->buf, size + 1);
        r->size = size;
    }
    size_t n = read_more(r);
    r->end += n;
    if (n == 0) {
        if (ferror(r->f))
            r->err = errno ? errno : EIO;
        else
            r->eof = 1;
        return -1;
    }
    return 0;
}

char *lr_next(struct line_reader *r, size_t *len, int *has_newline)
{
    size_t scanned = 0;          /* bytes of the current line known to hold no '\n' */
    for (;;) {
        char *line = r->buf + r->start;
        size_t avail = r->end - r->start;
        char *nl = memchr(line + scanned, '\n', avail - scanned);
        if (nl) {
            *nl = '\0';
            *len = (size_t)(nl - line);
            *has_newline = 1;
            r->start += *len + 1;
            r->lineno++;
            return line;
        }
        scanned = avail;
        if (fill(r) != 0) {
            if (r->err || r->end == r->start)
                return NULL;
            /* A last line without '\n'. */
            line = r->buf + r->start;
            *len = r->end - r->start;
            line[*len] = '\0';
            *has_newline = 0;
            r->start = r->end;
            r->lineno++;
            return line;
        }
    }
}

int lr_error(const struct line_reader *r)
{
    return r->err;
}

unsigned long lr_lineno(const struct line_reader *r)
{
    return r->lineno;
}
