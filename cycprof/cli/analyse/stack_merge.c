/* stack_merge: see stack_merge.h. An open-addressing hash table over
 * (thread, region set, stack); the stacks themselves live in one growing pool. */
#include "analyse/stack_merge.h"
#include "model/hash_index.h"
#include "util/cmdutil.h"

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
    hash_index_t index;          /* entries by (thread, region set, stack) */
};

struct stack_merge *sm_new(size_t max_bytes)
{
    struct stack_merge *m = cu_calloc(1, sizeof *m);
    m->max_bytes = max_bytes;
    return m;
}

void sm_free(struct stack_merge *m)
{
    if (!m)
        return;
    free(m->entries);
    free(m->pool);
    hx_free(&m->index);
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

static uint64_t entry_hash(const void *ctx, size_t i)
{
    return ((const struct stack_merge *)ctx)->entries[i].hash;
}

int sm_add(struct stack_merge *m, const uint64_t *locs, size_t n,
           int64_t count, int64_t thread, uint64_t region)
{
    uint64_t h = hash_of(locs, n, thread, region);
    hx_reserve(&m->index, m->nentries + 1, 1024, entry_hash, m);
    size_t i;
    for (i = hx_home(&m->index, h); m->index.slot[i]; i = hx_next(&m->index, i)) {
        struct entry *e = &m->entries[m->index.slot[i] - 1];
        if (e->hash == h && e->n == n && e->thread == thread && e->region == region &&
            memcmp(m->pool + e->off, locs, n * sizeof *locs) == 0) {
            e->count += count;
            return 1;
        }
    }
    /* Two slots per entry: the table is kept at most half full. */
    size_t cost = n * sizeof *locs + sizeof(struct entry) + 2 * sizeof(uint32_t);
    if (m->bytes + cost > m->max_bytes || m->nentries >= UINT32_MAX / 2)
        return 0;
    cu_grow(&m->pool, &m->pool_cap, m->pool_len + n, sizeof *m->pool);
    cu_grow(&m->entries, &m->entries_cap, m->nentries + 1, sizeof *m->entries);
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
    m->index.slot[i] = (uint32_t)m->nentries;
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
