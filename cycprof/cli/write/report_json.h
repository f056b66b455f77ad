/* `cycprof report --format=json` and the row fields shared with
 * `cycprof diff --format=json` (schema: docs/cli/json.md). */
#ifndef CYCPROF_REPORT_JSON_H
#define CYCPROF_REPORT_JSON_H

#include "model/cost_tables.h"
#include "analyse/cost_rank.h"
#include "write/json_out.h"
#include "model/stack_profile.h"

/* The members naming a row: label, file, function, line, functions,
 * object (those that apply to its --by). */
void rj_row_name(json_t *j, const rank_row_t *row, rank_by_t by);

/* A function/file/line/object ranking. rows[0..nrows) are the rows shown,
 * omitted how many were left out. */
void rj_report(FILE *out, const cg_profile_t *p, char **files, int nfiles,
               rank_by_t by, int inclusive, const int *order, size_t norder,
               rank_row_t *const *rows, size_t nrows, size_t omitted);

/* An exact-stack ranking: the first nshown stacks of sp. */
void rj_report_stacks(FILE *out, const stack_profile_t *sp, char **files,
                      int nfiles, size_t nshown);

#endif
