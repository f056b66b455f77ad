/* Pieces shared by `report` and `diff`: loading callgrind files and pprof
 * profiles into one profile, resolving --sort event lists, printing the metadata block. */
#ifndef CYCPROF_REPORT_COMMON_H
#define CYCPROF_REPORT_COMMON_H

#include <stdio.h>

#include "model/cost_tables.h"
#include "analyse/cost_rank.h"

/* Read files[0..n) into p (merged by name): callgrind-format files, and
 * pprof profiles, each read into the profile model and added to p
 * (read/profile_costs.h). On failure prints one line
 * "cycprof CMD: ..." and returns -1. */
int rc_load(const char *cmd, cg_profile_t *p, char **files, int n);

/* Can rows of this kind be built? A pprof profile may lack file names,
 * line numbers or mappings; prints one line and returns -1 if so. */
int rc_check_by(const char *cmd, const cg_profile_t *p, rank_by_t by);

/* Resolve "EV[,EV...]" (NULL: all events in file order) into order[],
 * each by its name or another name of it (cg_event_find). Prints the
 * error, naming --OPTION, and returns -1 on an unknown or repeated event. */
int rc_sort_order(const char *cmd, const char *option, const cg_profile_t *p,
                  const char *spec,
                  int *order, size_t *norder);

/* "Total Instructions...529,060" lines, one per event in order. */
void rc_print_totals(FILE *out, const cg_profile_t *p, const int *order,
                     size_t norder);

/* The value of --format (r and v as cu_opt_value gives them): 1 for
 * json, 0 for text; -1 after a one-line error. */
int rc_parse_format(const char *cmd, int r, const char *v);

/* A row's name as the tables show it: "label [function] [(and N more
 * functions)] [object]". */
void rc_print_row_name(FILE *out, const rank_row_t *row);

/* 80 dashes, the separator cg_annotate uses. */
void rc_rule(FILE *out);

#endif
