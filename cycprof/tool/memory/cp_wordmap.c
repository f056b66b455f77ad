/* cycprof: the hash map under AddrMap and KeyMap (cp_wordmap.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_heap.h"
#include "cp_wordmap.h"

UWord cp_hash_word(UWord w)
{
   w ^= w >> 33;
   w *= 0xff51afd7ed558ccdULL;
   w ^= w >> 33;
   return w;
}

static Bool fits(const WordMap* m, UWord n, UWord capacity)
{
   return 4 * n <= m->fill_quarters * capacity;
}

static void make_slots(WordMap* m, UWord capacity)
{
   m->capacity = capacity;
   m->used = 0;
   m->keys = cp_heap_calloc("cp.wordmap.keys", capacity, sizeof(UWord));
   m->values = cp_heap_malloc("cp.wordmap.values", capacity * m->value_bytes);
}

static UWord capacity_for(const WordMap* m, UWord n)
{
   UWord cap = 16;
   while (!fits(m, n, cap)) cap = cp_tablesize_next(cap);
   return cap;
}

void cp_wordmap_init(WordMap* m, UWord n, UInt value_bytes,
                     UInt fill_quarters)
{
   tl_assert(fill_quarters >= 1 && fill_quarters <= 3);
   m->value_bytes = value_bytes;
   m->fill_quarters = fill_quarters;
   make_slots(m, capacity_for(m, n));
}

static void rehash_to(WordMap* m, UWord capacity)
{
   WordMap bigger = *m;
   UWord i;
   make_slots(&bigger, capacity);
   for (i = 0; i < m->capacity; i++)
      if (m->keys[i] != 0) {
         UWord j = cp_wordmap_slot_of(&bigger, m->keys[i]);
         bigger.keys[j] = m->keys[i];
         VG_(memcpy)(cp_wordmap_value(&bigger, j), cp_wordmap_value(m, i),
                     m->value_bytes);
      }
   bigger.used = m->used;
   cp_heap_free(m->keys);
   cp_heap_free(m->values);
   *m = bigger;
}

void cp_wordmap_reserve(WordMap* m, UWord n)
{
   if (!fits(m, n, m->capacity)) rehash_to(m, capacity_for(m, n));
}

UWord cp_wordmap_add(WordMap* m, UWord key, Bool* added)
{
   UWord i;
   tl_assert(key != 0);
   if (!fits(m, m->used + 1, m->capacity))
      rehash_to(m, cp_tablesize_next(m->capacity));
   i = cp_wordmap_slot_of(m, key);
   *added = m->keys[i] == 0;
   if (*added) {
      m->keys[i] = key;
      VG_(memset)(cp_wordmap_value(m, i), 0, m->value_bytes);
      m->used++;
   }
   return i;
}

void cp_wordmap_free(WordMap* m)
{
   cp_heap_free(m->keys);
   cp_heap_free(m->values);
   m->keys = NULL;
   m->values = NULL;
   m->capacity = m->used = 0;
}
