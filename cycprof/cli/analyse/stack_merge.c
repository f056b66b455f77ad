/* stack_merge: see stack_merge.h. An open-addressing hash table over
 * (thread, region set, stack); the stacks themselves live in one growing pool. */
#include "analyse/stack_merge.h"

#include <stdlib.h>
#include <string.h>

struct entry {
    uint64_t hash;
    size_t off, n;               /* the stack: pool[off .. off + n) */
    int64_t count, thread;
    uint64_t region;
};

struct stack_merge {
    size_t max_bytes, bytes;
    struct entry *entries;
    size_t nentries, entries_cap;
    uint64_t *pool;
    size_t pool_len, pool_cap;
    uint32_t *slots;             /* entry index + 1, 0: free */
    size_t nslots;               /* a power of two, at least 2 * nentries */
};

struct stack_merge *sm_new(size_t max_bytes)
{
    struct stack_merge *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->max_bytes = max_bytes;
    m->nslots = 1024;
    m->slots = calloc(m->nslots, sizeof *m->slots);
    if (!m->slots) {
        free(m);
        return NULL;
    }
    return m;
}

void sm_free(struct stack_merge *m)
{
    if (!m)
        return;
    free(m->entries);
    free(m->pool);
    free(m->slots);
    free(m);
}

static uint64_t hash_of(const uint64_t *locs, size_t n, int64_t thread,
                        uint64_t region)
{
    uint64_t h = (0x9e3779b97f4a7c15u ^ (uint64_t)thread) + region * 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < n; i++) {
        h ^= locs[i];
        h *= 0xff51afd7ed558ccdu;
        h ^= h >> 32;
    }
    return h;
}

static uint32_t *slot_of(struct stack_merge *m, uint64_t hash,
                         const uint64_t *locs, size_t n, int64_t thread,
                         uint64_t region)
{
    size_t mask = m->nslots - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        uint32_t s = m->slots[i];
        if (s == 0)
            return &m->slots[i];
        const struct entry *e = &m->entries[s - 1];
        if (e->hash == hash && e->n == n && e->thread == thread &&
            e->region == region &&
            memcmp(m->pool + e->off, locs, n * sizeof *locs) == 0)
            return &m->slots[i];
    }
}

static int grow_slots(struct stack_merge *m)
{
    size_t n = m->nslots * 2;
    uint32_t *s = calloc(n, sizeof *s);
    if (!s)
        return -1;
    for (size_t k = 0; k < m->nentries; k++) {
        size_t i = m->entries[k].hash & (n - 1);
        while (s[i])
            i = (i + 1) & (n - 1);
        s[i] = (uint32_t)(k + 1);
    }
    free(m->slots);
    m->slots = s;
    m->nslots = n;
    return 0;
}

static int reserve(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 256;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * size);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

int sm_add(struct stack_merge *m, const uint64_t *locs, size_t n,
           int64_t count, int64_t thread, uint64_t region)
{
    uint64_t h = hash_of(locs, n, thread, region);
    uint32_t *slot = slot_of(m, h, locs, n, thread, region);
    if (*slot) {
        m->entries[*slot - 1].count += count;
        return 1;
    }
    size_t cost = n * sizeof *locs + sizeof(struct entry) + 2 * sizeof *slot;
    if (m->bytes + cost > m->max_bytes || m->nentries >= UINT32_MAX / 2)
        return 0;
    if (reserve((void **)&m->pool, &m->pool_cap, m->pool_len + n,
                sizeof *m->pool) != 0 ||
        reserve((void **)&m->entries, &m->entries_cap, m->nentries + 1,
                sizeof *m->entries) != 0)
        return -1;
    struct entry *e = &m->entries[m->nentries++];
    e->hash = h;
    e->off = m->pool_len;
    e->n = n;
    e->count = count;
    e->thread = thread;
    e->region = region;
    memcpy(m->pool + m->pool_len, locs, n * sizeof *locs);
    m->pool_len += n;
    m->bytes += cost;
    *slot = (uint32_t)m->nentries;
    if (2 * m->nentries > m->nslots && grow_slots(m) != 0)
        return -1;
    return 1;
}

size_t sm_count(const struct stack_merge *m)
{
    return m->nentries;
}

void sm_get(const struct stack_merge *m, size_t i, const uint64_t **locs,
            size_t *n, int64_t *count, int64_t *thread, uint64_t *region)
{
    const struct entry *e = &m->entries[i];
    *locs = m->pool + e->off;
    *n = e->n;
    *count = e->count;
    *thread = e->thread;
    *region = e->region;
}
