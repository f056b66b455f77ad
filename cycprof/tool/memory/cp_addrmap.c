/* cycprof: a growing hash map from non-zero words to words (cp_addrmap.h). */
#include "pub_tool_basics.h"
#include "cp_addrmap.h"

#define HALF 2   /* quarters */

void cp_addrmap_init(AddrMap* m, UWord initial_capacity)
{
   cp_wordmap_init(&m->map, initial_capacity / 2, sizeof(UWord), HALF);
}

UWord* cp_addrmap_slot(AddrMap* m, UWord key, Bool* added)
{
   return cp_wordmap_value(&m->map, cp_wordmap_add(&m->map, key, added));
}

void cp_addrmap_put(AddrMap* m, UWord key, UWord value)
{
   Bool added;
   *cp_addrmap_slot(m, key, &added) = value;
}

void cp_addrmap_free(AddrMap* m)
{
   cp_wordmap_free(&m->map);
}
