/* See report_common.h. */
#define _POSIX_C_SOURCE 200809L
#include "commands/report_common.h"
#include "util/cmdutil.h"
#include "read/callgrind_reader.h"
#include "read/profile_costs.h"
#include "read/profile_kind.h"

#include <stdlib.h>
#include <string.h>

/* The callgrind files read in a row, into one profile (so that sums
 * past 2^64-1 over them are refused at the line where they happen). */
typedef struct cg_run {
    profile_t pr;
    cg_reader_t *reader;        /* NULL: no file in the run */
    const char *last;
} cg_run_t;

/* Adds the run's profile to p and ends the run. */
static int end_run(cg_run_t *run, cg_profile_t *p, char *err, size_t errlen)
{
    if (!run->reader)
        return 0;
    cg_reader_free(run->reader);
    run->reader = NULL;
    int rc = pc_add_taking(p, run->last, &run->pr, err, errlen);
    pf_free(&run->pr);
    return rc;
}

int rc_load(const char *cmd, cg_profile_t *p, char **files, int n)
{
    char err[CU_ERRLEN];
    cg_run_t run;
    memset(&run, 0, sizeof run);
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        int kind = pk_kind(files[i], err, sizeof err);
        if (kind < 0) {
            rc = -1;
        } else if (kind == PK_PPROF) {
            rc = end_run(&run, p, err, sizeof err);
            if (rc == 0)
                rc = pc_add_pprof(p, files[i], err, sizeof err);
        } else {
            if (!run.reader) {
                pf_init(&run.pr);
                run.reader = cg_reader_new(&run.pr, p->events, p->nev);
                if (!cg_keeps_line_numbers(p))
                    cg_reader_no_line_numbers(run.reader);
            }
            run.last = files[i];
            rc = cg_read_file(run.reader, files[i], err, sizeof err);
        }
    }
    if (rc == 0)
        rc = end_run(&run, p, err, sizeof err);
    if (run.reader) {
        cg_reader_free(run.reader);
        pf_free(&run.pr);
    }
    if (rc < 0) {
        cu_err(cmd, "%s", err);
        return -1;
    }
    intern_escape_for_terminal(&p->names);
    cu_escape_strings_for_terminal(p->events, p->nev);
    cu_escape_strings_for_terminal(&p->cmd, 1);
    return 0;
}

int rc_check_by(const char *cmd, const cg_profile_t *p, rank_by_t by)
{
    static const struct {
        rank_by_t by;
        unsigned bit;
        const char *what;
    } need[] = {
        {BY_FILE, CG_LACKS_FILE, "no source file names"},
        {BY_LINE, CG_LACKS_LINE, "no line numbers"},
        {BY_OBJECT, CG_LACKS_OBJECT, "no mapping file names (objects)"},
    };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (need[i].by == by && (p->lacks & need[i].bit)) {
            cu_err(cmd, "--by=%s: the pprof profile has %s", rank_by_name(by),
                   need[i].what);
            return -1;
        }
    return 0;
}

int rc_sort_order(const char *cmd, const char *option, const cg_profile_t *p,
                  const char *spec, int *order, size_t *norder)
{
    *norder = 0;
    if (!spec) {
        for (size_t e = 0; e < p->nev; e++)
            order[(*norder)++] = (int)e;
        return 0;
    }
    char *copy = cu_strdup(spec), *save = NULL;
    int rc = 0;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int e = cg_event_find(p, t);
        if (e < 0) {
            char evs[256];
            cg_event_list(p, evs, sizeof evs);
            cu_err(cmd, "unknown event '%s' in --%s (the profile has: %s)",
                   t, option, evs);
            rc = -1;
            break;
        }
        for (size_t i = 0; i < *norder; i++)
            if (order[i] == e) {
                cu_err(cmd, "event '%s' given twice in --%s", t, option);
                rc = -1;
            }
        if (rc)
            break;
        order[(*norder)++] = e;
    }
    if (!rc && !*norder) {
        cu_err(cmd, "--%s needs at least one event name", option);
        rc = -1;
    }
    free(copy);
    return rc;
}

void rc_print_totals(FILE *out, const cg_profile_t *p, const int *order,
                     size_t norder)
{
    char num[32];
    for (size_t i = 0; i < norder; i++) {
        const char *ev = p->events[order[i]];
        fprintf(out, "Total %s...%s\n", cg_event_long_name(ev),
                cu_commify(p->totals[order[i]], num));
    }
}

int rc_parse_format(const char *cmd, int r, const char *v)
{
    if (r > 0 && strcmp(v, "json") == 0)
        return 1;
    if (r > 0 && strcmp(v, "text") == 0)
        return 0;
    if (r < 0)
        cu_err(cmd, "--format needs text or json");
    else
        cu_err(cmd, "--format must be text or json, got '%s'", v);
    return -1;
}

void rc_print_row_name(FILE *out, const rank_row_t *row)
{
    fputs(row->label, out);
    if (row->func)
        fprintf(out, " %s", row->func);
    if (row->nfuncs > 1)
        fprintf(out, " (and %u more function%s)", row->nfuncs - 1,
                row->nfuncs > 2 ? "s" : "");
    if (row->object && *row->object)
        fprintf(out, " [%s]", row->object);
}

void rc_rule(FILE *out)
{
    fputs("--------------------------------------------------------------------------------\n",
          out);
}
