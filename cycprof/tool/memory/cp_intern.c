/* cycprof: interned 64-bit keys (see cp_intern.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "cp_addrmap.h"
#include "cp_array.h"
#include "cp_heap.h"
#include "cp_intern.h"
#include "cp_tablesize.h"

static UWord slot_of(const Interner* t, ULong a)
{
   UWord i = cp_tablesize_home(cp_hash_word((UWord)a ^ (UWord)(a >> 32)),
                               t->n_slots);
   while (t->slots[i] && t->values[t->slots[i] - 1] != a)
      i = cp_tablesize_after(i, t->n_slots);
   return i;
}

static void grow_slots(Interner* t)
{
   UInt k;
   t->n_slots = cp_tablesize_next(t->n_slots);
   cp_heap_free(t->slots);
   t->slots = cp_heap_calloc("cp.intern", t->n_slots, sizeof(UInt));
   for (k = 0; k < t->n; k++) t->slots[slot_of(t, t->values[k])] = k + 1;
}

void cp_intern_init(Interner* t)
{
   t->capacity = 256;
   t->values = cp_heap_malloc("cp.intern", t->capacity * sizeof(ULong));
   t->n_slots = 512;
   t->slots = cp_heap_calloc("cp.intern", t->n_slots, sizeof(UInt));
   t->n = 0;
   cp_intern(t, 0);
}

UInt cp_intern(Interner* t, ULong a)
{
   UWord i = slot_of(t, a);
   if (t->slots[i]) return t->slots[i] - 1;
   tl_assert(t->n < 0xfffffffeu);
   t->values = cp_room_for_one("cp.intern", t->values, t->n, &t->capacity,
                               sizeof(ULong), 256);
   t->values[t->n++] = a;
   /* At most half full: probes stay short. */
   if (2 * t->n > t->n_slots) grow_slots(t);
   else t->slots[i] = t->n;
   return t->n - 1;
}
