/* cycprof: a growing hash map from non-zero words to words, kept at most
 * half full (cp_wordmap.h). */
#ifndef CP_ADDRMAP_H
#define CP_ADDRMAP_H

#include "pub_tool_basics.h"
#include "cp_wordmap.h"

typedef struct {
   WordMap map;
} AddrMap;

void   cp_addrmap_init(AddrMap* m, UWord initial_capacity);
static inline Bool cp_addrmap_ready(const AddrMap* m)
{
   return m->map.keys != NULL;
}
/* Room for n keys in all without growing (growing rehashes everything). */
/* Returns a pointer to the value slot of key, or NULL when absent. */
static inline UWord* cp_addrmap_find(const AddrMap* m, UWord key)
{
   return cp_wordmap_find(&m->map, key);
}
void   cp_addrmap_put(AddrMap* m, UWord key, UWord value);
/* The value slot of key, added (*added True, value 0) when absent: a
 * lookup then an insertion in one probe sequence.  Valid until the next
 * insertion. */
UWord* cp_addrmap_slot(AddrMap* m, UWord key, Bool* added);
void   cp_addrmap_free(AddrMap* m);

#endif
