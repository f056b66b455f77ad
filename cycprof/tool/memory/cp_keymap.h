/* cycprof: a compact hash map from non-zero words to 32-bit values, for
 * big tables (the stacks dump's, a million keys and more; the run's maps
 * by superblock and by context): 12 bytes a slot
 * rather than an AddrMap's 16, and kept up to three quarters full rather
 * than half, so a table of n keys takes 16 to 32 bytes a key rather than
 * 32 to 64 (cp_wordmap.h). */
#ifndef CP_KEYMAP_H
#define CP_KEYMAP_H

#include "pub_tool_basics.h"
#include "cp_wordmap.h"

typedef struct {
   WordMap map;
} KeyMap;

/* Room for n keys without growing (growing rehashes everything). */
void  cp_keymap_init(KeyMap* m, UWord n);
static inline Bool cp_keymap_ready(const KeyMap* m)
{
   return m->map.keys != NULL;
}
void  cp_keymap_reserve(KeyMap* m, UWord n);
/* The value slot of key, or NULL when absent. */
static inline UInt* cp_keymap_find(const KeyMap* m, UWord key)
{
   return cp_wordmap_find(&m->map, key);
}
/* The value slot of key, added (*added True, value 0) when absent.
 * Valid until the next insertion. */
UInt* cp_keymap_slot(KeyMap* m, UWord key, Bool* added);
/* Leaves m empty (cp_wordmap_free): it may be freed again. */
void  cp_keymap_free(KeyMap* m);

#endif
