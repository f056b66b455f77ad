/* region_diff: `cycprof diff` on the named regions of two profiles
 * (docs/regions.md): which regions changed, and which trip the gate. */
#ifndef CYCPROF_REGION_DIFF_H
#define CYCPROF_REGION_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "read/region_table.h"

typedef struct region_change {
    const char *name;            /* owned by the tables */
    uint64_t base, new;          /* inclusive instructions, 0: absent */
    int tripped;                 /* the gate's verdict on it */
} region_change_t;

/* Every region whose inclusive cost differs: BASE's first (largest
 * first), then those new in NEW. With gate_on, each is judged by
 * dm_trips (--fail-above, --min-change). Returns the count, *out
 * malloc'd (NULL when none); *ntripped counts the tripped ones. */
size_t region_changes(const region_table_t *base, const region_table_t *new,
                      int gate_on, double fail_above, uint64_t min_change,
                      region_change_t **out, size_t *ntripped);

/* The text section of `cycprof diff`: nothing when neither profile has
 * regions, "No region differs." when none changed. */
void region_changes_print(FILE *out, const region_table_t *base,
                          const region_table_t *new,
                          const region_change_t *ch, size_t n);

#endif
