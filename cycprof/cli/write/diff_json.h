/* `cycprof diff --format=json`: the comparison and the gate's verdict as
 * one JSON document (schema: docs/cli/json.md). */
#ifndef CYCPROF_DIFF_JSON_H
#define CYCPROF_DIFF_JSON_H

#include <stdio.h>

#include "analyse/diff_match.h"
#include "analyse/region_diff.h"

typedef struct diff_result {
    const char *files[2], *cmds[2];
    const char *deterministic[2];   /* each side's recorded mode, or NULL */
    const char *event;
    const char *new_event;   /* NEW's name of it, when another (Zk, cycles) */
    int by_name;             /* functions matched by name alone (RISC Zero) */
    rank_by_t by;
    int inclusive;
    uint64_t total[2];
    const change_t *ch;      /* every change, largest first */
    size_t nch, shown;       /* shown: the first rows listed (and gated) */
    int gate_on;             /* --fail-above given */
    double fail_above;
    uint64_t min_change;
    int total_tripped;
    const unsigned char *tripped; /* per shown row */
    const region_change_t *rch;   /* named regions that changed */
    size_t nrch;
    size_t ntripped;         /* rows, regions and the total */
    const dm_rules_t *rules; /* how rows were matched */
} diff_result_t;

void dj_write(FILE *out, const diff_result_t *d);

#endif
