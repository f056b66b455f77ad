/* cycprof: arrays that grow by doubling. */
#ifndef CP_ARRAY_H
#define CP_ARRAY_H

#include "pub_tool_basics.h"
#include "cp_heap.h"

/* items, `used` elements of `size` bytes in room for *capacity, with
 * room for one more: twice the room when full, `first` elements at
 * first.  Returns the array, moved or not. */
static inline void* cp_room_for_one(const HChar* cc, void* items, UInt used,
                                    UInt* capacity, SizeT size, UInt first)
{
   if (used < *capacity) return items;
   *capacity = *capacity ? 2 * *capacity : first;
   return cp_heap_realloc(cc, items, (SizeT)*capacity * size);
}

#endif
