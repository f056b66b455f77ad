/* See report_json.h. */
#include "write/report_json.h"

#include <string.h>

void rj_row_name(json_t *j, const rank_row_t *row, rank_by_t by)
{
    json_key(j, "label");
    json_str(j, row->label);
    if (by != BY_OBJECT) {
        json_key(j, "file");
        json_str(j, row->file);
    }
    if (by == BY_FUNCTION) {
        json_key(j, "function");
        json_str(j, row->name);
    }
    if (by == BY_LINE) {
        json_key(j, "line");
        json_u64(j, row->line);
        json_key(j, "function");
        json_str(j, row->func);
        json_key(j, "functions");
        json_u64(j, row->nfuncs);
    }
    json_key(j, "object");
    json_str(j, by == BY_OBJECT ? row->label : row->object);
}

static void header(json_t *j, const char *schema, const char *cmd,
                   char **files, int nfiles)
{
    json_key(j, "schema");
    json_str(j, schema);
    json_key(j, "command");
    json_str(j, cmd);
    json_key(j, "files");
    json_open_arr(j);
    for (int i = 0; i < nfiles; i++)
        json_str(j, files[i]);
    json_close_arr(j);
}

void rj_report(FILE *out, const cg_profile_t *p, char **files, int nfiles,
               rank_by_t by, int inclusive, const int *order, size_t norder,
               rank_row_t *const *rows, size_t nrows, size_t omitted)
{
    json_t j;
    json_begin(&j, out);
    header(&j, "cycprof-report/1", p->cmd, files, nfiles);
    json_key(&j, "events");
    json_open_arr(&j);
    for (size_t e = 0; e < p->nev; e++)
        json_str(&j, p->events[e]);
    json_close_arr(&j);
    json_key(&j, "sort");
    json_open_arr(&j);
    for (size_t i = 0; i < norder; i++)
        json_str(&j, p->events[order[i]]);
    json_close_arr(&j);
    json_key(&j, "by");
    json_str(&j, rank_by_name(by));
    json_key(&j, "inclusive");
    json_bool(&j, inclusive);
    json_key(&j, "totals");
    json_open_obj(&j);
    for (size_t e = 0; e < p->nev; e++) {
        json_key(&j, p->events[e]);
        json_u64(&j, p->totals[e]);
    }
    json_close_obj(&j);
    json_key(&j, "rows");
    json_open_arr(&j);
    for (size_t i = 0; i < nrows; i++) {
        json_open_obj(&j);
        rj_row_name(&j, rows[i], by);
        json_key(&j, "costs");
        json_open_obj(&j);
        for (size_t e = 0; e < p->nev; e++) {
            json_key(&j, p->events[e]);
            json_u64(&j, rows[i]->cost[e]);
        }
        json_close_obj(&j);
        json_close_obj(&j);
    }
    json_close_arr(&j);
    json_key(&j, "omitted");
    json_u64(&j, omitted);
    json_end(&j);
}

void rj_report_stacks(FILE *out, const stack_profile_t *sp, char **files,
                      int nfiles, size_t nshown)
{
    json_t j;
    json_begin(&j, out);
    header(&j, "cycprof-report/1", sp->cmd, files, nfiles);
    json_key(&j, "by");
    json_str(&j, "stack");
    json_key(&j, "unit");
    json_str(&j, sp->unit);
    json_key(&j, "total");
    json_u64(&j, sp->total);
    json_key(&j, "stacks");
    json_open_arr(&j);
    for (size_t i = 0; i < nshown; i++) {
        const sp_stack_t *s = &sp->stacks[i];
        json_open_obj(&j);
        json_key(&j, "count");
        json_u64(&j, s->count);
        json_key(&j, "frames");
        json_open_arr(&j);
        for (uint32_t d = 0; d < s->depth; d++) /* root first */
            json_str(&j, sp_frame(sp, s, d));
        json_close_arr(&j);
        json_close_obj(&j);
    }
    json_close_arr(&j);
    json_key(&j, "omitted");
    json_u64(&j, sp->n - nshown);
    json_end(&j);
}
