/* See diff_match.h. */
#define _POSIX_C_SOURCE 200809L
#include "analyse/diff_match.h"
#include "util/cmdutil.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct keyed {
    char *key;
    const rank_row_t *row;
    uint64_t addr;        /* unnamed functions: their address */
    const char *ob;       /* the file name of its object, after the rules */
} keyed_t;

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The length of X in a name "X+0x<hex>", else 0. */
static size_t object_prefix(const char *name)
{
    const char *p = name ? strstr(name, "+0x") : NULL;
    if (!p || p == name || !isxdigit((unsigned char)p[3]))
        return 0;
    for (const char *q = p + 3; *q; q++)
        if (!isxdigit((unsigned char)*q))
            return 0;
    return (size_t)(p - name);
}

/* A function without a symbol: "<object file name>+0x<hex>", as the tool
 * names it (the file name is the row's object's; code outside every
 * mapping of a pprof file has no object, and the name says which it is),
 * or "0x<hex>" (callgrind, and code in no object). */
static int unnamed_address(const rank_row_t *r, uint64_t *addr)
{
    const char *n = r->name;
    char *end;
    if (!n)
        return 0;
    if (r->object && *r->object) {
        const char *ob = base_name(r->object);
        size_t len = strlen(ob);
        if (strncmp(n, ob, len) == 0 && n[len] == '+')
            n += len + 1;
    } else if (object_prefix(n)) {
        n += object_prefix(n) + 1;
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

/* A name rewritten by each rule in turn; malloc'ed. */
static char *apply_all(const name_subst_t *subs, size_t n, const char *name)
{
    char *s = cu_strdup(name);
    for (size_t i = 0; i < n; i++) {
        char *t = ns_apply(&subs[i], s);
        free(s);
        s = t;
    }
    return s;
}

/* One side's names after --mod-filename: per row its file (NULL for
 * objects) and object, and the sorted, distinct file names. */
typedef struct side_names {
    char **file, **object;
    char **files;      /* sorted, distinct; "???" left out */
    size_t nfiles;
} side_names_t;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void side_names(const rank_t *r, rank_by_t by, const dm_rules_t *ru,
                       side_names_t *s)
{
    s->file = cu_calloc(r->n + 1, sizeof *s->file);
    s->object = cu_calloc(r->n + 1, sizeof *s->object);
    s->files = cu_calloc(r->n + 1, sizeof *s->files);
    s->nfiles = 0;
    for (size_t i = 0; i < r->n; i++) {
        const rank_row_t *row = &r->rows[i];
        const char *ob = by == BY_OBJECT ? row->label : row->object;
        size_t pre = by == BY_FUNCTION && !*ob ? object_prefix(row->name) : 0;
        if (pre) {
            /* Unnamed code outside the mappings: its object by name. */
            char *named = cu_strndup(row->name, pre);
            s->object[i] = apply_all(ru->mod_file, ru->nmod_file, named);
            free(named);
        } else {
            s->object[i] = apply_all(ru->mod_file, ru->nmod_file, ob);
        }
        if (by == BY_OBJECT || !row->file)
            continue;
        s->file[i] = apply_all(ru->mod_file, ru->nmod_file, row->file);
        if (strcmp(s->file[i], "???") != 0 && s->file[i][0])
            s->files[s->nfiles++] = s->file[i];
    }
    qsort(s->files, s->nfiles, sizeof *s->files, cmp_str);
    size_t j = 0;
    for (size_t i = 0; i < s->nfiles; i++)
        if (!j || strcmp(s->files[i], s->files[j - 1]) != 0)
            s->files[j++] = s->files[i];
    s->nfiles = j;
}

static void side_names_free(const rank_t *r, side_names_t *s)
{
    for (size_t i = 0; i < r->n; i++) {
        free(s->file[i]);
        free(s->object[i]);
    }
    free(s->file);
    free(s->object);
    free(s->files);
}

static int cmp_unnamed(const void *a, const void *b)
{
    const keyed_t *x = a, *y = b;
    int c = strcmp(x->ob, y->ob);
    if (c)
        return c;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_key(const void *a, const void *b)
{
    return strcmp(((const keyed_t *)a)->key, ((const keyed_t *)b)->key);
}

/* One key per row, sorted by key. S: this side's names; OTHER: NEW's
 * names when this is BASE and a source root was found (BASE's files not
 * named in NEW move to NEW's root), else NULL. */
static keyed_t *keys_of(const rank_t *r, rank_by_t by, const dm_rules_t *ru,
                        const side_names_t *s, const side_names_t *other)
{
    keyed_t *k = cu_calloc(r->n ? r->n : 1, sizeof *k);
    size_t nun = 0;
    for (size_t i = 0; i < r->n; i++) {
        const rank_row_t *row = &r->rows[i];
        char *file = NULL, *moved = NULL;
        k[i].row = row;
        k[i].ob = base_name(s->object[i]);
        if (s->file[i]) {
            file = s->file[i];
            if (other && !sr_has(other->files, other->nfiles, file) &&
                (moved = sr_rewrite(ru->roots, ru->nroots, file)))
                file = moved;
        }
        if (by == BY_FUNCTION && unnamed_address(row, &k[i].addr)) {
            k[i].key = NULL; /* numbered below */
            nun++;
        } else if (by == BY_FUNCTION) {
            char *fn = apply_all(ru->mod_func, ru->nmod_func, row->name);
            k[i].key = join(file, fn);
            free(fn);
        } else if (by == BY_OBJECT) {
            k[i].key = cu_strdup(k[i].ob);
        } else {
            char fl[32];
            snprintf(fl, sizeof fl, ":%u", (unsigned)row->line);
            char *f = cu_malloc(strlen(file) + sizeof fl);
            strcpy(f, file);
            if (by == BY_LINE)
                strcat(f, fl);
            k[i].key = join(f, k[i].ob);
            free(f);
        }
        free(moved);
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
        if (i && strcmp(k[i].ob, k[i - 1].ob) != 0)
            ordinal = 0;
        char num[48];
        snprintf(num, sizeof num, "\x02unnamed#%zu", ordinal++);
        k[i].key = join(num, k[i].ob);
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

/* Both sides' keys, each sorted by key (keys_of), under RULES (which
 * records the source roots found). */
static void match_keys(const rank_t *base, const rank_t *new, rank_by_t by,
                       dm_rules_t *ru, keyed_t **a, keyed_t **b)
{
    side_names_t sn[2];
    side_names(base, by, ru, &sn[0]);
    side_names(new, by, ru, &sn[1]);
    ru->roots = NULL;
    ru->nroots = ru->no_root ? 0
                             : sr_find(sn[0].files, sn[0].nfiles, sn[1].files,
                                       sn[1].nfiles, &ru->roots);
    *a = keys_of(base, by, ru, &sn[0], ru->nroots ? &sn[1] : NULL);
    *b = keys_of(new, by, ru, &sn[1], NULL);
    side_names_free(base, &sn[0]);
    side_names_free(new, &sn[1]);
}

/* Keys in row order: out[i] is the key of r->rows[i]; takes the strings. */
static char **keys_by_row(const rank_t *r, keyed_t *k)
{
    char **out = cu_calloc(r->n + 1, sizeof *out);
    for (size_t i = 0; i < r->n; i++)
        out[k[i].row - r->rows] = k[i].key;
    free(k);
    return out;
}

void dm_keys(const rank_t *base, const rank_t *new, rank_by_t by,
             dm_rules_t *ru, char ***kb, char ***kn)
{
    keyed_t *a, *b;
    match_keys(base, new, by, ru, &a, &b);
    *kb = keys_by_row(base, a);
    *kn = keys_by_row(new, b);
}

size_t dm_changes(const rank_t *base, const rank_t *new, rank_by_t by,
                  const int ev[2], dm_rules_t *ru, change_t **out)
{
    keyed_t *a, *b;
    match_keys(base, new, by, ru, &a, &b);
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
        x.renamed = x.base_row && x.new_row && x.row->name &&
                    strcmp(x.base_row->name, x.new_row->name) != 0;
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

int dm_opt(int argc, char **argv, int *i, const char *cmd, dm_opts_t *o)
{
    const char *a = argv[*i], *v;
    int r;
    if ((r = cu_opt_value(argc, argv, i, "--mod-filename", NULL, &v)) ||
        (r = cu_opt_value(argc, argv, i, "--mod-funcname", NULL, &v))) {
        int fn = strncmp(a, "--mod-funcname", 14) == 0;
        const char *name = fn ? "--mod-funcname" : "--mod-filename";
        char why[512];
        if (r < 0) {
            cu_err(cmd, "%s needs an expression s/REGEX/REPLACEMENT/", name);
            return -1;
        }
        cu_grow(&o->mod[fn], &o->capmod[fn], o->nmod[fn] + 1,
                sizeof *o->mod[fn]);
        if (ns_parse(v, &o->mod[fn][o->nmod[fn]], why, sizeof why) < 0) {
            cu_err(cmd, "%s: %s", name, why);
            return -1;
        }
        o->nmod[fn]++;
        return 1;
    }
    if ((r = cu_opt_value(argc, argv, i, "--common-root", NULL, &v))) {
        if (r < 0 || (strcmp(v, "auto") != 0 && strcmp(v, "no") != 0)) {
            if (r < 0)
                cu_err(cmd, "--common-root needs auto or no");
            else
                cu_err(cmd, "--common-root must be auto or no, got '%s'", v);
            return -1;
        }
        o->no_root = strcmp(v, "no") == 0;
        return 1;
    }
    return 0;
}

void dm_opts_rules(const dm_opts_t *o, dm_rules_t *rules)
{
    rules->mod_file = o->mod[0];
    rules->nmod_file = o->nmod[0];
    rules->mod_func = o->mod[1];
    rules->nmod_func = o->nmod[1];
    rules->no_root = o->no_root;
}

void dm_opts_free(dm_opts_t *o)
{
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < o->nmod[k]; i++)
            ns_free(&o->mod[k][i]);
        free(o->mod[k]);
    }
    memset(o, 0, sizeof *o);
}
