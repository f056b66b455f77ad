/* See hash_index.h. */
#include "model/hash_index.h"
#include "util/cmdutil.h"

#include <stdlib.h>
#include <string.h>

void hx_free(hash_index_t *x)
{
    free(x->slot);
    memset(x, 0, sizeof *x);
}

void hx_clear(hash_index_t *x)
{
    if (x->slot)
        memset(x->slot, 0, x->nslot * sizeof *x->slot);
}

/* Slot s into a table of 1 << bits slots, from its tag alone. */
static void place(uint64_t *slot, unsigned bits, uint64_t s)
{
    size_t mask = ((size_t)1 << bits) - 1;
    size_t j = (size_t)((s >> 32) >> (32 - bits));
    while (slot[j])
        j = (j + 1) & mask;
    slot[j] = s;
}

void hx_grow(hash_index_t *x, size_t n, unsigned min_bits)
{
    unsigned bits = x->bits ? x->bits : min_bits;
    while (!hx_fits((size_t)1 << bits, n))
        bits++;
    if (bits > 32)               /* the tag in a slot chooses it */
        cu_oom();
    uint64_t *slot = cu_calloc((size_t)1 << bits, sizeof *slot);
    for (size_t i = 0; i < x->nslot; i++)
        if (x->slot[i])
            place(slot, bits, x->slot[i]);
    free(x->slot);
    x->slot = slot;
    x->nslot = (size_t)1 << bits;
    x->bits = bits;
}

void hx_prefetch(const hash_index_t *x, uint64_t hash)
{
    if (x->nslot)
        __builtin_prefetch(&x->slot[hx_home(x, hash)]);
}

void hx_rebuild(hash_index_t *x, size_t n, hx_hash_fn *hash_of, const void *ctx)
{
    hx_clear(x);
    for (size_t k = 0; k < n; k++) {
        uint64_t h = hash_of(ctx, k);
        place(x->slot, x->bits, hx_tag(h) << 32 | (uint64_t)(uint32_t)(k + 1));
    }
}
