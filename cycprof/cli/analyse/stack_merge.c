/* stack_merge: see stack_merge.h. An open-addressing hash table over
 * (thread, region set, stack); the stacks themselves live in one growing pool. */
#include "analyse/stack_merge.h"
#include "model/hash_index.h"
#include "util/cmdutil.h"

#include <stdlib.h>
#include <string.h>

struct entry {
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

int sm_add(struct stack_merge *m, const uint64_t *locs, size_t n,
           int64_t count, int64_t thread, uint64_t region)
{
    uint64_t h = hash_of(locs, n, thread, region);
    hx_reserve(&m->index, m->nentries + 1, 10);
    size_t i;
    uint64_t s;
    for (i = hx_home(&m->index, h); (s = m->index.slot[i]) != 0;
         i = hx_next(&m->index, i)) {
        struct entry *e = &m->entries[hx_entry(s)];
        if (hx_tag_is(s, h) && e->n == n && e->thread == thread && e->region == region &&
            memcmp(m->pool + e->off, locs, n * sizeof *locs) == 0) {
            e->count += count;
            return 1;
        }
    }
    /* About two slots per entry: the table is 3/8 to 3/4 full. */
    size_t cost = n * sizeof *locs + sizeof(struct entry) + 2 * sizeof(uint64_t);
    if (m->bytes + cost > m->max_bytes || m->nentries >= UINT32_MAX / 2)
        return 0;
    cu_grow(&m->pool, &m->pool_cap, m->pool_len + n, sizeof *m->pool);
    cu_grow(&m->entries, &m->entries_cap, m->nentries + 1, sizeof *m->entries);
    struct entry *e = &m->entries[m->nentries++];
    e->off = m->pool_len;
    e->n = n;
    e->count = count;
    e->thread = thread;
    e->region = region;
    memcpy(m->pool + m->pool_len, locs, n * sizeof *locs);
    m->pool_len += n;
    m->bytes += cost;
    hx_put(&m->index, i, h, m->nentries - 1);
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
