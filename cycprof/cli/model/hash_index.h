/* hash_index: the command's one hash table. It maps a key to the index of
 * an entry the caller keeps in its own array (a string, a stack, a
 * sample, a tuple), so each user stores its entries as suits it and the
 * table holds only 64-bit slots: the key's tag beside entry index + 1, 0
 * for an empty slot.
 *
 * Open addressing with linear probing over a power-of-two table kept at
 * most 3/4 full. A key's tag is the top 32 bits of its hash times a
 * constant (Fibonacci hashing: the multiply carries every bit of the hash
 * up to them, so a hash that mixes only its low bits will do), and its
 * first slot the tag's top bits. Most probes are settled by the tag
 * without reading an entry, and
 * growing the table places the slots again from their tags alone: the
 * old table in order lands nearly in order in the new one. A lookup is
 * the caller's loop, inlined with its own key compare:
 *
 *     hx_reserve(&x, n + 1, MIN_BITS);             before adding entry n
 *     for (i = hx_home(&x, h); (s = x.slot[i]) != 0; i = hx_next(&x, i))
 *         if (hx_tag_is(s, h) && entry hx_entry(s) has the key) return it;
 *     hx_put(&x, i, h, n);                         at the empty slot found
 */
#ifndef CYCPROF_HASH_INDEX_H
#define CYCPROF_HASH_INDEX_H

#include <stddef.h>
#include <stdint.h>

typedef struct hash_index {
    uint64_t *slot;    /* hx_tag << 32 | entry index + 1; 0 = empty */
    size_t nslot;      /* 1 << bits, or 0 before the first reserve */
    unsigned bits;
} hash_index_t;

/* Entry i's hash, to place the entries again after the caller reordered
 * them (hx_rebuild). */
typedef uint64_t hx_hash_fn(const void *ctx, size_t i);

void hx_free(hash_index_t *x);
/* Forgets every entry but keeps the memory. */
void hx_clear(hash_index_t *x);

/* hx_reserve's slow path. */
void hx_grow(hash_index_t *x, size_t n, unsigned min_bits);

/* At most 3/4 full: probes stay short, and with the tags a longer run
 * costs no entry reads. */
static inline int hx_fits(size_t nslot, size_t n)
{
    return n <= nslot / 4 * 3;
}

/* Makes room for n entries (the caller adds the last of them next): from
 * 1 << min_bits slots, doubled until n fit. Out of memory, or over 2^32
 * slots, exits (util/README.md). */
static inline void hx_reserve(hash_index_t *x, size_t n, unsigned min_bits)
{
    if (!x->nslot || !hx_fits(x->nslot, n))
        hx_grow(x, n, min_bits);
}

/* Empties the table and places entries 0..n-1 again, e.g. after the
 * caller has reordered them. */
void hx_rebuild(hash_index_t *x, size_t n, hx_hash_fn *hash_of, const void *ctx);

static inline uint64_t hx_tag(uint64_t hash)
{
    return (hash * 0x9E3779B97F4A7C15ull) >> 32;
}

static inline size_t hx_home(const hash_index_t *x, uint64_t hash)
{
    return (size_t)(hx_tag(hash) >> (32 - x->bits));
}

static inline size_t hx_next(const hash_index_t *x, size_t i)
{
    return (i + 1) & (x->nslot - 1);
}

/* Whether slot s may hold the entry of a key with this hash. */
static inline int hx_tag_is(uint64_t s, uint64_t hash)
{
    return s >> 32 == hx_tag(hash);
}

/* The entry index slot s holds. */
static inline size_t hx_entry(uint64_t s)
{
    return (uint32_t)s - 1;
}

/* Entry `entry`, of a key with this hash, into the empty slot i. */
static inline void hx_put(hash_index_t *x, size_t i, uint64_t hash, size_t entry)
{
    x->slot[i] = hx_tag(hash) << 32 | (uint64_t)(uint32_t)(entry + 1);
}

/* For loops over many keys whose tables do not fit in the cache: the
 * first slot of a key a few iterations ahead (a hint only). Not inline:
 * GCC 12 drops a prefetch in an inline function whose result is unused,
 * as if the call had no effect. */
void hx_prefetch(const hash_index_t *x, uint64_t hash);

/* FNV-1a of s[0..len): short names dominate, and it needs no alignment.
 */
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
