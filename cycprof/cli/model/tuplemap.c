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
    free(m->slot);
    memset(m, 0, sizeof *m);
}

void tuplemap_clear(tuplemap_t *m)
{
    if (m->slot)
        memset(m->slot, 0, m->nslot * sizeof *m->slot);
    m->n = 0;
}

static size_t home(const tuplemap_t *m, uint64_t hash)
{
    return (size_t)(hash >> (64 - m->bits));
}

/* At most 3/4 full: probes stay short, and with the hash bits in the
 * slot a longer run costs no key reads. */
static int fits(size_t nslot, size_t n)
{
    return n <= nslot / 4 * 3;
}

static void resize(tuplemap_t *m, unsigned bits)
{
    if (bits > 32)               /* the hash bits in a slot choose it */
        cu_oom();
    size_t ns = (size_t)1 << bits;
    uint64_t *slot = cu_calloc(ns, sizeof *slot);
    /* The old table in order lands nearly in order in the new one: a
     * key's first slot only gains a low bit. */
    for (size_t i = 0; i < m->nslot; i++) {
        uint64_t s = m->slot[i];
        if (!s)
            continue;
        size_t j = (size_t)((s >> 32) >> (32 - bits));
        while (slot[j])
            j = (j + 1) & (ns - 1);
        slot[j] = s;
    }
    free(m->slot);
    m->slot = slot;
    m->nslot = ns;
    m->bits = bits;
}

void tuplemap_reserve(tuplemap_t *m, size_t n)
{
    unsigned bits = m->bits ? m->bits : MIN_BITS;
    while (!fits((size_t)1 << bits, n))
        bits++;
    if (bits != m->bits)
        resize(m, bits);
    cu_grow(&m->key, &m->cap, n, sizeof *m->key);
}

void tuplemap_prefetch(const tuplemap_t *m, uint64_t hash)
{
    if (m->slot)
        __builtin_prefetch(&m->slot[home(m, hash)]);
}

size_t tuplemap_get_hashed(tuplemap_t *m, uint64_t hash, uint32_t a,
                           uint32_t b, uint32_t c, uint32_t d, int *added)
{
    if (!fits(m->nslot, m->n + 1))
        resize(m, m->slot ? m->bits + 1 : MIN_BITS);
    uint64_t tag = hash >> 32, mask = m->nslot - 1;
    size_t i = home(m, hash);
    for (uint64_t s; (s = m->slot[i]) != 0; i = (i + 1) & mask) {
        if (s >> 32 != tag)
            continue;
        const uint32_t *k = m->key[(uint32_t)s - 1].k;
        if (k[0] == a && k[1] == b && k[2] == c && k[3] == d) {
            if (added)
                *added = 0;
            return (uint32_t)s - 1;
        }
    }
    cu_grow(&m->key, &m->cap, m->n + 1, sizeof *m->key);
    m->key[m->n] = (tuple_t){{a, b, c, d}};
    m->slot[i] = tag << 32 | (uint64_t)++m->n;
    if (added)
        *added = 1;
    return m->n - 1;
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
    if (!m->slot)
        return SIZE_MAX;
    uint64_t hash = tuplemap_hash(a, b, c, d), tag = hash >> 32;
    size_t mask = m->nslot - 1;
    for (size_t i = home(m, hash); m->slot[i]; i = (i + 1) & mask) {
        uint64_t s = m->slot[i];
        if (s >> 32 != tag)
            continue;
        const uint32_t *k = m->key[(uint32_t)s - 1].k;
        if (k[0] == a && k[1] == b && k[2] == c && k[3] == d)
            return (uint32_t)s - 1;
    }
    return SIZE_MAX;
}
