/* See cost_rank.h. */
#define _POSIX_C_SOURCE 200809L
#include "analyse/cost_rank.h"
#include "util/cmdutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rank_by_parse(const char *s, rank_by_t *out)
{
    static const char *const names[] = {"function", "file", "line", "object"};
    for (int i = 0; i < 4; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = (rank_by_t)i;
            return 0;
        }
    return -1;
}

const char *rank_by_name(rank_by_t by)
{
    static const char *const names[] = {"function", "file", "line", "object",
                                        "stack"};
    return names[by];
}

cg_rows_t rank_rows(rank_by_t by)
{
    static const cg_rows_t rows[] = {CG_ROWS_FUNCTION, CG_ROWS_FILE,
                                     CG_ROWS_LINE, CG_ROWS_OBJECT,
                                     CG_ROWS_ALL};
    return rows[by];
}

/* Rows are collected through a tuplemap keyed by the ids that make a row. */
typedef struct builder {
    tuplemap_t keys;
    uint64_t *cost;
    size_t cap, nev;
} builder_t;

static uint64_t *row_cost(builder_t *b, uint32_t a, uint32_t c, uint32_t d)
{
    int added;
    size_t i = tuplemap_get(&b->keys, a, c, d, 0, &added);
    if (added) {
        if (b->keys.n > b->cap) {
            b->cap = b->cap ? b->cap * 2 : 256;
            b->cost = cu_realloc(b->cost, b->cap * b->nev * 8);
        }
        memset(b->cost + i * b->nev, 0, b->nev * 8);
    }
    return b->cost + i * b->nev;
}

static char *label_for(const cg_profile_t *p, rank_by_t by, const tuple_t *k)
{
    const char *const *s = (const char *const *)p->names.str;
    size_t n;
    char *l;
    switch (by) {
    case BY_FUNCTION:
        if (k->k[0] == CG_NONE)     /* by name alone */
            return cu_strdup(s[k->k[1]]);
        n = strlen(s[k->k[0]]) + strlen(s[k->k[1]]) + 2;
        l = cu_malloc(n);
        snprintf(l, n, "%s:%s", s[k->k[0]], s[k->k[1]]);
        return l;
    case BY_LINE:
        n = strlen(s[k->k[1]]) + 16;
        l = cu_malloc(n);
        snprintf(l, n, "%s:%u", s[k->k[1]], k->k[2]);
        return l;
    case BY_FILE:
        return cu_strdup(s[k->k[1]]);
    case BY_OBJECT:
        return cu_strdup(s[k->k[0]]);
    case BY_STACK:
        break;
    }
    return cu_strdup("?");
}

/* Per row extras kept while building: the object shown (function rows:
 * the first one seen) and, for lines, the costliest function. */
typedef struct row_extra {
    uint32_t ob;
    uint32_t best_fn;
    uint64_t best_cost;
    uint32_t nfuncs;
} row_extra_t;

