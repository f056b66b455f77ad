/* cycprof: interned 64-bit keys.  Millions of contexts name a few
 * thousand functions and call sites, and a few ten thousand pairs of
 * them: each keeps a 32-bit index into one table of them rather than the
 * key itself. */
#ifndef CP_INTERN_H
#define CP_INTERN_H

#include "pub_tool_basics.h"

typedef struct {
   ULong* values;    /* [n]: index -> key */
   UInt  n, capacity;
   UInt* slots;      /* open addressing: 1 + index, 0: empty */
   UWord n_slots;    /* a size of cp_tablesize.h */
} Interner;

/* Index 0 stands for key 0. */
void cp_intern_init(Interner* t);
UInt cp_intern(Interner* t, ULong key);
static inline ULong cp_interned(const Interner* t, UInt index)
{
   return t->values[index];
}

#endif
