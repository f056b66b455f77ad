/* stack_merge: sums samples whose thread, region set and stack are the
 * same. The cut stacks of a deep recursion (sr_stack) repeat at every
 * level below the cut; merging them keeps the profile as small as the
 * recursion is regular. */
#ifndef CYCPROF_STACK_MERGE_H
#define CYCPROF_STACK_MERGE_H

#include <stddef.h>
#include <stdint.h>

struct stack_merge;

/* Keeps at most about max_bytes of stacks. Out of memory exits
 * (util/README.md). */
struct stack_merge *sm_new(size_t max_bytes);
void sm_free(struct stack_merge *m);

/* Adds count to the sample (locs, thread, region set). Returns 1 when kept, 0 when it
 * would pass max_bytes (the caller writes it as it is). */
int sm_add(struct stack_merge *m, const uint64_t *locs, size_t n,
           int64_t count, int64_t thread, uint64_t region);

size_t sm_count(const struct stack_merge *m);
/* The i-th distinct sample, 0 <= i < sm_count. */
void sm_get(const struct stack_merge *m, size_t i, const uint64_t **locs,
            size_t *n, int64_t *count, int64_t *thread, uint64_t *region);

#endif
