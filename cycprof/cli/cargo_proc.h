/* Process helpers of cargo-cycprof: one-line fatal errors, finding a
 * program on PATH, starting a program and waiting for it. */
#ifndef CYCPROF_CARGO_PROC_H
#define CYCPROF_CARGO_PROC_H

#include <sys/types.h>

/* Exit status of cargo cycprof's own failures, as cargo uses. */
#define CARGO_FAIL 101

/* Print "cargo-cycprof: <formatted>" as one line and exit CARGO_FAIL. */
void cargo_die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

/* The executable that execvp would run for name (a name without '/' is
 * searched on PATH), malloc'd, or NULL if there is none. */
char *cargo_which(const char *name);

/* Start argv (argv[0] as execvp finds it). stdout_fd >= 0 becomes the
 * child's stdout; quiet sends its stdout and stderr to /dev/null. */
pid_t cargo_spawn(char **argv, int stdout_fd, int quiet);

/* Wait for pid: its exit status, or 128 + the signal that killed it. */
int cargo_wait(pid_t pid);

#endif
