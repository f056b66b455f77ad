/* See tuplemap.h. */
#include "tuplemap.h"
#include "cmdutil.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash(const tuple_t *t)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 4; i++) {
        h ^= t->k[i];
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    return h;
}

void tuplemap_init(tuplemap_t *m)
{
    memset(m, 0, sizeof *m);
}

void tuplemap_free(tuplemap_t *m)
{
    free(m->key);
    free(m->slot);
    memset(m, 0, sizeof *m);
}

static void rehash(tuplemap_t *m)
{
    size_t ns = m->nslot ? m->nslot * 2 : 64;
    uint32_t *slot = cu_calloc(ns, sizeof *slot);
    for (size_t idx = 0; idx < m->n; idx++) {
        size_t i = hash(&m->key[idx]) & (ns - 1);
        while (slot[i])
            i = (i + 1) & (ns - 1);
        slot[i] = (uint32_t)idx + 1;
    }
    free(m->slot);
    m->slot = slot;
    m->nslot = ns;
}

size_t tuplemap_get(tuplemap_t *m, uint32_t a, uint32_t b, uint32_t c,
                    uint32_t d, int *added)
{
    tuple_t t = {{a, b, c, d}};
    if ((m->n + 1) * 2 > m->nslot)
        rehash(m);
    size_t i = hash(&t) & (m->nslot - 1);
    while (m->slot[i]) {
        if (memcmp(&m->key[m->slot[i] - 1], &t, sizeof t) == 0) {
            if (added)
                *added = 0;
            return m->slot[i] - 1;
        }
        i = (i + 1) & (m->nslot - 1);
    }
    cu_grow(&m->key, &m->cap, m->n + 1, sizeof *m->key);
    m->key[m->n] = t;
    m->slot[i] = (uint32_t)++m->n;
    if (added)
        *added = 1;
    return m->n - 1;
}

size_t tuplemap_find(const tuplemap_t *m, uint32_t a, uint32_t b, uint32_t c,
                     uint32_t d)
{
    tuple_t t = {{a, b, c, d}};
    if (!m->nslot)
        return SIZE_MAX;
    size_t i = hash(&t) & (m->nslot - 1);
    while (m->slot[i]) {
        if (memcmp(&m->key[m->slot[i] - 1], &t, sizeof t) == 0)
            return m->slot[i] - 1;
        i = (i + 1) & (m->nslot - 1);
    }
    return SIZE_MAX;
}
