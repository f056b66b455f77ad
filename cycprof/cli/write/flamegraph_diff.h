/* A differential flame graph: two profiles' stacks (stack_diff.h) as one
 * self-contained SVG, in the manner of Brendan Gregg's difffolded.pl and
 * flamegraph.pl. Two views, one shown at a time: NEW's shape (widths are
 * NEW's counts) and BASE's shape (BASE's counts, so that what only BASE
 * ran is seen too). In both, a box is coloured by the change of its
 * inclusive count, NEW - BASE: red grew, blue shrank, the deeper the
 * larger, pale when unchanged. Hovering shows both counts and the
 * change; search and zoom work as in the plain graph. */
#ifndef CYCPROF_FLAMEGRAPH_DIFF_H
#define CYCPROF_FLAMEGRAPH_DIFF_H

#include <stdio.h>

#include "write/flamegraph_svg.h"
#include "analyse/stack_diff.h"

/* Returns -1 on write error. */
int fg_write_diff_svg(FILE *f, const stack_diff_t *d, const fg_opts_t *o);

#endif
