/* Turns a callgrind profile into ranked rows: cost per function, file,
 * line or object, self or inclusive, sorted like callgrind_annotate. */
#ifndef CYCPROF_COST_RANK_H
#define CYCPROF_COST_RANK_H

#include "model/cost_tables.h"

/* BY_STACK is `diff --by=stack`'s (stack_diff.h): no rank table has it. */
typedef enum { BY_FUNCTION, BY_FILE, BY_LINE, BY_OBJECT, BY_STACK } rank_by_t;

typedef struct rank_row {
    char *label;          /* "file:function", "file", "file:line", object */
    const char *func;     /* BY_LINE: the costliest function of the line
                             (on the first event), else NULL */
    const char *object;   /* object name or "" */
    const char *file;     /* source file ("???" if unknown); NULL for objects */
    const char *name;     /* BY_FUNCTION: the function name, else NULL */
    uint32_t line;        /* BY_LINE: the line number, else 0 */
    uint32_t nfuncs;      /* BY_LINE: functions whose code is on the line */
    uint64_t *cost;       /* nev values */
} rank_row_t;

typedef struct rank {
    rank_row_t *rows;
    size_t n;
    size_t nev;
    uint64_t *costs;      /* storage behind rows[i].cost */
    int overflow;         /* a row's cost would pass 2^64-1: rows unusable */
} rank_t;

/* Parse "function|file|line|object"; -1 if unknown. */
int rank_by_parse(const char *s, rank_by_t *out);
const char *rank_by_name(rank_by_t by);
/* What the cost tables must keep for rows by `by` (cost_tables.h). */
cg_rows_t rank_rows(rank_by_t by);

/* Build the rows. With p->by_name, function rows are keyed and labelled
 * by function name alone (file "", object ""), summing functions of one
 * name in several files or objects. Files and lines are keyed by (object, file): a file name
 * found in two objects (a libc routine also built into ld.so, or unnamed
 * code "???") gives one row per object. A line's row sums every function
 * whose code is on it (inlined copies included). inclusive is only meaningful for BY_FUNCTION and follows
 * callgrind_annotate --inclusive=yes: a function that is called somewhere
 * costs the sum of the calls= costs it receives; one that is never called
 * (a root such as _start) costs its self cost plus the calls it makes.
 * Sets out->overflow when a sum would pass 2^64-1. */
void rank_build(const cg_profile_t *p, rank_by_t by, int inclusive,
                rank_t *out);

/* Sort descending by the events in order[0..norder), ties by label. */
void rank_sort(rank_t *r, const int *order, size_t norder);

void rank_free(rank_t *r);

#endif
