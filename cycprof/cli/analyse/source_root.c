/* See source_root.h. */
#define _POSIX_C_SOURCE 200809L
#include "analyse/source_root.h"
#include "util/cmdutil.h"

#include <stdlib.h>
#include <string.h>

typedef struct cand {
    const char *b, *n;  /* a BASE file and a NEW file */
    size_t pb, pn;      /* the lengths of their roots */
} cand_t;

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_base_name(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    int c = strcmp(base_name(x), base_name(y));
    return c ? c : strcmp(x, y);
}

int sr_has(char *const *names, size_t n, const char *name)
{
    return bsearch(&name, names, n, sizeof *names, cmp_str) != NULL;
}

/* The length of the longest tail of whole components that A and B share
 * (0 if even the base names differ). */
static size_t common_tail(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), k = 0;
    while (k < la && k < lb && a[la - 1 - k] == b[lb - 1 - k])
        k++;
    /* Back off to a component boundary on both sides. */
    while (k > 0 && !((k == la || a[la - 1 - k] == '/') &&
                      (k == lb || b[lb - 1 - k] == '/')))
        k--;
    return k;
}

static int cmp_roots(const cand_t *x, const cand_t *y)
{
    int c = memcmp(x->b, y->b, x->pb < y->pb ? x->pb : y->pb);
    if (c || x->pb != y->pb)
        return c ? c : x->pb < y->pb ? -1 : 1;
    c = memcmp(x->n, y->n, x->pn < y->pn ? x->pn : y->pn);
    if (c || x->pn != y->pn)
        return c ? c : x->pn < y->pn ? -1 : 1;
    return 0;
}

static int cmp_cand(const void *a, const void *b)
{
    return cmp_roots(a, b);
}

typedef struct group {
    const cand_t *c;    /* its first candidate */
    size_t votes;
} group_t;

/* Most votes first, then the shorter roots, then by name. */
static int cmp_group(const void *a, const void *b)
{
    const group_t *x = a, *y = b;
    if (x->votes != y->votes)
        return x->votes > y->votes ? -1 : 1;
    size_t lx = x->c->pb + x->c->pn, ly = y->c->pb + y->c->pn;
    if (lx != ly)
        return lx < ly ? -1 : 1;
    return cmp_roots(x->c, y->c);
}

/* Is one of A[0..la) and B[0..lb) a prefix of the other? */
static int nested(const char *a, size_t la, const char *b, size_t lb)
{
    return strncmp(a, b, la < lb ? la : lb) == 0;
}

size_t sr_find(char *const *base, size_t nb, char *const *new, size_t nn,
               source_root_t **out)
{
    *out = NULL;
    /* The files on one side only, NEW's also by base name. */
    char **bo = cu_calloc(nb + 1, sizeof *bo);
    char **no = cu_calloc(nn + 1, sizeof *no);
    size_t nbo = 0, nno = 0;
    for (size_t i = 0; i < nb; i++)
        if (!sr_has(new, nn, base[i]))
            bo[nbo++] = base[i];
    for (size_t i = 0; i < nn; i++)
        if (!sr_has(base, nb, new[i]))
            no[nno++] = new[i];
    char **nob = cu_calloc(nno + 1, sizeof *nob);
    memcpy(nob, no, nno * sizeof *no);
    qsort(nob, nno, sizeof *nob, cmp_base_name);

    cand_t *c = NULL;
    size_t nc = 0, cap = 0;
    for (size_t i = 0; i < nbo; i++) {
        const char *b = bo[i], *bn = base_name(b);
        /* NEW's files of this base name: a run in nob. */
        size_t lo = 0, hi = nno;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (strcmp(base_name(nob[mid]), bn) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        size_t best = 0, first = nc;
        for (size_t j = lo; j < nno && strcmp(base_name(nob[j]), bn) == 0;
             j++) {
            size_t k = common_tail(b, nob[j]);
            if (k == 0 || k < best)
                continue;
            if (k > best) {
                best = k;
                nc = first; /* only the longest tails vote */
            }
            cu_grow(&c, &cap, nc + 1, sizeof *c);
            c[nc++] = (cand_t){b, nob[j], strlen(b) - k, strlen(nob[j]) - k};
        }
    }

    /* One group per pair of roots, with its votes; then the groups in
     * order of votes (ties: shorter roots), each taken when its roots are
     * outside those taken before. */
    qsort(c, nc, sizeof *c, cmp_cand);
    group_t *g = cu_calloc(nc + 1, sizeof *g);
    size_t ng = 0;
    for (size_t i = 0; i < nc;) {
        size_t j = i + 1;
        while (j < nc && cmp_roots(&c[i], &c[j]) == 0)
            j++;
        g[ng++] = (group_t){&c[i], j - i};
        i = j;
    }
    qsort(g, ng, sizeof *g, cmp_group);
    source_root_t *r = cu_calloc(ng + 1, sizeof *r);
    size_t nr = 0;
    for (size_t i = 0; i < ng; i++) {
        const cand_t *x = g[i].c;
        int clash = 0;
        for (size_t k = 0; k < nr && !clash; k++)
            clash = nested(x->b, x->pb, r[k].base, strlen(r[k].base)) ||
                    nested(x->n, x->pn, r[k].new, strlen(r[k].new));
        if (clash)
            continue;
        r[nr].base = cu_strndup(x->b, x->pb);
        r[nr].new = cu_strndup(x->n, x->pn);
        nr++;
    }
    /* Every BASE-only file each pair carries onto a NEW-only file. */
    for (size_t i = 0; i < nbo; i++)
        for (size_t k = 0; k < nr; k++) {
            char *m = sr_rewrite(&r[k], 1, bo[i]);
            if (m && sr_has(no, nno, m))
                r[k].files++;
            free(m);
        }
    free(g);
    free(c);
    free(nob);
    free(no);
    free(bo);
    if (!nr)
        free(r);
    else
        *out = r;
    return nr;
}

char *sr_rewrite(const source_root_t *r, size_t n, const char *file)
{
    for (size_t k = 0; k < n; k++) {
        size_t lb = strlen(r[k].base);
        if (strncmp(file, r[k].base, lb) != 0)
            continue;
        size_t len = strlen(r[k].new) + strlen(file + lb) + 1;
        char *s = cu_malloc(len);
        strcpy(s, r[k].new);
        strcat(s, file + lb);
        return s;
    }
    return NULL;
}

void sr_free(source_root_t *r, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        free(r[k].base);
        free(r[k].new);
    }
    free(r);
}
