/* out_file: see out_file.h. */
#define _POSIX_C_SOURCE 200809L
#include "util/out_file.h"
#include "util/cmdutil.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary file's name while one is open, for the signal handler to
 * remove, else NULL. */
static char *volatile open_tmp;

static void on_signal(int sig)
{
    char *p = open_tmp;
    if (p)
        unlink(p);               /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void remove_open_tmp(void)
{
    char *p = open_tmp;
    if (p)
        unlink(p);
}

/* A stopped run, or one out of memory, leaves no temporary file behind. */
static void remove_tmp_on_signals(void)
{
    cu_at_oom(remove_open_tmp);
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], on_signal);
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* /dev/stdout, /dev/fd/N and /proc/.../fd/N name a file this process has
 * open: reopening them reaches it, a rename would replace the link. */
static int names_open_file(const char *s)
{
    return starts_with(s, "/proc/") || starts_with(s, "/dev/fd/");
}

/* path with its symlinks followed (the last component, hop by hop), in
 * *target (malloc'd); *in_place when it must be written in place. */
static int resolve(const char *path, char **target, int *in_place)
{
    char *cur = cu_strdup(path);
    char link[PATH_MAX];
    struct stat st;
    *in_place = names_open_file(path);
    for (int hops = 0; !*in_place; hops++) {
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            break;
        if (hops == 40) {
            free(cur);
            return ELOOP;
        }
        link[n] = '\0';
        if (names_open_file(link)) {
            *in_place = 1;
            break;
        }
        const char *slash = strrchr(cur, '/');
        size_t dirlen = link[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
        char *next = cu_malloc(dirlen + (size_t)n + 1);
        memcpy(next, cur, dirlen);
        memcpy(next + dirlen, link, (size_t)n + 1);
        free(cur);
        cur = next;
    }
    if (stat(cur, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            free(cur);
            return EISDIR;
        }
        if (!S_ISREG(st.st_mode))
            *in_place = 1;
    }
    *target = cur;
    return 0;
}

/* Opens an existing non-regular file at its end; a FIFO without a
 * reader is an error rather than a wait without end. */
static int open_in_place(const char *path)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
        int fl = fcntl(fd, F_GETFL);
        if (fl >= 0)
            fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    return fd;
}

static void set_err(char *err, size_t errlen, const char *path, int e)
{
    snprintf(err, errlen, "%s: %s", path,
             e == ENXIO ? "nothing reads from it (a FIFO without a reader)"
                        : strerror(e));
}

int of_open(struct out_file *o, const char *path, char *err, size_t errlen)
{
    int in_place = 0, fd, e = resolve(path, &o->target, &in_place);
    o->f = NULL;
    o->tmp = NULL;
    if (e) {
        o->target = NULL;
        set_err(err, errlen, path, e);
        return -1;
    }
    if (in_place) {
        fd = open_in_place(o->target);
    } else {
        size_t n = strlen(o->target) + 32;
        o->tmp = cu_malloc(n);
        snprintf(o->tmp, n, "%s.tmp.%ld", o->target, (long)getpid());
        /* O_EXCL: never write through a file or link someone put there. */
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    }
    if (fd >= 0)
        o->f = fdopen(fd, "wb");
    if (!o->f) {
        e = errno;
        if (fd >= 0)
            close(fd);
        if (o->tmp)
            unlink(o->tmp);
        set_err(err, errlen, path, e);
        free(o->tmp);
        free(o->target);
        o->tmp = o->target = NULL;
        return -1;
    }
    open_tmp = o->tmp;
    if (o->tmp)
        remove_tmp_on_signals();
    return 0;
}

static void release(struct out_file *o)
{
    open_tmp = NULL;
    free(o->tmp);
    free(o->target);
    o->tmp = o->target = NULL;
    o->f = NULL;
}

int of_commit(struct out_file *o, char *err, size_t errlen)
{
    int was_bad = ferror(o->f), e = 0;
    errno = 0;
    if (fflush(o->f) != 0 || was_bad)
        e = errno ? errno : EIO;
    if (fclose(o->f) != 0 && !e)
        e = errno;
    /* No fsync: rename() already gives readers all or nothing; durability
     * across a power cut is not worth the wait for a profile. */
    if (!e && o->tmp && rename(o->tmp, o->target) != 0)
        e = errno;
    if (e) {
        set_err(err, errlen, o->target, e);
        if (o->tmp)
            unlink(o->tmp);
    }
    release(o);
    return e ? -1 : 0;
}

void of_abort(struct out_file *o)
{
    if (o->f)
        fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    release(o);
}
