/* cycprof: owners whose code is all of one function (cp_owner_purity.h). */
#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"
#include "cp_heap.h"
#include "cp_owner_purity.h"
#include "cp_owners.h"

#define PURE     1
#define NOT_PURE 2

void cp_purity_init(OwnerPurity* p, SuperblockOfFunction of,
                    const void* opaque)
{
   UInt n = cp_owner_count() + 1;
   p->fn = cp_heap_calloc("cp.purity", n, sizeof(ULong));
   p->state = cp_heap_calloc("cp.purity", n, 1);
   p->of = of;
   p->opaque = opaque;
}

void cp_purity_free(OwnerPurity* p)
{
   cp_heap_free(p->fn);
   cp_heap_free(p->state);
}

static Bool all_of(const OwnerPurity* p, const Owner* o, ULong frame_fn)
{
   UInt pos;
   for (pos = 0; pos < o->n_counters; pos = cp_owner_run_end(o, pos)) {
      if (!p->of(o->sb_at[pos], frame_fn, p->opaque)) return False;
   }
   return True;
}

Bool cp_owner_pure(OwnerPurity* p, UInt owner, ULong frame_fn)
{
   /* An owner serves one function's frames, but for code without a
    * symbol reached by a jump also those of the function it jumped to
    * (cp_owner_of_frame): one answer is kept, for the first asked. */
   if (p->state[owner] == 0) {
      p->fn[owner] = frame_fn;
      p->state[owner] = all_of(p, cp_owner(owner), frame_fn)
                           ? PURE : NOT_PURE;
   }
   return p->fn[owner] == frame_fn && p->state[owner] == PURE;
}
