/* See tuplemap.h. */
#include "model/tuplemap.h"
#include "util/cmdutil.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MIN_BITS 6

uint64_t tuplemap_hash(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    /* Two 64-bit lanes, one multiply each, then a final mix: every key
     * bit reaches the top bits, which choose the slot. */
    uint64_t x = ((uint64_t)a << 32 | b) * 0x9E3779B97F4A7C15ull;
    uint64_t y = ((uint64_t)c << 32 | d) * 0xC2B2AE3D27D4EB4Full;
    uint64_t h = x ^ (y >> 29) ^ (y << 35) ^ (x >> 32);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 29);
}

void tuplemap_init(tuplemap_t *m)
{
    memset(m, 0, sizeof *m);
}

void tuplemap_free(tuplemap_t *m)
{
    free(m->key);
    hx_free(&m->index);
    memset(m, 0, sizeof *m);
}

void tuplemap_clear(tuplemap_t *m)
{
    hx_clear(&m->index);
    m->n = 0;
}

void tuplemap_reserve(tuplemap_t *m, size_t n)
{
    hx_reserve(&m->index, n, MIN_BITS);
    cu_grow(&m->key, &m->cap, n, sizeof *m->key);
}

void tuplemap_prefetch(const tuplemap_t *m, uint64_t hash)
{
    hx_prefetch(&m->index, hash);
}

static int same(const tuple_t *t, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    return t->k[0] == a && t->k[1] == b && t->k[2] == c && t->k[3] == d;
}

size_t tuplemap_get_hashed(tuplemap_t *m, uint64_t hash, uint32_t a,
                           uint32_t b, uint32_t c, uint32_t d, int *added)
{
    hx_reserve(&m->index, m->n + 1, MIN_BITS);
    size_t i;
    uint64_t s;
    for (i = hx_home(&m->index, hash); (s = m->index.slot[i]) != 0;
         i = hx_next(&m->index, i)) {
        if (hx_tag_is(s, hash) && same(&m->key[hx_entry(s)], a, b, c, d)) {
            if (added)
                *added = 0;
            return hx_entry(s);
        }
    }
    cu_grow(&m->key, &m->cap, m->n + 1, sizeof *m->key);
    m->key[m->n] = (tuple_t){{a, b, c, d}};
    hx_put(&m->index, i, hash, m->n);
    if (added)
        *added = 1;
    return m->n++;
}

size_t tuplemap_get(tuplemap_t *m, uint32_t a, uint32_t b, uint32_t c,
                    uint32_t d, int *added)
{
    return tuplemap_get_hashed(m, tuplemap_hash(a, b, c, d), a, b, c, d,
                               added);
}

size_t tuplemap_find(const tuplemap_t *m, uint32_t a, uint32_t b, uint32_t c,
                     uint32_t d)
{
    if (!m->index.nslot)
        return SIZE_MAX;
    uint64_t hash = tuplemap_hash(a, b, c, d), s;
    for (size_t i = hx_home(&m->index, hash); (s = m->index.slot[i]) != 0;
         i = hx_next(&m->index, i))
        if (hx_tag_is(s, hash) && same(&m->key[hx_entry(s)], a, b, c, d))
            return hx_entry(s);
    return SIZE_MAX;
}
