/* cycprof: a compact hash map from non-zero words to 32-bit values
 * (cp_keymap.h). */
#include "pub_tool_basics.h"
#include "cp_keymap.h"

/* Linear probing still finds a key in a couple of probes on average. */
#define THREE_QUARTERS 3

void cp_keymap_init(KeyMap* m, UWord n)
{
   cp_wordmap_init(&m->map, n, sizeof(UInt), THREE_QUARTERS);
}

void cp_keymap_reserve(KeyMap* m, UWord n)
{
   cp_wordmap_reserve(&m->map, n);
}

UInt* cp_keymap_slot(KeyMap* m, UWord key, Bool* added)
{
   return cp_wordmap_value(&m->map, cp_wordmap_add(&m->map, key, added));
}

void cp_keymap_free(KeyMap* m)
{
   cp_wordmap_free(&m->map);
}
