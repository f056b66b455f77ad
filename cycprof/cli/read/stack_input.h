/* Finding and loading the exact stacks for report --by=stack, folded and
 * flamegraph: a pprof profile given directly (profile_kind.h: by name or
 * content), or the pprof file the tool writes next to its
 * callgrind-format file (FILE.pb.gz). */
#ifndef CYCPROF_STACK_INPUT_H
#define CYCPROF_STACK_INPUT_H

#include "model/stack_profile.h"

/* Load the stacks of file (NULL: the newest cycprof.out.* here) into sp.
 * Prints one "cycprof CMD: ..." line and returns -1 on failure. */
int si_load(const char *cmd, const char *file, stack_profile_t *sp);

/* The pprof file that holds the stacks of file (NULL: the newest
 * cycprof.out.* here), malloc'd; NULL after one "cycprof CMD: ..." line. */
char *si_pprof_path(const char *cmd, const char *file);

#endif
