/* Map from a fixed tuple of four 32-bit ids to a dense record index.
 * Used to aggregate costs per (object, file, function, line) and similar. */
#ifndef CYCPROF_TUPLEMAP_H
#define CYCPROF_TUPLEMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct tuple { uint32_t k[4]; } tuple_t;

typedef struct tuplemap {
    tuple_t *key;     /* index -> key */
    size_t n, cap;
    uint32_t *slot;   /* index+1, 0 = empty */
    size_t nslot;
} tuplemap_t;

void tuplemap_init(tuplemap_t *m);
void tuplemap_free(tuplemap_t *m);
/* Index of key, adding it (as index m->n) if new; *added tells which. */
size_t tuplemap_get(tuplemap_t *m, uint32_t a, uint32_t b, uint32_t c,
                    uint32_t d, int *added);
/* Index of key, or SIZE_MAX if absent. */
size_t tuplemap_find(const tuplemap_t *m, uint32_t a, uint32_t b, uint32_t c,
                     uint32_t d);

#endif
