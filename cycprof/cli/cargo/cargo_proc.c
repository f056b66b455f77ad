/* See cargo_proc.h. */
#define _POSIX_C_SOURCE 200809L
#include "cargo/cargo_proc.h"
#include "util/cmdutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

void cargo_exit(int status, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("cargo-cycprof: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(status);
}

static int is_exe(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
           access(path, X_OK) == 0;
}

char *cargo_which(const char *name)
{
    if (strchr(name, '/'))
        return is_exe(name) ? cu_strdup(name) : NULL;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        /* An empty PATH entry means the current directory. */
        char *p = cu_malloc(n + strlen(name) + 3);
        if (n)
            snprintf(p, n + strlen(name) + 3, "%.*s/%s", (int)n, path, name);
        else
            snprintf(p, strlen(name) + 3, "./%s", name);
        if (is_exe(p))
            return p;
        free(p);
        path += n + (path[n] == ':');
    }
    return NULL;
}

pid_t cargo_spawn(char **argv, int stdout_fd, int quiet)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        cargo_die("fork: %s", strerror(errno));
    if (pid == 0) {
        if (quiet) {
            int null = open("/dev/null", O_WRONLY);
            if (null >= 0) {
                dup2(null, 1);
                dup2(null, 2);
            }
        } else if (stdout_fd >= 0) {
            dup2(stdout_fd, 1);
        }
        execvp(argv[0], argv);
        fprintf(stderr, "cargo-cycprof: cannot run %s: %s\n", argv[0],
                strerror(errno));
        _exit(127);
    }
    return pid;
}

int cargo_wait(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            cargo_die("waitpid: %s", strerror(errno));
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
