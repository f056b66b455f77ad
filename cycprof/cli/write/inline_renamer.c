/* inline_renamer.c: see inline_renamer.h. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cmdutil.h"
#include "write/inline_renamer.h"
#include "model/intern.h"
#include "read/rust_inline_names.h"

struct inline_renamer {
    struct inline_namer *namer;
    intern_t strings;            /* the dump's names and file names */
    struct fn_strings {          /* [fn id - 1] -> ids in strings */
        uint32_t name, file;
    } *fn;
    size_t nfn, fn_cap;
    intern_t renamed;            /* key of each new function, in id order */
    const char **short_names;    /* scratch, per location */
    struct inn_name *names;
    size_t short_names_cap, names_cap;
};

struct inline_renamer *ir_new(void)
{
    struct inline_renamer *r = cu_calloc(1, sizeof *r);
    r->namer = inn_new();
    intern_init(&r->strings);
    intern_init(&r->renamed);
    return r;
}

void ir_free(struct inline_renamer *r)
{
    if (!r)
        return;
    inn_free(r->namer);
    intern_free(&r->strings);
    intern_free(&r->renamed);
    free(r->fn);
    free(r->short_names);
    free(r->names);
    free(r);
}

void ir_map(struct inline_renamer *r, const struct sr_record *map)
{
    inn_add_map(r->namer, map->map.id, map->map.start,
                       map->map.file_offset, map->map.path);
}

void ir_function(struct inline_renamer *r, const struct sr_record *fn)
{
    cu_grow(&r->fn, &r->fn_cap, r->nfn + 1, sizeof *r->fn);
    /* The reader gives fn ids dense from 1. */
    r->fn[r->nfn].name = intern(&r->strings, fn->fn.name);
    r->fn[r->nfn].file = intern(&r->strings, fn->fn.filename);
    r->nfn++;
}

uint64_t ir_last_function(const struct inline_renamer *r)
{
    return r->nfn + r->renamed.n;
}

static void grow_scratch(struct inline_renamer *r, size_t n)
{
    cu_grow(&r->short_names, &r->short_names_cap, n, sizeof *r->short_names);
    cu_grow(&r->names, &r->names_cap, n, sizeof *r->names);
}

/* The id of the function (name, system name, file, line), written to w the
 * first time; 0 on a writer error. */
static uint64_t renamed_function(struct inline_renamer *r,
                                 struct pprof_writer *w,
                                 const struct inn_name *nm,
                                 const char *file)
{
    size_t len = strlen(nm->name) + strlen(nm->system_name) +
                 strlen(file) + 32;
    char *key = cu_malloc(len);
    snprintf(key, len, "%s\t%s\t%s\t%lld", nm->name, nm->system_name, file,
             (long long)nm->decl_line);
    size_t before = r->renamed.n;
    uint32_t k = intern(&r->renamed, key);
    free(key);
    uint64_t id = r->nfn + 1 + k;
    if (r->renamed.n > before &&
        pw_function(w, id, nm->name, nm->system_name, file,
                    nm->decl_line) != 0)
        return 0;
    return id;
}

int ir_location(struct inline_renamer *r, struct pprof_writer *w,
                const struct sr_record *loc, struct pw_line *lines)
{
    size_t n = loc->loc.nlines;
    if (n < 2)
        return 0;
    grow_scratch(r, n);
    for (size_t k = 0; k < n; k++)
        r->short_names[k] = r->strings.str[r->fn[lines[k].function_id - 1].name];
    inn_names(r->namer, loc->loc.map_id, loc->loc.address, n, r->short_names,
              r->names);
    for (size_t k = 0; k + 1 < n; k++) {
        if (!r->names[k].name)
            continue;
        const char *file =
            r->strings.str[r->fn[lines[k].function_id - 1].file];
        uint64_t id = renamed_function(r, w, &r->names[k], file);
        if (!id)
            return -1;
        lines[k].function_id = id;
    }
    return 0;
}
