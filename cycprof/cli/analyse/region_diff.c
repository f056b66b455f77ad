/* See region_diff.h. */
#include "analyse/region_diff.h"
#include "util/cmdutil.h"
#include "analyse/diff_match.h"

#include <stdlib.h>
#include <string.h>

static const region_row_t *find(const region_table_t *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->rows[i].name, name) == 0)
            return &t->rows[i];
    return NULL;
}

static void add(region_change_t **out, size_t *n, size_t *cap,
                const char *name, uint64_t base, uint64_t new)
{
    if (base == new)
        return;
    cu_grow(out, cap, *n + 1, sizeof **out);
    (*out)[*n].name = name;
    (*out)[*n].base = base;
    (*out)[*n].new = new;
    (*out)[*n].tripped = 0;
    (*n)++;
}

size_t region_changes(const region_table_t *base, const region_table_t *new,
                      int gate_on, double fail_above, uint64_t min_change,
                      region_change_t **out, size_t *ntripped)
{
    size_t n = 0, cap = 0;
    *out = NULL;
    *ntripped = 0;
    for (size_t i = 0; i < base->n; i++) {
        const region_row_t *r = find(new, base->rows[i].name);
        add(out, &n, &cap, base->rows[i].name, base->rows[i].inclusive,
            r ? r->inclusive : 0);
    }
    for (size_t i = 0; i < new->n; i++)
        if (!find(base, new->rows[i].name))
            add(out, &n, &cap, new->rows[i].name, 0, new->rows[i].inclusive);
    for (size_t k = 0; gate_on && k < n; k++)
        if (((*out)[k].tripped = dm_trips((*out)[k].base, (*out)[k].new,
                                          fail_above, min_change)))
            (*ntripped)++;
    return n;
}

void region_changes_print(FILE *out, const region_table_t *base,
                          const region_table_t *new,
                          const region_change_t *ch, size_t n)
{
    char a[32], b[32], d[32], g[32];
    if (!base->n && !new->n)
        return;
    fprintf(out, "\nRegions (inclusive instructions):\n");
    for (size_t k = 0; k < n; k++) {
        const region_change_t *c = &ch[k];
        if (c->base == 0)
            snprintf(g, sizeof g, "new");
        else if (c->new == 0)
            snprintf(g, sizeof g, "gone");
        else
            snprintf(g, sizeof g, "%+.2f%%", dm_growth(c->base, c->new));
        fprintf(out, "%14s  %8s  %14s  %14s  region %s\n",
                cu_commify_signed(dm_delta(c->base, c->new), d), g,
                cu_commify(c->base, a), cu_commify(c->new, b), c->name);
    }
    if (!n)
        fprintf(out, "No region differs.\n");
}
