/* cycprof: the open-addressing hash map from non-zero words that AddrMap
 * (word values, at most half full) and KeyMap (32-bit values, up to three
 * quarters full: a million-key table in half the memory) are made of.
 * Linear probing over a table of a size of cp_tablesize.h; growing
 * rehashes everything. */
#ifndef CP_WORDMAP_H
#define CP_WORDMAP_H

#include "pub_tool_basics.h"
#include "cp_tablesize.h"

typedef struct {
   UWord* keys;          /* 0: a free slot */
   UChar* values;        /* value_bytes each */
   UWord  capacity;      /* a size of cp_tablesize.h */
   UWord  used;
   UInt   value_bytes;
   UInt   fill_quarters; /* at most this many quarters of capacity used */
} WordMap;

/* Mixes the bits of a word for table indexing. */
UWord cp_hash_word(UWord w);

/* Room for n keys without growing. */
void  cp_wordmap_init(WordMap* m, UWord n, UInt value_bytes,
                      UInt fill_quarters);
void  cp_wordmap_reserve(WordMap* m, UWord n);
/* The slot of key, added (*added True, value zeroed) when absent.  Valid
 * until the next insertion. */
UWord cp_wordmap_add(WordMap* m, UWord key, Bool* added);
/* Leaves m empty, with no memory: freeing it again is harmless, which
 * cp_locset_forget_addresses and then cp_locset_free rely on. */
void  cp_wordmap_free(WordMap* m);

/* The slot holding key, or of the free slot where it would go: inline,
 * since the dumps look up millions of keys. */
static inline UWord cp_wordmap_slot_of(const WordMap* m, UWord key)
{
   UWord n = m->capacity, i = cp_tablesize_home(cp_hash_word(key), n);
   while (m->keys[i] != 0 && m->keys[i] != key) i = cp_tablesize_after(i, n);
   return i;
}

static inline void* cp_wordmap_value(const WordMap* m, UWord slot)
{
   return m->values + slot * m->value_bytes;
}

/* The value of key, or NULL when absent. */
static inline void* cp_wordmap_find(const WordMap* m, UWord key)
{
   UWord i = cp_wordmap_slot_of(m, key);
   return m->keys[i] == key ? cp_wordmap_value(m, i) : NULL;
}

#endif
