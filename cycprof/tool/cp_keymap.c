/* cycprof: a compact hash map from non-zero words to 32-bit values
 * (cp_keymap.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "cp_addrmap.h"
#include "cp_keymap.h"

/* At most three quarters full: linear probing still finds a key in a
 * couple of probes on average. */
static Bool fits(UWord n, UWord capacity)
{
   return 4 * n <= 3 * capacity;
}

void cp_keymap_init(KeyMap* m, UWord n)
{
   UWord cap = 16;
   while (!fits(n, cap)) cap <<= 1;
   m->capacity = cap;
   m->used = 0;
   m->keys = VG_(calloc)("cp.keymap.keys", cap, sizeof(UWord));
   m->values = VG_(malloc)("cp.keymap.values", cap * sizeof(UInt));
}

static UWord slot_of(const KeyMap* m, UWord key)
{
   UWord mask = m->capacity - 1;
   UWord i = cp_hash_word(key) & mask;
   while (m->keys[i] != 0 && m->keys[i] != key)
      i = (i + 1) & mask;
   return i;
}

UInt* cp_keymap_find(const KeyMap* m, UWord key)
{
   UWord i = slot_of(m, key);
   return m->keys[i] == key ? &m->values[i] : NULL;
}

static void rehash_for(KeyMap* m, UWord n)
{
   KeyMap bigger;
   UWord i;
   cp_keymap_init(&bigger, n);
   for (i = 0; i < m->capacity; i++)
      if (m->keys[i] != 0) {
         UWord j = slot_of(&bigger, m->keys[i]);
         bigger.keys[j] = m->keys[i];
         bigger.values[j] = m->values[i];
      }
   bigger.used = m->used;
   VG_(free)(m->keys);
   VG_(free)(m->values);
   *m = bigger;
}

void cp_keymap_reserve(KeyMap* m, UWord n)
{
   if (!fits(n, m->capacity)) rehash_for(m, n);
}

UInt* cp_keymap_slot(KeyMap* m, UWord key, Bool* added)
{
   UWord i;
   tl_assert(key != 0);
   if (!fits(m->used + 1, m->capacity)) rehash_for(m, 2 * m->used + 2);
   i = slot_of(m, key);
   *added = m->keys[i] == 0;
   if (*added) {
      m->keys[i] = key;
      m->values[i] = 0;
      m->used++;
   }
   return &m->values[i];
}

void cp_keymap_free(KeyMap* m)
{
   VG_(free)(m->keys);
   VG_(free)(m->values);
   m->keys = NULL;
   m->values = NULL;
   m->capacity = m->used = 0;
}
