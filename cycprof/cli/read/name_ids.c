/* See name_ids.h. */
#include "read/name_ids.h"
#include "util/cmdutil.h"

#include <stdlib.h>
#include <string.h>

/* How far past the ids defined so far an id may reach and still go to
 * the array: a file numbering its names in order never leaves it, and a
 * sparse one costs at most this many words a name. */
#define DENSE_SLACK 1024

void name_ids_init(name_ids_t *t)
{
    memset(t, 0, sizeof *t);
    tuplemap_init(&t->sparse);
}

void name_ids_free(name_ids_t *t)
{
    for (int k = 0; k < NAME_IDS_TABLES; k++)
        free(t->dense[k].name_plus_1);
    tuplemap_free(&t->sparse);
    free(t->sparse_name);
    memset(t, 0, sizeof *t);
}

void name_ids_define(name_ids_t *t, int table, uint32_t id, uint32_t name)
{
    size_t i = tuplemap_find(&t->sparse, (uint32_t)table, id, 0, 0);
    if (i != SIZE_MAX) {
        t->sparse_name[i] = name;
        return;
    }
    name_ids_dense_t *d = &t->dense[table];
    if (id >= d->cap && id < 2 * d->n + DENSE_SLACK) {
        size_t old = d->cap;
        cu_grow(&d->name_plus_1, &d->cap, (size_t)id + 1,
                sizeof *d->name_plus_1);
        memset(d->name_plus_1 + old, 0,
               (d->cap - old) * sizeof *d->name_plus_1);
    }
    if (id < d->cap) {
        d->n += d->name_plus_1[id] == 0;
        d->name_plus_1[id] = name + 1;
        return;
    }
    int added;
    i = tuplemap_get(&t->sparse, (uint32_t)table, id, 0, 0, &added);
    cu_grow(&t->sparse_name, &t->sparse_cap, t->sparse.n,
            sizeof *t->sparse_name);
    t->sparse_name[i] = name;
}

int name_ids_find(const name_ids_t *t, int table, uint32_t id, uint32_t *name)
{
    const name_ids_dense_t *d = &t->dense[table];
    if (id < d->cap && d->name_plus_1[id]) {
        *name = d->name_plus_1[id] - 1;
        return 0;
    }
    size_t i = tuplemap_find(&t->sparse, (uint32_t)table, id, 0, 0);
    if (i == SIZE_MAX)
        return -1;
    *name = t->sparse_name[i];
    return 0;
}