void rank_build(const cg_profile_t *p, rank_by_t by, int inclusive,
                rank_t *out)
{
    builder_t b;
    memset(&b, 0, sizeof b);
    tuplemap_init(&b.keys);
    b.nev = p->nev;
    const char *const *s = (const char *const *)p->names.str;
    size_t nev = p->nev;

    /* Per row key: (a, c, d). function: (file, fn, -); file: (object,
     * file, -); line: (object, file, line); object: (object, -, -). */
    row_extra_t *ex = NULL;
    size_t excap = 0;
    int overflow = 0;

    if (by == BY_FUNCTION) {
        for (size_t i = 0; i < p->fns.n; i++) {
            const tuple_t *k = &p->fns.key[i];
            const uint64_t *self = p->fn_self + i * nev;
            const uint64_t *src = self;
            uint64_t tmp[CG_MAX_EVENTS];
            if (inclusive) {
                if (p->fn_called[i]) {
                    src = p->fn_in + i * nev;
                } else {
                    for (size_t e = 0; e < nev; e++) {
                        tmp[e] = self[e];
                        overflow |= cu_add_u64(&tmp[e], p->fn_out[i * nev + e]);
                    }
                    src = tmp;
                }
            }
            uint64_t *c = row_cost(&b, p->by_name ? CG_NONE : k->k[0],
                                   k->k[1], 0);
            for (size_t e = 0; e < nev; e++)
                overflow |= cu_add_u64(&c[e], src[e]);
            cu_grow(&ex, &excap, b.keys.n, sizeof *ex);
            ex[b.keys.n - 1] = (row_extra_t){p->fn_ob[i], CG_NONE, 0, 0};
        }
    } else {
        for (size_t i = 0; i < p->lines.n; i++) {
            const tuple_t *k = &p->lines.key[i]; /* ob, fl, fn, line */
            const uint64_t *lc = p->line_cost + i * nev;
            size_t before = b.keys.n, row;
            uint64_t *c;
            if (by == BY_FILE)
                c = row_cost(&b, k->k[0], k->k[1], 0);
            else if (by == BY_OBJECT)
                c = row_cost(&b, k->k[0], 0, 0);
            else
                c = row_cost(&b, k->k[0], k->k[1], k->k[3]);
            for (size_t e = 0; e < nev; e++)
                overflow |= cu_add_u64(&c[e], lc[e]);
            row = (size_t)(c - b.cost) / nev;
            if (b.keys.n > before) {
                cu_grow(&ex, &excap, b.keys.n, sizeof *ex);
                ex[row] = (row_extra_t){k->k[0], k->k[2], lc[0], 0};
            }
            /* Each (ob, fl, fn, line) tuple is one function's share. */
            ex[row].nfuncs++;
            if (lc[0] > ex[row].best_cost ||
                (lc[0] == ex[row].best_cost &&
                 strcmp(s[k->k[2]], s[ex[row].best_fn]) < 0)) {
                ex[row].best_fn = k->k[2];
                ex[row].best_cost = lc[0];
            }
        }
    }

    memset(out, 0, sizeof *out);
    out->overflow = overflow != 0;
    out->n = b.keys.n;
    out->nev = nev;
    out->costs = b.cost;
    out->rows = cu_calloc(out->n, sizeof *out->rows);
    for (size_t i = 0; i < out->n; i++) {
        rank_row_t *r = &out->rows[i];
        const tuple_t *k = &b.keys.key[i];
        r->label = label_for(p, by, k);
        r->cost = b.cost + i * nev;
        r->object = (by != BY_OBJECT && ex[i].ob != CG_NONE) ? s[ex[i].ob] : "";
        switch (by) {
        case BY_FUNCTION:
            r->file = k->k[0] == CG_NONE ? "" : s[k->k[0]];
            if (k->k[0] == CG_NONE)
                r->object = "";
            r->name = s[k->k[1]];
            break;
        case BY_FILE:
            r->file = s[k->k[1]];
            break;
        case BY_LINE:
            r->file = s[k->k[1]];
            r->line = k->k[2];
            r->func = s[ex[i].best_fn];
            r->nfuncs = ex[i].nfuncs;
            break;
        case BY_OBJECT:
        case BY_STACK:
            break;
        }
    }
    free(ex);
    tuplemap_free(&b.keys);
}

/* qsort has no context argument in C11; the sort order is passed through
 * these file-scope variables (the tool is single-threaded). */
static const int *sort_order;
static size_t sort_norder;

static int cmp_rows(const void *a, const void *b)
{
    const rank_row_t *x = a, *y = b;
    for (size_t i = 0; i < sort_norder; i++) {
        uint64_t u = x->cost[sort_order[i]], v = y->cost[sort_order[i]];
        if (u != v)
            return u > v ? -1 : 1;
    }
    int c = strcmp(x->label, y->label);
    if (c)
        return c;
    if (x->func && y->func && (c = strcmp(x->func, y->func)) != 0)
        return c;
    return strcmp(x->object, y->object);
}

void rank_sort(rank_t *r, const int *order, size_t norder)
{
    sort_order = order;
    sort_norder = norder;
    qsort(r->rows, r->n, sizeof *r->rows, cmp_rows);
}

void rank_free(rank_t *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->rows[i].label);
    free(r->rows);
    free(r->costs);
    memset(r, 0, sizeof *r);
}
