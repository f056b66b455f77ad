/* Process helpers of cargo-cycprof: one-line fatal errors, finding a
 * program on PATH, starting a program and waiting for it. */
#ifndef CYCPROF_CARGO_PROC_H
#define CYCPROF_CARGO_PROC_H

#include <sys/types.h>

/* Exit statuses of cargo cycprof's own failures, as the cycprof command
 * uses them: a bad command line, and anything else that stops it before
 * the program's status is known (no cargo project, a tool missing, no
 * profile written). A failed build keeps cargo's own status. */
#define CARGO_FAIL 1
#define CARGO_USAGE 2

/* Print "cargo-cycprof: <formatted>" as one line and exit with status. */
void cargo_exit(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
/* cargo_exit(CARGO_FAIL, ...). */
#define cargo_die(...) cargo_exit(CARGO_FAIL, __VA_ARGS__)

/* The executable that execvp would run for name (a name without '/' is
 * searched on PATH), malloc'd, or NULL if there is none. */
char *cargo_which(const char *name);

/* Start argv (argv[0] as execvp finds it). stdout_fd >= 0 becomes the
 * child's stdout; quiet sends its stdout and stderr to /dev/null. */
pid_t cargo_spawn(char **argv, int stdout_fd, int quiet);

/* Wait for pid: its exit status, or 128 + the signal that killed it. */
int cargo_wait(pid_t pid);

#endif
