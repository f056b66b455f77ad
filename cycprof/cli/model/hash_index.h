/* hash_index: the command's one hash table. It maps a key to the index of
 * an entry the caller keeps in its own array (a string, a stack, a
 * sample), so each user stores its entries as suits it and the table holds
 * only 32-bit slots: entry index + 1, 0 for an empty slot.
 *
 * Open addressing with linear probing over a power-of-two table kept at
 * most half full, so probe runs stay short and a probe always ends at an
 * empty slot. A lookup is the caller's loop, inlined with its own key
 * compare:
 *
 *     hx_reserve(&x, n + 1, 64, hash_of, ctx); before adding entry n
 *     for (i = hx_home(&x, h); x.slot[i]; i = hx_next(&x, i))
 *         if (entry x.slot[i] - 1 has the key) return it;
 *     x.slot[i] = n + 1;                       at the empty slot found
 *
 * tuplemap.h keeps a table of its own: its slots carry hash bits beside
 * the index, which the readers' per-line lookups need to stay fast. */
#ifndef CYCPROF_HASH_INDEX_H
#define CYCPROF_HASH_INDEX_H

#include <stddef.h>
#include <stdint.h>

typedef struct hash_index {
    uint32_t *slot;    /* entry index + 1, 0 = empty */
    size_t nslot;      /* a power of two, or 0 before the first reserve */
} hash_index_t;

/* Entry i's hash, to place the entries again when the table grows. */
typedef uint64_t hx_hash_fn(const void *ctx, size_t i);

void hx_free(hash_index_t *x);

/* hx_reserve's slow path. */
void hx_grow(hash_index_t *x, size_t n, size_t min_slots, hx_hash_fn *hash_of,
             const void *ctx);

/* Makes room for n entries, entries 0..n-2 being in the table (the
 * caller adds entry n-1 next): doubles the table, from min_slots (a
 * power of two), until n fits at most half full, and places them again.
 * Out of memory exits (util/README.md). */
static inline void hx_reserve(hash_index_t *x, size_t n, size_t min_slots,
                              hx_hash_fn *hash_of, const void *ctx)
{
    if (!x->nslot || n > x->nslot / 2)
        hx_grow(x, n, min_slots, hash_of, ctx);
}

/* Empties the table and places entries 0..n-1 again, e.g. after the
 * caller has reordered them. */
void hx_rebuild(hash_index_t *x, size_t n, hx_hash_fn *hash_of, const void *ctx);

static inline size_t hx_home(const hash_index_t *x, uint64_t hash)
{
    return (size_t)hash & (x->nslot - 1);
}

static inline size_t hx_next(const hash_index_t *x, size_t i)
{
    return (i + 1) & (x->nslot - 1);
}

/* FNV-1a of s[0..len): short names dominate, and it needs no alignment. */
static inline uint64_t hx_hash_bytes(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h;
}

#endif
