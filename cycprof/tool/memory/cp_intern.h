/* cycprof: interned addresses.  Millions of contexts name a few thousand
 * functions and call sites: each keeps a 32-bit index into one table of
 * them rather than the 8-byte address itself. */
#ifndef CP_INTERN_H
#define CP_INTERN_H

#include "pub_tool_basics.h"

typedef struct {
   Addr* values;     /* [n]: index -> address */
   UInt  n, capacity;
   UInt* slots;      /* open addressing: 1 + index, 0: empty */
   UWord mask;
} Interner;

/* Index 0 stands for address 0. */
void cp_intern_init(Interner* t);
UInt cp_intern(Interner* t, Addr a);
static inline Addr cp_interned(const Interner* t, UInt index)
{
   return t->values[index];
}

#endif
