/* region_table: the '# cycprof-region' lines of a callgrind-format file:
 *    # cycprof-region<TAB>calls<TAB>inclusive<TAB>self<TAB>name */
#define _POSIX_C_SOURCE 200809L
#include "region_table.h"
#include "cmdutil.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX "# cycprof-region\t"

static int parse_row(char *s, region_row_t *r)
{
    char *f[4];
    for (int i = 0; i < 4; i++) {
        f[i] = s;
        s = i < 3 ? strchr(s, '\t') : s;
        if (i < 3) {
            if (!s)
                return -1;
            *s++ = 0;
        }
    }
    if (cu_parse_u64(f[0], &r->calls) < 0 ||
        cu_parse_u64(f[1], &r->inclusive) < 0 ||
        cu_parse_u64(f[2], &r->self) < 0 || !*f[3] || r->self > r->inclusive)
        return -1;
    r->name = cu_strdup(f[3]);
    return 0;
}

static int by_inclusive(const void *pa, const void *pb)
{
    const region_row_t *a = pa, *b = pb;
    if (a->inclusive != b->inclusive)
        return a->inclusive > b->inclusive ? -1 : 1;
    return strcmp(a->name, b->name);
}

int region_table_load(const char *cmd, const char *path, region_table_t *t)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0, nline = 0, rows_cap = 0;
    ssize_t len;
    memset(t, 0, sizeof *t);
    if (!f) {
        cu_err(cmd, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    while ((len = getline(&line, &cap, f)) >= 0) {
        nline++;
        if (len > 0 && line[len - 1] == '\n')
            line[--len] = 0;
        if (strncmp(line, "totals:", 7) == 0) {
            cu_parse_u64(line + 7 + strspn(line + 7, " "), &t->total);
        } else if (strncmp(line, PREFIX, strlen(PREFIX)) == 0) {
            region_row_t r;
            if (parse_row(line + strlen(PREFIX), &r) < 0) {
                cu_err(cmd, "%s:%zu: malformed cycprof-region line", path,
                       nline);
                free(line);
                fclose(f);
                region_table_free(t);
                return -1;
            }
            cu_grow(&t->rows, &rows_cap, t->n + 1, sizeof *t->rows);
            t->rows[t->n++] = r;
        }
    }
    free(line);
    fclose(f);
    qsort(t->rows, t->n, sizeof *t->rows, by_inclusive);
    return 0;
}

void region_table_free(region_table_t *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->rows[i].name);
    free(t->rows);
    memset(t, 0, sizeof *t);
}

void region_table_print(FILE *out, const region_table_t *t)
{
    char a[32], b[32], c[32], p[32];
    if (!t->n) {
        fprintf(out, "No regions.\n");
        return;
    }
    fprintf(out, "%-24s %8s %16s %16s %14s %7s\n", "region", "calls",
            "inclusive", "self", "per call", "%");
    for (size_t i = 0; i < t->n; i++) {
        const region_row_t *r = &t->rows[i];
        fprintf(out, "%-24s %8llu %16s %16s %14s %7s\n", r->name,
                (unsigned long long)r->calls, cu_commify(r->inclusive, a),
                cu_commify(r->self, b),
                cu_commify(r->calls ? r->inclusive / r->calls : 0, c),
                cu_pct(r->inclusive, t->total, p, sizeof p));
    }
}

static const region_row_t *find(const region_table_t *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->rows[i].name, name) == 0)
            return &t->rows[i];
    return NULL;
}

static double growth(uint64_t base, uint64_t new)
{
    if (base == 0)
        return new ? INFINITY : 0.0;
    return ((double)new - (double)base) * 100.0 / (double)base;
}

static size_t diff_row(FILE *out, const char *name, uint64_t base,
                       uint64_t new, double fail_above, const char **worst)
{
    char a[32], b[32], d[32], g[32];
    if (base == new)
        return 0;
    if (base == 0)
        snprintf(g, sizeof g, "new");
    else if (new == 0)
        snprintf(g, sizeof g, "gone");
    else
        snprintf(g, sizeof g, "%+.2f%%", growth(base, new));
    fprintf(out, "%14s  %8s  %14s  %14s  region %s\n",
            cu_commify_signed((int64_t)(new - base), d), g,
            cu_commify(base, a), cu_commify(new, b), name);
    if (fail_above >= 0 && growth(base, new) > fail_above) {
        if (!*worst)
            *worst = name;
        return 1;
    }
    return 0;
}

size_t region_table_diff(FILE *out, const region_table_t *base,
                         const region_table_t *new, double fail_above,
                         const char **worst)
{
    size_t grown = 0, changed = 0;
    *worst = NULL;
    if (!base->n && !new->n)
        return 0;
    fprintf(out, "\nRegions (inclusive instructions):\n");
    for (size_t i = 0; i < base->n; i++) {
        const region_row_t *n = find(new, base->rows[i].name);
        uint64_t nv = n ? n->inclusive : 0;
        changed += base->rows[i].inclusive != nv;
        grown += diff_row(out, base->rows[i].name, base->rows[i].inclusive,
                          nv, fail_above, worst);
    }
    for (size_t i = 0; i < new->n; i++)
        if (!find(base, new->rows[i].name)) {
            changed++;
            grown += diff_row(out, new->rows[i].name, 0,
                              new->rows[i].inclusive, fail_above, worst);
        }
    if (!changed)
        fprintf(out, "No region differs.\n");
    return grown;
}
