/* Exact call stacks as function-name sequences (root first) with summed
 * counts: the common input of `report --by=stack`, `folded` and
 * `flamegraph`. Identical stacks are merged when added. */
#ifndef CYCPROF_STACK_PROFILE_H
#define CYCPROF_STACK_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "model/hash_index.h"
#include "model/intern.h"

typedef struct sp_stack {
    size_t off;        /* first frame in stack_profile.frames */
    uint32_t depth;
    uint64_t count;
} sp_stack_t;

typedef struct stack_profile {
    intern_t names;    /* frame (function) names */
    uint32_t *frames;  /* all stacks' frame ids, concatenated */
    size_t nframes, frames_cap;
    sp_stack_t *stacks;
    size_t n, cap;
    hash_index_t index;/* identical stacks are one: stack indices */
    uint64_t total;    /* sum of all counts */
    char *unit;        /* sample type, e.g. "instructions/count" */
    char *cmd;         /* the profile's first comment (the command), or NULL */
    char *deterministic; /* cycprof's --deterministic mode, or NULL */
    int with_origin;   /* set before reading: frames name their origin */
    const char *event; /* set before reading: the sample type to read
                        * (event_names.h), NULL: pprof's default */
    int event_optional;/* set before reading: pprof's default when the
                        * profile has no such event */
} stack_profile_t;

/* With with_origin set, the readers name each frame
 * "FUNCTION" SP_ORIGIN_SEP "FILE" SP_ORIGIN_SEP "OBJECT" (FILE and OBJECT
 * may be empty), so that functions of one name in two files stay apart
 * and `diff --by=stack` can match frames as the function diff does. The
 * separator never occurs in names (the readers replace it by a space). */
#define SP_ORIGIN_SEP "\x1f"

void sp_init(stack_profile_t *sp);
void sp_free(stack_profile_t *sp);

/* Add count to the stack frames[0..depth) (root first). */
void sp_add(stack_profile_t *sp, const uint32_t *frames, size_t depth,
            uint64_t count);

/* Order stacks by their frame names, root first (the folded format's
 * conventional order; also makes output deterministic). */
void sp_sort_by_name(stack_profile_t *sp);
/* Order stacks by count, largest first, ties by name. */
void sp_sort_by_count(stack_profile_t *sp);

static inline const char *sp_frame(const stack_profile_t *sp,
                                   const sp_stack_t *s, uint32_t i)
{
    return sp->names.str[sp->frames[s->off + i]];
}

#endif
