/* See pprof_index.h. */
#include "read/pprof_index.h"
#include "util/cmdutil.h"
#include "profile.pb-c.h"

#include <inttypes.h>

size_t pprof_index_find(const tuplemap_t *m, uint64_t id)
{
    return tuplemap_find(m, (uint32_t)id, (uint32_t)(id >> 32), 0, 0);
}

/* Adds id as the next record of m: 0 if it is non-zero and new. Every id
 * being new, the index tuplemap gives it is the record's position. */
static int add_id(tuplemap_t *m, uint64_t id)
{
    int added;
    if (id == 0)
        return -1;
    tuplemap_get(m, (uint32_t)id, (uint32_t)(id >> 32), 0, 0, &added);
    return added ? 0 : -1;
}

int pprof_index_build(pprof_index_t *ix,
                      const Perftools__Profiles__Profile *pr,
                      const char *name, char *err, size_t errlen)
{
    size_t nstr = pr->n_string_table;
#define STR_OK(i) ((i) >= 0 && (uint64_t)(i) < nstr)
    tuplemap_init(&ix->maps);
    tuplemap_init(&ix->fns);
    tuplemap_init(&ix->locs);

    for (size_t i = 0; i < pr->n_mapping; i++) {
        const Perftools__Profiles__Mapping *m = pr->mapping[i];
        if (add_id(&ix->maps, m->id) < 0)
            return cu_fail_named(err, errlen, name, "mapping: id 0 or a duplicate id");
        if (!STR_OK(m->filename) || !STR_OK(m->build_id))
            return cu_fail_named(err, errlen, name, "mapping %" PRIu64 ": string "
                                 "index out of range", m->id);
    }
    for (size_t i = 0; i < pr->n_function; i++) {
        const Perftools__Profiles__Function *f = pr->function[i];
        if (add_id(&ix->fns, f->id) < 0)
            return cu_fail_named(err, errlen, name, "function: id 0 or a duplicate id");
        if (!STR_OK(f->name) || !STR_OK(f->system_name) || !STR_OK(f->filename))
            return cu_fail_named(err, errlen, name, "function %" PRIu64 ": string "
                                 "index out of range", f->id);
    }
    for (size_t i = 0; i < pr->n_location; i++) {
        const Perftools__Profiles__Location *l = pr->location[i];
        if (add_id(&ix->locs, l->id) < 0)
            return cu_fail_named(err, errlen, name, "location: id 0 or a duplicate id");
        if (l->mapping_id && pprof_index_find(&ix->maps, l->mapping_id) == SIZE_MAX)
            return cu_fail_named(err, errlen, name, "location %" PRIu64 " refers to "
                                 "unknown mapping %" PRIu64, l->id, l->mapping_id);
        for (size_t j = 0; j < l->n_line; j++)
            if (pprof_index_find(&ix->fns, l->line[j]->function_id) == SIZE_MAX)
                return cu_fail_named(err, errlen, name, "location %" PRIu64 " refers "
                                     "to unknown function %" PRIu64, l->id,
                                     l->line[j]->function_id);
    }
    return 0;
#undef STR_OK
}

int pprof_sample_check(const Perftools__Profiles__Profile *pr, size_t si,
                       size_t vi, const char *name, char *err, size_t errlen)
{
    const Perftools__Profiles__Sample *s = pr->sample[si];
    if (s->n_value != pr->n_sample_type)
        return cu_fail_named(err, errlen, name, "sample %zu has %zu values, expected "
                             "%zu (one per sample type)", si, s->n_value,
                             pr->n_sample_type);
    if (s->value[vi] < 0)
        return cu_fail_named(err, errlen, name, "sample %zu has a negative value", si);
    return 0;
}

void pprof_index_free(pprof_index_t *ix)
{
    tuplemap_free(&ix->maps);
    tuplemap_free(&ix->fns);
    tuplemap_free(&ix->locs);
}
