/* cycprof: interned strings with dense ids, for name compression. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_array.h"
#include "cp_heap.h"
#include "cp_strtab.h"

/* A slot keeps its string's hash beside the id: a probe compares the
 * string only on equal hashes (100,000 region names: most probes read
 * no string), and growing hashes no string again. */
typedef struct {
   UInt id;      /* 0 = empty */
   UInt hash;
} Slot;

struct StrTab {
   HChar** strings;    /* [1 .. count] */
   UInt    count;
   UInt    capacity;
   Slot*   slots;      /* open addressing over ids */
   UInt    n_slots;
};

static UInt hash_string(const HChar* s)
{
   UWord h = 1469598103934665603ULL;
   for (; *s; s++) h = (h ^ (UChar)*s) * 1099511628211ULL;
   return (UInt)(h ^ (h >> 32));
}

StrTab* cp_strtab_new(void)
{
   StrTab* t = cp_heap_calloc("cp.strtab", 1, sizeof(StrTab));
   t->capacity = 256;
   t->strings = cp_heap_malloc("cp.strtab.strings", t->capacity * sizeof(HChar*));
   t->n_slots = 512;
   t->slots = cp_heap_calloc("cp.strtab.slots", t->n_slots, sizeof(Slot));
   return t;
}

static Slot* slot_for(const StrTab* t, const HChar* s, UInt hash)
{
   UInt i = hash & (t->n_slots - 1);
   while (t->slots[i].id
          && (t->slots[i].hash != hash
              || VG_(strcmp)(t->strings[t->slots[i].id], s) != 0))
      i = (i + 1) & (t->n_slots - 1);
   return &t->slots[i];
}

static void rehash(StrTab* t)
{
   Slot* old = t->slots;
   UInt i, n_old = t->n_slots;
   t->n_slots *= 2;
   t->slots = cp_heap_calloc("cp.strtab.slots", t->n_slots, sizeof(Slot));
   for (i = 0; i < n_old; i++) {
      UInt j = old[i].hash & (t->n_slots - 1);
      if (!old[i].id) continue;
      while (t->slots[j].id) j = (j + 1) & (t->n_slots - 1);
      t->slots[j] = old[i];
   }
   cp_heap_free(old);
}

UInt cp_strtab_intern(StrTab* t, const HChar* s)
{
   UInt hash = hash_string(s);
   Slot* slot = slot_for(t, s, hash);
   if (slot->id) return slot->id;
   /* Ids start at 1: string id is at index id. */
   t->strings = cp_room_for_one("cp.strtab.strings", t->strings,
                                t->count + 1, &t->capacity, sizeof(HChar*),
                                256);
   t->strings[++t->count] = cp_heap_strdup("cp.strtab.s", s);
   slot->id = t->count;
   slot->hash = hash;
   if (2 * t->count > t->n_slots) rehash(t);
   return t->count;
}

const HChar* cp_strtab_get(const StrTab* t, UInt id)
{
   return t->strings[id];
}

UInt cp_strtab_count(const StrTab* t)
{
   return t->count;
}

void cp_strtab_free(StrTab* t)
{
   UInt id;
   for (id = 1; id <= t->count; id++) cp_heap_free(t->strings[id]);
   cp_heap_free(t->strings);
   cp_heap_free(t->slots);
   cp_heap_free(t);
}
