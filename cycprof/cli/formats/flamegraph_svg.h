/* Writes a stack_profile as a self-contained interactive SVG flame graph
 * (root at the bottom, width proportional to the exact count). */
#ifndef CYCPROF_FLAMEGRAPH_SVG_H
#define CYCPROF_FLAMEGRAPH_SVG_H

#include <stdio.h>

#include "stack_profile.h"

typedef struct fg_opts {
    const char *title;   /* heading; NULL: "Flame Graph" */
    const char *subtitle;/* second line, e.g. the command; may be NULL */
    const char *unit;    /* what counts are, e.g. "instructions" */
    int width;           /* pixels */
    double minwidth;     /* frames narrower than this (pixels) are left out */
} fg_opts_t;

/* sp must be sorted by name (sp_sort_by_name). Returns -1 on write error. */
int fg_write_svg(FILE *f, const stack_profile_t *sp, const fg_opts_t *o);

#endif
