/* Two profiles' exact stacks side by side, for `diff --by=stack` and the
 * differential flame graph: every stack of either side with its count in
 * BASE and in NEW.
 *
 * Frames are matched as `cycprof diff` matches functions (diff_match.h):
 * by "file:function" after --mod-filename/--mod-funcname, with BASE's
 * files moved to NEW's source root when the builds were made in different
 * folders, and code without a symbol by its rank in its object. Two stacks
 * are one when their frames match one by one. */
#ifndef CYCPROF_STACK_DIFF_H
#define CYCPROF_STACK_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "analyse/diff_match.h"
#include "model/intern.h"
#include "model/stack_profile.h"

typedef struct sd_stack {
    size_t off;          /* first frame in stack_diff.frames */
    uint32_t depth;
    uint64_t base, new;  /* exact counts; 0 where the side lacks it */
    char *label;         /* "a;b;c", root first, with NEW's names */
    char *base_label;    /* the same with BASE's names, or NULL if none */
} sd_stack_t;

typedef struct stack_diff {
    intern_t keys;       /* matched frames: one id per matched function */
    char **name;         /* per key id: its function name (NEW's if any) */
    uint32_t *frames;    /* all stacks' key ids, concatenated */
    size_t nframes, frames_cap;
    sd_stack_t *stacks;  /* sorted by frame names, root first */
    size_t n;
    uint64_t total[2];
    char *unit;          /* "instructions": NEW's sample type */
    char *cmds[2];       /* each side's command, or NULL */
    char *deterministic[2]; /* each side's recorded mode, or NULL */
} stack_diff_t;

/* Load files[0] (BASE) and files[1] (NEW), each a pprof file or a
 * callgrind-format file with its FILE.pb.gz, and pair their stacks under
 * RULES (which record the source roots found). Returns 0, or -1 after one
 * "cycprof CMD: ..." line. Free d with sd_free in any case. */
int sd_load(stack_diff_t *d, const char *cmd, char *const files[2],
            const char *event, dm_rules_t *rules);
void sd_free(stack_diff_t *d);

static inline const char *sd_frame(const stack_diff_t *d,
                                   const sd_stack_t *s, uint32_t i)
{
    return d->name[d->frames[s->off + i]];
}

#endif
