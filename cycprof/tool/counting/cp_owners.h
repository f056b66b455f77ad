/* cycprof: functions as owners of dense counter arrays.
 *
 * Most superblocks run in frames of the function they belong to.  Each
 * function numbers its superblocks' counters 0, 1, 2, ... and each
 * context keeps one array of them for its frame's function, so the inline
 * code finds a superblock's counters at a fixed offset from the current
 * context's array, with no cache to miss when a function is called from
 * several places in turn.  Superblocks running in another function's
 * frame go through the context's cost-center table instead. */
#ifndef CP_OWNERS_H
#define CP_OWNERS_H

#include "pub_tool_basics.h"
#include "cp_types.h"

typedef struct {
   Addr    fn;
   UInt    n_counters;
   /* [n_counters]: counter -> its superblock's id; a superblock's
    * counters are one run of positions with its id. */
   UInt*   sb_at;
   UInt    counters_capacity;
   /* How far its contexts' dense arrays reached, averaged as they are
    * packed: where a new context's array starts (cp_context_cover). */
   UInt    typical_len;
} Owner;

/* Where the run of positions that holds pos ends (cp_owner_run). */
static inline UInt cp_owner_run_end(const Owner* o, UInt pos)
{
   UInt id = o->sb_at[pos], e = pos + 1;
   while (e < o->n_counters && o->sb_at[e] == id) e++;
   return e;
}

/* The run of positions [*first, *end) that holds pos: its superblock's
 * counters.  Read from sb_at alone, a few words beside pos, where the
 * superblock's record may lie far away. */
static inline void cp_owner_run(const Owner* o, UInt pos, UInt* first,
                                UInt* end)
{
   UInt id = o->sb_at[pos], f = pos;
   while (f > 0 && o->sb_at[f - 1] == id) f--;
   *first = f;
   *end = cp_owner_run_end(o, pos);
}

/* A context's dense array holds at most this many counters (64 MiB).
 * Superblocks that would take a function past that get an owner of their
 * own, which no frame uses: they count through the contexts' cost-center
 * tables. */
#define CP_OWNER_MAX_COUNTERS ((1u << 23) - 1)

void         cp_owners_init(void);
/* The owner id of function fn (an entry address, or 0 for a thread's
 * root), created on first use; ids start at 1. */
UInt         cp_owner_id(Addr fn);
const Owner* cp_owner(UInt id);
/* Owner ids run from 1 to cp_owner_count(). */
UInt         cp_owner_count(void);
/* The owner whose counters a frame of fn uses: fn's own, unless fn has
 * no symbol and its entry was first run in another frame (reached by a
 * tail jump): then that frame's function owns the code, and frames of fn
 * use its counters too. */
UInt         cp_owner_of_frame(Addr fn);
/* Gives sb its place in the owner's counters: sb->owner, sb->local. */
void         cp_owner_take(UInt id, SBInfo* sb);
/* A context of owner id had counters up to len when packed. */
void         cp_owner_note_len(UInt id, UInt len);

#endif
