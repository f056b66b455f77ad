/* cycprof: interned strings with dense ids, for name compression. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_array.h"
#include "cp_heap.h"
#include "cp_strtab.h"
#include "cp_tablesize.h"
#include "cp_wordmap.h"

/* A slot keeps its string's hash beside the id: a probe compares the
 * string only on equal hashes (100,000 region names: most probes read
 * no string), and growing hashes no string again. */
typedef struct {
   UInt id;      /* 0 = empty */
   UInt hash;
} Slot;

/* The copies are carved from blocks of their own, not allocated one by
 * one: a heap block would take 32 bytes for a name of 9 (a harness that
 * names a region per transaction interns 100,000 of them).  A string too
 * long for a block's rest gets a block of its own size. */
#define POOL_BYTES (64u << 10)
typedef struct Pool {
   struct Pool* next;
   HChar        text[];
} Pool;

struct StrTab {
   HChar** strings;    /* [1 .. count] */
   UInt    count;
   UInt    capacity;
   Slot*   slots;      /* open addressing over ids, at most 3/4 full */
   UInt    n_slots;    /* a size of cp_tablesize.h */
   Pool*   pools;      /* newest first: the copies are carved from it */
   UInt    pool_left;
};

/* FNV-1a, then mixed: names that differ in their last character alone
 * (tx-12340, tx-12341, ...) differ in FNV's high bits by little, and a
 * table that scales the hash to its size reads the high bits
 * (cp_tablesize_home): unmixed, 100,000 such names probed long runs. */
static UInt hash_string(const HChar* s)
{
   UWord h = 1469598103934665603ULL;
   for (; *s; s++) h = (h ^ (UChar)*s) * 1099511628211ULL;
   h = cp_hash_word(h);
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
   UWord i = cp_tablesize_home(hash, t->n_slots);
   while (t->slots[i].id
          && (t->slots[i].hash != hash
              || VG_(strcmp)(t->strings[t->slots[i].id], s) != 0))
      i = cp_tablesize_after(i, t->n_slots);
   return &t->slots[i];
}

static void rehash(StrTab* t)
{
   Slot* old = t->slots;
   UInt i, n_old = t->n_slots;
   t->n_slots = (UInt)cp_tablesize_next(t->n_slots);
   t->slots = cp_heap_calloc("cp.strtab.slots", t->n_slots, sizeof(Slot));
   for (i = 0; i < n_old; i++) {
      UWord j = cp_tablesize_home(old[i].hash, t->n_slots);
      if (!old[i].id) continue;
      while (t->slots[j].id) j = cp_tablesize_after(j, t->n_slots);
      t->slots[j] = old[i];
   }
   cp_heap_free(old);
}

/* A block for a string of bytes: the one carved from, or for a long
 * string one of its own, linked behind it. */
static HChar* room_for(StrTab* t, SizeT bytes)
{
   Pool* p;
   if (bytes <= POOL_BYTES / 4) {
      if (bytes > t->pool_left) {
         p = cp_heap_malloc("cp.strtab.pool", sizeof(Pool) + POOL_BYTES);
         p->next = t->pools;
         t->pools = p;
         t->pool_left = POOL_BYTES;
      }
      t->pool_left -= (UInt)bytes;
      return t->pools->text + POOL_BYTES - t->pool_left - bytes;
   }
   p = cp_heap_malloc("cp.strtab.pool", sizeof(Pool) + bytes);
   if (t->pools) {
      p->next = t->pools->next;
      t->pools->next = p;
   } else {
      p->next = NULL;
      t->pools = p;
      t->pool_left = 0;
   }
   return p->text;
}

static HChar* copy_of(StrTab* t, const HChar* s)
{
   SizeT bytes = VG_(strlen)(s) + 1;
   HChar* copy = room_for(t, bytes);
   VG_(memcpy)(copy, s, bytes);
   return copy;
}

UInt cp_strtab_intern(StrTab* t, const HChar* s)
{
   UInt hash = hash_string(s);
   Slot* slot;
   tl_assert(t->slots);   /* not after cp_strtab_forget_lookups */
   slot = slot_for(t, s, hash);
   if (slot->id) return slot->id;
   /* Ids start at 1: string id is at index id. */
   t->strings = cp_room_for_one("cp.strtab.strings", t->strings,
                                t->count + 1, &t->capacity, sizeof(HChar*),
                                256);
   t->strings[++t->count] = copy_of(t, s);
   slot->id = t->count;
   slot->hash = hash;
   if (4 * (ULong)t->count > 3 * (ULong)t->n_slots) rehash(t);
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

void cp_strtab_forget_lookups(StrTab* t)
{
   cp_heap_free(t->slots);
   t->slots = NULL;
}

void cp_strtab_free(StrTab* t)
{
   while (t->pools) {
      Pool* p = t->pools;
      t->pools = p->next;
      cp_heap_free(p);
   }
   cp_heap_free(t->strings);
   cp_heap_free(t->slots);
   cp_heap_free(t);
}
