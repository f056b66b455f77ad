/* cycprof: a compact open-addressing hash map from non-zero words to
 * 32-bit values, for the stacks dump's big tables (a million keys and
 * more): 12 bytes a slot rather than an AddrMap's 16, and kept up to
 * three quarters full rather than half, so a table of n keys takes
 * 16 to 32 bytes a key rather than 32 to 64. */
#ifndef CP_KEYMAP_H
#define CP_KEYMAP_H

#include "pub_tool_basics.h"

typedef struct {
   UWord* keys;       /* 0: a free slot */
   UInt*  values;
   UWord  capacity;   /* power of two */
   UWord  used;
} KeyMap;

/* Room for n keys without growing (growing rehashes everything). */
void  cp_keymap_init(KeyMap* m, UWord n);
void  cp_keymap_reserve(KeyMap* m, UWord n);
/* The value slot of key, or NULL when absent. */
UInt* cp_keymap_find(const KeyMap* m, UWord key);
/* The value slot of key, added (*added True, value 0) when absent.
 * Valid until the next insertion. */
UInt* cp_keymap_slot(KeyMap* m, UWord key, Bool* added);
void  cp_keymap_free(KeyMap* m);

#endif
