/* cycprof: the lowest unnamed address per object of a context
 * (cp_unnamed.h). */
#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"
#include "cp_array.h"
#include "cp_unnamed.h"

void cp_unnamed_note(UnnamedBases* b, UWord obj, Addr a)
{
   UInt k;
   for (k = 0; k < b->used; k++)
      if (b->items[k].obj == obj) {
         if (a < b->items[k].lowest) b->items[k].lowest = a;
         return;
      }
   b->items = cp_room_for_one("cp.unnamed", b->items, b->used, &b->capacity,
                              sizeof(UnnamedBase), 8);
   b->items[b->used].obj = obj;
   b->items[b->used++].lowest = a;
}

Addr cp_unnamed_lowest(const UnnamedBases* b, UWord obj)
{
   UInt k;
   for (k = 0; k < b->used; k++)
      if (b->items[k].obj == obj) return b->items[k].lowest;
   return 0;
}
