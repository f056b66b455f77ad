/* region_table: the named regions a cycprof profile carries as
 * '# cycprof-region' comment lines of its callgrind-format file
 * (docs/regions.md): reading and printing (region_diff.h compares). */
#ifndef CYCPROF_REGION_TABLE_H
#define CYCPROF_REGION_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct region_row {
    char *name;
    uint64_t calls, inclusive, self;
} region_row_t;

typedef struct region_table {
    region_row_t *rows;   /* sorted by inclusive cost, largest first */
    size_t n;
    uint64_t total;       /* the file's 'totals:' (first event) */
} region_table_t;

/* Reads FILE's region rows (none is not an error). Returns 0, or -1 after
 * printing "cycprof CMD: FILE...: what is wrong". */
int region_table_load(const char *cmd, const char *path, region_table_t *t);
void region_table_free(region_table_t *t);

/* The table as the tool prints it at exit. */
void region_table_print(FILE *out, const region_table_t *t);

#endif
