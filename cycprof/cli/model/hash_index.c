/* See hash_index.h. */
#include "model/hash_index.h"
#include "util/cmdutil.h"

#include <stdlib.h>
#include <string.h>

void hx_free(hash_index_t *x)
{
    free(x->slot);
    x->slot = NULL;
    x->nslot = 0;
}

static void place_all(hash_index_t *x, size_t n, hx_hash_fn *hash_of, const void *ctx)
{
    for (size_t k = 0; k < n; k++) {
        size_t i = hx_home(x, hash_of(ctx, k));
        while (x->slot[i])
            i = hx_next(x, i);
        x->slot[i] = (uint32_t)(k + 1);
    }
}

void hx_grow(hash_index_t *x, size_t n, size_t min_slots, hx_hash_fn *hash_of,
             const void *ctx)
{
    size_t ns = x->nslot ? x->nslot : min_slots;
    while (n > ns / 2) {
        if (ns > SIZE_MAX / 2 / sizeof *x->slot)
            cu_oom();
        ns *= 2;
    }
    uint32_t *old = x->slot;
    x->slot = cu_calloc(ns, sizeof *x->slot);
    x->nslot = ns;
    free(old);
    place_all(x, n ? n - 1 : 0, hash_of, ctx);
}

void hx_rebuild(hash_index_t *x, size_t n, hx_hash_fn *hash_of, const void *ctx)
{
    memset(x->slot, 0, x->nslot * sizeof *x->slot);
    place_all(x, n, hash_of, ctx);
}
