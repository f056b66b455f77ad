/* See diff_match.h. */
#define _POSIX_C_SOURCE 200809L
#include "diff_match.h"
#include "cmdutil.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct keyed {
    char *key;
    const rank_row_t *row;
    uint64_t addr;        /* unnamed functions: their address */
} keyed_t;

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* A function without a symbol: "<object file name>+0x<hex>", as the tool
 * names it (the file name is the row's object's), or "0x<hex>" (callgrind,
 * and code in no object). */
static int unnamed_address(const rank_row_t *r, uint64_t *addr)
{
    const char *n = r->name;
    char *end;
    if (!n)
        return 0;
    if (r->object) {
        const char *ob = base_name(r->object);
        size_t len = strlen(ob);
        if (strncmp(n, ob, len) == 0 && n[len] == '+')
            n += len + 1;
    }
    if (n[0] != '0' || n[1] != 'x' || !isxdigit((unsigned char)n[2]))
        return 0;
    *addr = strtoull(n + 2, &end, 16);
    return *end == 0;
}

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *k = cu_malloc(n);
    snprintf(k, n, "%s\x01%s", a, b);
    return k;
}

static int cmp_unnamed(const void *a, const void *b)
{
    const keyed_t *x = a, *y = b;
    int c = strcmp(base_name(x->row->object), base_name(y->row->object));
    if (c)
        return c;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_key(const void *a, const void *b)
{
    return strcmp(((const keyed_t *)a)->key, ((const keyed_t *)b)->key);
}

/* One key per row, sorted by key. */
static keyed_t *keys_of(const rank_t *r, rank_by_t by)
{
    keyed_t *k = cu_calloc(r->n ? r->n : 1, sizeof *k);
    size_t nun = 0;
    for (size_t i = 0; i < r->n; i++) {
        const rank_row_t *row = &r->rows[i];
        k[i].row = row;
        if (by == BY_FUNCTION && unnamed_address(row, &k[i].addr)) {
            k[i].key = NULL; /* numbered below */
            nun++;
        } else if (by == BY_FUNCTION) {
            k[i].key = cu_strdup(row->label);
        } else if (by == BY_OBJECT) {
            k[i].key = cu_strdup(base_name(row->label));
        } else {
            k[i].key = join(row->label, base_name(row->object));
        }
    }
    /* Unnamed functions: their rank in address order within the object.
     * Moved to the front, numbered, then everything is sorted by key. */
    size_t j = 0;
    for (size_t i = 0; i < r->n; i++)
        if (!k[i].key) {
            keyed_t t = k[j];
            k[j++] = k[i];
            k[i] = t;
        }
    qsort(k, nun, sizeof *k, cmp_unnamed);
    size_t ordinal = 0;
    for (size_t i = 0; i < nun; i++) {
        const char *ob = base_name(k[i].row->object);
        if (i && strcmp(ob, base_name(k[i - 1].row->object)) != 0)
            ordinal = 0;
        char num[48];
        snprintf(num, sizeof num, "\x02unnamed#%zu", ordinal++);
        k[i].key = join(num, ob);
    }
    qsort(k, r->n, sizeof *k, cmp_key);
    return k;
}

int64_t dm_delta(uint64_t base, uint64_t new)
{
    return (int64_t)(new - base);
}

uint64_t dm_magnitude(uint64_t base, uint64_t new)
{
    return new > base ? new - base : base - new;
}

double dm_growth(uint64_t base, uint64_t new)
{
    if (base == 0)
        return new ? INFINITY : 0.0;
    return ((double)new - (double)base) * 100.0 / (double)base;
}

int dm_trips(uint64_t base, uint64_t new, double fail_above,
             uint64_t min_change)
{
    return new > base && new - base >= min_change &&
           dm_growth(base, new) > fail_above;
}

static int cmp_change(const void *a, const void *b)
{
    const change_t *x = a, *y = b;
    uint64_t mx = dm_magnitude(x->base, x->new);
    uint64_t my = dm_magnitude(y->base, y->new);
    if (mx != my)
        return mx > my ? -1 : 1;
    int c = strcmp(x->row->label, y->row->label);
    if (!c && x->row->func && y->row->func)
        c = strcmp(x->row->func, y->row->func);
    if (!c)
        c = strcmp(x->row->object, y->row->object);
    return c;
}

size_t dm_changes(const rank_t *base, const rank_t *new, rank_by_t by,
                  const int ev[2], change_t **out)
{
    keyed_t *a = keys_of(base, by), *b = keys_of(new, by);
    change_t *ch = cu_calloc(base->n + new->n + 1, sizeof *ch);
    size_t n = 0, i = 0, j = 0;
    while (i < base->n || j < new->n) {
        int c = i == base->n ? 1 : j == new->n ? -1 : strcmp(a[i].key, b[j].key);
        change_t x;
        memset(&x, 0, sizeof x);
        if (c <= 0) {
            x.base_row = a[i].row;
            x.base = a[i++].row->cost[ev[0]];
        }
        if (c >= 0) {
            x.new_row = b[j].row;
            x.new = b[j++].row->cost[ev[1]];
        }
        x.row = x.new_row ? x.new_row : x.base_row;
        if (x.base != x.new)
            ch[n++] = x;
    }
    qsort(ch, n, sizeof *ch, cmp_change);
    for (size_t k = 0; k < base->n; k++)
        free(a[k].key);
    for (size_t k = 0; k < new->n; k++)
        free(b[k].key);
    free(a);
    free(b);
    *out = ch;
    return n;
}
