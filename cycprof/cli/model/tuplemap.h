/* Map from a fixed tuple of four 32-bit ids to a dense record index.
 * Used to aggregate costs per (object, file, function, line) and similar.
 * Indices are handed out in insertion order, 0, 1, 2, ...: key[i] is the
 * i-th distinct key added. */
#ifndef CYCPROF_TUPLEMAP_H
#define CYCPROF_TUPLEMAP_H

#include <stddef.h>
#include <stdint.h>

#include "model/hash_index.h"

typedef struct tuple { uint32_t k[4]; } tuple_t;

typedef struct tuplemap {
    tuple_t *key;     /* index -> key */
    size_t n, cap;
    hash_index_t index;
} tuplemap_t;

void tuplemap_init(tuplemap_t *m);
void tuplemap_free(tuplemap_t *m);
/* Forgets every key but keeps the memory, for a map filled again. */
void tuplemap_clear(tuplemap_t *m);
/* Makes room for n keys in all, so that adding them allocates nothing. */
void tuplemap_reserve(tuplemap_t *m, size_t n);

/* Index of key, adding it (as index m->n) if new; *added tells which. */
size_t tuplemap_get(tuplemap_t *m, uint32_t a, uint32_t b, uint32_t c,
                    uint32_t d, int *added);
/* Index of key, or SIZE_MAX if absent. */
size_t tuplemap_find(const tuplemap_t *m, uint32_t a, uint32_t b, uint32_t c,
                     uint32_t d);

/* For loops over many keys whose tables do not fit in the cache: hash a
 * key a few iterations ahead, prefetch its slot, then get it with its
 * hash (a hint only: the result is the same without the prefetch). */
uint64_t tuplemap_hash(uint32_t a, uint32_t b, uint32_t c, uint32_t d);
void tuplemap_prefetch(const tuplemap_t *m, uint64_t hash);
size_t tuplemap_get_hashed(tuplemap_t *m, uint64_t hash, uint32_t a,
                           uint32_t b, uint32_t c, uint32_t d, int *added);

#endif
