/* cycprof: owners whose code is all of one function (cp_st_owners.h). */
#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"
#include "cp_owners.h"
#include "cp_st_owners.h"

#define PURE     1
#define NOT_PURE 2

void cp_st_purity_init(OwnerPurity* p)
{
   UInt n = cp_owner_count() + 1;
   p->fn = VG_(calloc)("cp.st.purity", n, sizeof(UInt));
   p->state = VG_(calloc)("cp.st.purity", n, 1);
}

void cp_st_purity_free(OwnerPurity* p)
{
   VG_(free)(p->fn);
   VG_(free)(p->state);
}

static Bool all_of(const SuperblockLocations* sl, const UInt* sb_fn,
                   const Owner* o, UInt frame_fn)
{
   UInt pos;
   for (pos = 0; pos < o->n_counters; pos++) {
      UInt id = o->sb_at[pos];
      const SuperblockFacts* f = &sl->facts[id];
      if (f->n_ran == 0) continue;   /* ran nowhere: never counts */
      if (sb_fn[id] != frame_fn || f->first_unnamed < f->n_ran)
         return False;
   }
   return True;
}

Bool cp_st_owner_pure(OwnerPurity* p, const SuperblockLocations* sl,
                      const UInt* sb_fn, UInt owner, UInt frame_fn)
{
   /* An owner serves one function's frames, but for code without a
    * symbol reached by a jump also those of the function it jumped to
    * (cp_owner_of_frame): one answer is kept, for the first asked. */
   if (p->state[owner] == 0) {
      p->fn[owner] = frame_fn;
      p->state[owner] = all_of(sl, sb_fn, cp_owner(owner), frame_fn)
                           ? PURE : NOT_PURE;
   }
   return p->fn[owner] == frame_fn && p->state[owner] == PURE;
}
