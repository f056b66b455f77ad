/* Pairs the rows of two profiles for `cycprof diff`, and the gate that
 * decides whether a change is a regression.
 *
 * Rows are matched by what survives a rebuild: named functions by
 * "file:function"; files and lines by source position and the file name of
 * their object (not its directory: two build trees still match); code
 * without a symbol (named "<object>+0x<offset>", which moves whenever
 * anything before it changes size) by its object and its rank among that
 * object's unnamed functions in address order.
 *
 * Names are first rewritten by the --mod-filename (file and object names)
 * and --mod-funcname rules, in the order given. Then, unless turned off,
 * BASE's files move to NEW's source root when the two builds were made in
 * different folders (source_root.h). */
#ifndef CYCPROF_DIFF_MATCH_H
#define CYCPROF_DIFF_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "analyse/cost_rank.h"
#include "analyse/name_subst.h"
#include "analyse/source_root.h"

typedef struct change {
    const rank_row_t *base_row, *new_row;  /* NULL where the row is absent */
    const rank_row_t *row;                 /* new_row, else base_row */
    uint64_t base, new;
    int renamed;        /* matched functions of different names (unnamed
                           code by position, or by --mod-funcname) */
} change_t;

typedef struct dm_rules {
    const name_subst_t *mod_file;   /* --mod-filename, in order */
    size_t nmod_file;
    const name_subst_t *mod_func;   /* --mod-funcname, in order */
    size_t nmod_func;
    int no_root;                    /* --common-root=no */
    /* Found by dm_changes: the common source roots, most files first */
    source_root_t *roots;
    size_t nroots;
} dm_rules_t;

/* The matching options of `cycprof diff` and `cycprof flamegraph BASE
 * NEW`: --mod-filename=EXPR and --mod-funcname=EXPR (each may be given
 * more than once) and --common-root=auto|no. */
typedef struct dm_opts {
    name_subst_t *mod[2];   /* --mod-filename, --mod-funcname, in order */
    size_t nmod[2], capmod[2];
    int no_root;            /* --common-root=no */
} dm_opts_t;

/* Take argv[*i] if it is one of them: 1 when taken, 0 when not, -1 after
 * a one-line "cycprof CMD: ..." error (a bad expression or value). */
int dm_opt(int argc, char **argv, int *i, const char *cmd, dm_opts_t *o);
/* RULES from the options (which must outlive them). */
void dm_opts_rules(const dm_opts_t *o, dm_rules_t *rules);
void dm_opts_free(dm_opts_t *o);

/* The changed rows (base != new) of two rank tables built with the same
 * --by, comparing event ev[0] of BASE with ev[1] of NEW, largest change
 * first (ties by name), matched under RULES (which records the source root
 * it found). Returns the number; *out is malloc'ed. */
size_t dm_changes(const rank_t *base, const rank_t *new, rank_by_t by,
                  const int ev[2], dm_rules_t *rules, change_t **out);

/* The matching alone: the key of every row of each side (kb[i] for
 * base->rows[i], kn[j] for new->rows[j]; rows of equal keys match), under
 * RULES as dm_changes applies them (and records the source roots). The
 * arrays and strings are malloc'ed. `diff --by=stack` keys each frame so. */
void dm_keys(const rank_t *base, const rank_t *new, rank_by_t by,
             dm_rules_t *ru, char ***kb, char ***kn);

int64_t dm_delta(uint64_t base, uint64_t new);
uint64_t dm_magnitude(uint64_t base, uint64_t new);

/* Growth in percent of base; +inf for something new. */
double dm_growth(uint64_t base, uint64_t new);

/* Does this change trip --fail-above=PCT with the --min-change floor? A
 * change smaller than min_change instructions never trips, however large
 * its percentage (a 3-instruction function that is "new" is not a
 * regression). */
int dm_trips(uint64_t base, uint64_t new, double fail_above,
             uint64_t min_change);

#endif
