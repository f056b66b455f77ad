/* cycprof: a growing open-addressing hash map from non-zero words to words. */
#ifndef CP_ADDRMAP_H
#define CP_ADDRMAP_H

#include "pub_tool_basics.h"

typedef struct {
   UWord* keys;
   UWord* values;
   UWord  capacity;   /* power of two */
   UWord  used;
} AddrMap;

void   cp_addrmap_init(AddrMap* m, UWord initial_capacity);
/* Room for n keys in all without growing (growing rehashes everything). */
void   cp_addrmap_reserve(AddrMap* m, UWord n);
/* Returns a pointer to the value slot of key, or NULL when absent. */
UWord* cp_addrmap_find(const AddrMap* m, UWord key);
void   cp_addrmap_put(AddrMap* m, UWord key, UWord value);
/* The value slot of key, added (*added True, value 0) when absent: a
 * lookup then an insertion in one probe sequence.  Valid until the next
 * insertion. */
UWord* cp_addrmap_slot(AddrMap* m, UWord key, Bool* added);
void   cp_addrmap_free(AddrMap* m);
/* Mixes the bits of a word for table indexing. */
UWord  cp_hash_word(UWord w);

#endif
