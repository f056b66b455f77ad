/* Reader for the callgrind profile format (the format of callgrind.out.<pid>
 * and of cycprof.out.<pid>): see valgrind's docs/callgrind-format.
 *
 * Several files can be read into one profile; they are merged by name
 * (file, function, object), which is what "compare/merge runs" needs.
 * Function identity follows callgrind_annotate: "file:function" where file
 * is the current fl=/fi=/fe= file, so our numbers match it exactly. */
#ifndef CYCPROF_CALLGRIND_READER_H
#define CYCPROF_CALLGRIND_READER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/intern.h"
#include "model/tuplemap.h"

#define CG_MAX_EVENTS 64
#define CG_NONE UINT32_MAX

typedef struct cg_profile {
    intern_t names;                /* files, functions, objects */
    char *events[CG_MAX_EVENTS];   /* event names, from the first file */
    size_t nev;
    uint64_t totals[CG_MAX_EVENTS];/* sum over parts of summary/totals */
    char *cmd, *creator;           /* from the first file that has them */
    char *deterministic;           /* cycprof's "desc: Deterministic: MODE",
                                    * or NULL where the file does not say */
    char **files;                  /* data files read, in order */
    size_t nfiles, files_cap;
    size_t nparts;

    /* Self cost per (object, file, function, line). */
    tuplemap_t lines;
    uint64_t *line_cost;           /* lines.n * nev */
    size_t line_cost_cap;

    /* Per function (file, function, 0, 0): self cost, the inclusive cost
     * of the calls it makes, the inclusive cost of the calls it receives. */
    tuplemap_t fns;
    uint64_t *fn_self, *fn_out, *fn_in;  /* fns.n * nev each */
    uint8_t *fn_called;            /* received at least one calls= cost */
    uint32_t *fn_ob;               /* object of the function, or CG_NONE */
    size_t fn_cap;

    /* Files that were pprof profiles (pprof_costs.h), and the kinds of
     * rows one of them has no data for (CG_LACKS_*). */
    size_t npprof;
    unsigned lacks;
    /* RISC Zero guest profiles among them (pprof_costs.h), and whether
     * function rows are named and matched by function name alone, as go
     * tool pprof shows them: set when every file is one; `diff` sets it
     * on both sides when one side has it (cost_rank.h). */
    size_t nrisc0;
    int by_name;
    /* The zkVM segment tables of cycprof pprof files ("cycprof-zkvm: "
     * comments, docs/zkvm.md), their lines in file order. */
    char **zk_table;
    size_t zk_table_lines, zk_table_cap;
} cg_profile_t;

#define CG_LACKS_FILE 1u    /* no function has a source file name */
#define CG_LACKS_LINE 2u    /* no line number */
#define CG_LACKS_OBJECT 4u  /* no mapping has a file name */

void cg_init(cg_profile_t *p);
void cg_free(cg_profile_t *p);

/* Read one file (name is used in messages). Returns 0, or -1 with
 * "NAME:LINE: what went wrong" (or "NAME: ...") in err. */
int cg_read_file(cg_profile_t *p, const char *path, char *err, size_t errlen);
int cg_read_stream(cg_profile_t *p, const char *name, FILE *f, char *err,
                   size_t errlen);

/* The record of function (fl, fn), made on first use with object ob
 * (CG_NONE: unknown yet), and the self-cost record of (ob, fl, fn, line);
 * both sized by p->nev, which must be set. For readers of other formats. */
size_t cg_fn_record(cg_profile_t *p, uint32_t fl, uint32_t fn, uint32_t ob);
uint64_t *cg_line_record(cg_profile_t *p, uint32_t ob, uint32_t fl,
                         uint32_t fn, uint32_t line);

/* Index of an event by name, or -1. */
int cg_event_index(const cg_profile_t *p, const char *name);
/* The same, or else of another name of that event (event_names.h: Zk for
 * zkvm_cycles or cycles, Ir for instructions): for --event and --sort. */
int cg_event_find(const cg_profile_t *p, const char *name);
/* "Ir Zk": the event names, for messages. */
void cg_event_list(const cg_profile_t *p, char *buf, size_t len);

/* Human name of an event for the totals line ("Ir" -> "Instructions"). */
const char *cg_event_long_name(const char *ev);

#endif
