/* region_table: the '# cycprof-region' lines of a callgrind-format file:
 *    # cycprof-region<TAB>calls<TAB>inclusive<TAB>self<TAB>name */
#define _POSIX_C_SOURCE 200809L
#include "read/region_table.h"
#include "util/cmdutil.h"

#include <errno.h>
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
    if (ferror(f)) {
        cu_err(cmd, "%s: cannot read: %s", path, strerror(errno));
        fclose(f);
        region_table_free(t);
        return -1;
    }
    fclose(f);
    qsort(t->rows, t->n, sizeof *t->rows, by_inclusive);
    /* Names come from the program: no escape sequences to a terminal. */
    for (size_t i = 0; i < t->n; i++)
        cu_escape_strings_for_terminal(&t->rows[i].name, 1);
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
