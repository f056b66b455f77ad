/* A pprof profile (gzip-compressed or plain profile.proto) read as exact
 * function-name stacks, inlined frames expanded (stack_profile.h): what
 * `report --by=stack`, `folded`, `flamegraph` and `diff --by=stack` show.
 * A view of the profile model (profile.h) that read/pprof_reader fills. */
#ifndef CYCPROF_PPROF_STACKS_H
#define CYCPROF_PPROF_STACKS_H

#include <stddef.h>

#include "model/stack_profile.h"

/* Read a file / a buffer into sp. Returns 0, or -1 with "NAME: what" in
 * err. name is used in messages only. */
int pprof_stacks_read(stack_profile_t *sp, const char *path, char *err,
                      size_t errlen);
int pprof_stacks_read_mem(stack_profile_t *sp, const char *name,
                          const unsigned char *buf, size_t len, char *err,
                          size_t errlen);

#endif
