/* Helpers shared by the report/diff/folded/flamegraph subcommands:
 * one-line error reporting, checked allocation, number parsing and
 * formatting, and finding the default data file. */
#ifndef CYCPROF_CMDUTIL_H
#define CYCPROF_CMDUTIL_H

#include <stddef.h>
#include <stdint.h>

/* Size of the error buffers the readers fill ("FILE:LINE: what"). */
#define CU_ERRLEN 512

/* Print "cycprof CMD: <formatted>" plus newline on stderr. Every user-facing
 * failure goes through here so that it is exactly one line (control
 * characters escaped on a terminal). */
void cu_err(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Fills err (errlen bytes) with "NAME: <formatted>" and returns -1: the
 * readers' way of failing with the file's name in front. */
int cu_fail_named(char *err, size_t errlen, const char *name,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Names from a profile may hold control characters (ESC sequences): on a
 * terminal they are shown as \xNN. Escapes strs[0..n) in place when the
 * output is standard output and a terminal. cu_output_is_stdout is 0 once
 * -o names another output. */
extern int cu_output_is_stdout;
void cu_escape_strings_for_terminal(char **strs, size_t n);
/* The pieces of it, for strings it may not free (intern_escape_for_terminal):
 * whether output is escaped, and s escaped (malloc'd), or NULL when s has
 * nothing to escape. */
int cu_escaping_for_terminal(void);
char *cu_escaped_for_terminal(const char *s);

/* Allocation that never returns NULL: out of memory is not something a
 * profile reader can recover from, so we report it and exit: the
 * command's one rule for it (util/README.md). */
void cu_oom(void) __attribute__((noreturn));   /* says so, exits 1 */
/* cu_oom's line names the subcommand and the file it works on, "cycprof
 * CMD: NAME: out of memory", once they are set (else "cycprof: out of
 * memory"); both strings must outlive the run. */
void cu_oom_names(const char *cmd, const char *name);
/* cu_oom runs cleanup before it exits (out_file.h: no temporary file is
 * left behind). */
void cu_at_oom(void (*cleanup)(void));
void *cu_malloc(size_t n);
void *cu_calloc(size_t n, size_t size);
void *cu_realloc(void *p, size_t n);
char *cu_strdup(const char *s);
char *cu_strndup(const char *s, size_t n);

/* Grow *arr (element size elem) so that it holds at least need elements;
 * new elements are not zeroed. */
void cu_grow(void *arr, size_t *cap, size_t need, size_t elem);
/* The capacity it grows *cap to: doubling from 16 until need fits; 0
 * when the size would overflow. For arrays that grow side by side. */
size_t cu_grown_cap(size_t cap, size_t need, size_t elem);

/* Strict decimal parsers: the whole string must be consumed.
 * Return 0 on success, -1 on malformed or out of range input. */
int cu_parse_u64(const char *s, uint64_t *out);
int cu_parse_pct(const char *s, double *out); /* accepts "5", "0.5", "5%" */

/* *acc += v; -1 (and *acc unchanged) when the sum would pass 2^64-1. */
static inline int cu_add_u64(uint64_t *acc, uint64_t v)
{
    if (*acc > UINT64_MAX - v)
        return -1;
    *acc += v;
    return 0;
}

/* "1234567" -> "1,234,567". buf must hold at least 27 bytes. */
char *cu_commify(uint64_t v, char *buf);
/* Signed variant with explicit sign: "+1,234" / "-1,234" / "0". */
char *cu_commify_signed(int64_t v, char *buf);

/* Percentage a/b*100 formatted like "28.4%" (one decimal; "0.0%" for b==0). */
char *cu_pct(uint64_t a, uint64_t b, char *buf, size_t len);

/* Newest "cycprof.out.*" (not ending in ".pb.gz") in the current directory.
 * Returns a malloc'd name or NULL if none. */
char *cu_newest_profile(void);

/* Does the file name end with suffix? */
int cu_ends_with(const char *s, const char *suffix);

/* Match "--name=value" or "--name value" (and a short alias like "-n").
 * On match returns 1 and sets *val (advancing *i past a separate value);
 * returns -1 if the option is present but its value is missing. */
int cu_opt_value(int argc, char **argv, int *i, const char *lname,
                 const char *sname, const char **val);

/* The error of a value option, named as the help names it ("-n/--top"):
 * "SNAME/LNAME needs WHAT" when its value is missing (r < 0, as
 * cu_opt_value returns), "... needs WHAT, got 'V'" when V is wrong. */
void cu_opt_err(const char *cmd, const char *lname, const char *sname,
                const char *what, int r, const char *v);

/* A value option holding a whole number, or a percentage of at most max
 * (cu_parse_pct's forms): returns 0 when argv[*i] is not lname/sname, 1
 * when *out is set, -1 after cu_opt_err's line. */
int cu_opt_u64(int argc, char **argv, int *i, const char *cmd,
               const char *lname, const char *sname, const char *what,
               uint64_t *out);
int cu_opt_pct(int argc, char **argv, int *i, const char *cmd,
               const char *lname, const char *what, double max, double *out);

/* Match a yes/no flag: "--name" or "--name=yes" sets *flag to 1,
 * "--name=no" to 0.  Returns 1 on a match, else 0. */
int cu_opt_flag(const char *arg, const char *lname, int *flag);

#endif
