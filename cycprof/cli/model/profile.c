/* See profile.h. */
#define _POSIX_C_SOURCE 200809L
#include "model/profile.h"
#include "model/event_names.h"
#include "util/cmdutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pf_init(profile_t *p)
{
    memset(p, 0, sizeof *p);
    intern_init(&p->strings);
}

void pf_free(profile_t *p)
{
    intern_free(&p->strings);
    free(p->string);
    free(p->sample_type);
    free(p->sample);
    free(p->sample_loc);
    free(p->sample_value);
    free(p->sample_label);
    free(p->unknown_location);
    free(p->location);
    free(p->lines);
    free(p->function);
    free(p->mapping);
    free(p->comment);
    free(p->tables_error);
    free(p->callgrind.totals);
    free(p->callgrind.cmd);
    free(p->callgrind.creator);
    free(p->callgrind.deterministic);
    free(p->callgrind.function_object);
    free(p->callgrind.location_mapping);
    free(p->callgrind.self);
    free(p->callgrind.location_file);
    free(p->callgrind.calls_out);
    free(p->callgrind.calls_in);
    free(p->callgrind.called);
    for (size_t i = 0; i < p->callgrind.zk_table_lines; i++)
        free(p->callgrind.zk_table[i].text);
    free(p->callgrind.zk_table);
    memset(p, 0, sizeof *p);
}

int pf_check_tables(const profile_t *p, char *err, size_t errlen)
{
    if (!p->tables_error)
        return 0;
    snprintf(err, errlen, "%s", p->tables_error);
    return -1;
}

int pf_default_value(const profile_t *p, const char *name, char *err,
                     size_t errlen)
{
    if (p->nsample_type == 0)
        return cu_fail_named(err, errlen, name, "profile has no sample types");
    for (size_t i = 0; i < p->nsample_type; i++)
        if (p->sample_type[i].type == PF_BAD_STR ||
            p->sample_type[i].unit == PF_BAD_STR)
            return cu_fail_named(err, errlen, name, "sample type %zu: string index "
                                 "out of range", i);
    size_t vi = p->nsample_type - 1;
    if (p->default_sample_type) {
        if (p->default_sample_type == PF_BAD_STR)
            return cu_fail_named(err, errlen, name, "default_sample_type: string "
                                 "index out of range");
        for (size_t i = 0; i < p->nsample_type; i++)
            if (p->sample_type[i].type == p->default_sample_type)
                vi = i;
    }
    return (int)vi;
}

int pf_value_index(const profile_t *p, const char *name, const char *event,
                   char *err, size_t errlen)
{
    int def = pf_default_value(p, name, err, errlen);
    if (def < 0 || !event)
        return def;
    size_t n = p->nsample_type;
    const char **types = cu_calloc(n, sizeof *types);
    char list[256] = "";
    for (size_t i = 0; i < n; i++) {
        types[i] = pf_str(p, p->sample_type[i].type);
        strncat(list, i ? " " : "", sizeof list - strlen(list) - 1);
        strncat(list, types[i], sizeof list - strlen(list) - 1);
    }
    int vi = ev_find(types, (int)n, event);
    free(types);
    if (vi < 0)
        return cu_fail_named(err, errlen, name, "unknown event '%s' (the "
                             "profile has: %s)", event, list);
    return vi;
}

int pf_sample_check(const profile_t *p, size_t si, size_t vi,
                    const char *name, char *err, size_t errlen)
{
    const pf_sample_t *s = &p->sample[si];
    if (s->nvalue != p->nsample_type)
        return cu_fail_named(err, errlen, name, "sample %zu has %zu values, expected "
                             "%zu (one per sample type)", si, (size_t)s->nvalue,
                             p->nsample_type);
    if (p->sample_value[s->value + vi] < 0)
        return cu_fail_named(err, errlen, name, "sample %zu has a negative value", si);
    return 0;
}
