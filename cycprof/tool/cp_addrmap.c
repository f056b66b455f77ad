/* cycprof: a growing open-addressing hash map from non-zero words to words. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_addrmap.h"

UWord cp_hash_word(UWord w)
{
   w ^= w >> 33;
   w *= 0xff51afd7ed558ccdULL;
   w ^= w >> 33;
   return w;
}

void cp_addrmap_init(AddrMap* m, UWord initial_capacity)
{
   UWord cap = 16;
   while (cap < initial_capacity) cap <<= 1;
   m->capacity = cap;
   m->used = 0;
   m->keys = VG_(calloc)("cp.addrmap.keys", cap, sizeof(UWord));
   m->values = VG_(malloc)("cp.addrmap.values", cap * sizeof(UWord));
}

static UWord slot_of(const AddrMap* m, UWord key)
{
   UWord mask = m->capacity - 1;
   UWord i = cp_hash_word(key) & mask;
   while (m->keys[i] != 0 && m->keys[i] != key)
      i = (i + 1) & mask;
   return i;
}

UWord* cp_addrmap_find(const AddrMap* m, UWord key)
{
   UWord i = slot_of(m, key);
   return m->keys[i] == key ? &m->values[i] : NULL;
}

/* Kept at most half full. */
static void grow_to(AddrMap* m, UWord capacity)
{
   AddrMap bigger;
   UWord i;
   cp_addrmap_init(&bigger, capacity);
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

void cp_addrmap_reserve(AddrMap* m, UWord n)
{
   if (2 * n > m->capacity) grow_to(m, 2 * n);
}

UWord* cp_addrmap_slot(AddrMap* m, UWord key, Bool* added)
{
   UWord i;
   tl_assert(key != 0);
   if (2 * (m->used + 1) > m->capacity) grow_to(m, m->capacity * 2);
   i = slot_of(m, key);
   *added = m->keys[i] == 0;
   if (*added) {
      m->keys[i] = key;
      m->values[i] = 0;
      m->used++;
   }
   return &m->values[i];
}

void cp_addrmap_put(AddrMap* m, UWord key, UWord value)
{
   Bool added;
   *cp_addrmap_slot(m, key, &added) = value;
}

void cp_addrmap_free(AddrMap* m)
{
   VG_(free)(m->keys);
   VG_(free)(m->values);
   m->keys = m->values = NULL;
   m->capacity = m->used = 0;
}
