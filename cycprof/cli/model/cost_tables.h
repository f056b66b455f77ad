/* cost_tables: the cost tables of `report` and `diff`, a view of the
 * profile model (profile.h) that read/profile_costs builds from every
 * profile read, callgrind-format file or pprof profile. Several profiles
 * are added into one table, merged by name (file, function, object).
 *
 * A function is "file:function" as callgrind_annotate names it (with
 * callgrind's fi=/fe= file switching), so that our numbers match it. */
#ifndef CYCPROF_COST_TABLES_H
#define CYCPROF_COST_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "model/intern.h"
#include "model/profile.h"
#include "model/tuplemap.h"

#define CG_MAX_EVENTS 64    /* events a table holds (and a reader takes) */
#define CG_NONE UINT32_MAX

/* What a table's rows are: function rows read the function records
 * alone; rows by line, file or object read the self costs alone, keyed
 * by as much of (object, file, function, line) as they show. The line
 * table is most of the tables, and the fewer fields its key has the
 * fewer records it holds. */
typedef enum {
    CG_ROWS_ALL,        /* cg_init's: every record, every field */
    CG_ROWS_FUNCTION,   /* the function records, no line table */
    CG_ROWS_LINE,       /* (object, file, function, line) */
    CG_ROWS_FILE,       /* (object, file) */
    CG_ROWS_OBJECT,     /* (object) */
} cg_rows_t;

typedef struct cg_profile {
    intern_t names;                /* files, functions, objects */
    char *events[CG_MAX_EVENTS];   /* event names, from the first profile */
    size_t nev;
    uint64_t totals[CG_MAX_EVENTS];/* sum over the profiles' totals */
    char *cmd, *creator;           /* from the first profile that has them */
    char *deterministic;           /* cycprof's --deterministic mode, or
                                    * NULL where the profile does not say */
    size_t nfiles;                 /* data files added */
    size_t nparts;

    /* The rows the tables are for, set before profiles are added, so
     * that they keep only what those rows read (cg_rows_t). */
    cg_rows_t rows;
    /* Self cost per (object, file, function, line). */
    tuplemap_t lines;
    uint64_t *line_cost;           /* lines.n * nev */
    size_t line_cost_cap;

    /* Per function (file, function, 0, 0): self cost, the inclusive cost
     * of the calls it makes, the inclusive cost of the calls it receives. */
    tuplemap_t fns;
    uint64_t *fn_self, *fn_out, *fn_in;  /* fns.n * nev each */
    uint8_t *fn_called;            /* received at least one call's cost */
    uint32_t *fn_ob;               /* object of the function, or CG_NONE */
    size_t fn_cap;

    /* Files that were pprof profiles, and the kinds of rows one of them
     * has no data for (CG_LACKS_*). */
    size_t npprof;
    unsigned lacks;
    /* RISC Zero guest profiles among them (profile_costs.h), and whether
     * function rows are named and matched by function name alone, as go
     * tool pprof shows them: set when every file is one; `diff` sets it
     * on both sides when one side has it (cost_rank.h). */
    size_t nrisc0;
    int by_name;
    /* The zkVM segment tables of cycprof pprof files ("cycprof-zkvm: "
     * comments, docs/zkvm.md), their lines in file order. */
    char **zk_table;
    size_t zk_table_lines, zk_table_cap;
    /* Those of callgrind files, as the model has them. */
    pf_zk_line_t *zk_callgrind;
    size_t zk_callgrind_lines, zk_callgrind_cap;
} cg_profile_t;

#define CG_LACKS_FILE 1u    /* no function has a source file name */
#define CG_LACKS_LINE 2u    /* no line number */
#define CG_LACKS_OBJECT 4u  /* no mapping has a file name */

void cg_init(cg_profile_t *p);
void cg_free(cg_profile_t *p);

/* Whether the tables keep function records, a line table, and line
 * numbers in it (p->rows). */
int cg_keeps_functions(const cg_profile_t *p);
int cg_keeps_lines(const cg_profile_t *p);
int cg_keeps_line_numbers(const cg_profile_t *p);

/* The record of function (fl, fn), made on first use with object ob
 * (CG_NONE: unknown yet, set by a later use that knows it), and the
 * self-cost record of (ob, fl, fn, line), the fields p->rows does not
 * show left out of its key (0); both sized by p->nev, which must be
 * set. */
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
