/* See pprof_costs.h. Everything the file says is checked before it is used
 * (string indices, location, function and mapping ids), since protobuf-c
 * only checks the wire format. */
#define _POSIX_C_SOURCE 200809L
#include "read/pprof_costs.h"
#include "util/cmdutil.h"
#include "read/pprof_reader.h"
#include "read/pprof_index.h"
#include "profile.pb-c.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The frames a hostile file can make us walk: a few kilobytes can describe
 * a location with many lines referenced many times. No real profile comes
 * near this (pprof_reader.c has the same bound). */
#define MAX_FRAMES (1u << 28)


/* A frame as the model keys it. */
typedef struct frame {
    uint32_t fl, fn, ob, line;
} frame_t;

typedef struct reader {
    cg_profile_t *p;
    Perftools__Profiles__Profile *pr;
    const char *name;
    char *err;
    size_t errlen;
    pprof_index_t ix;
    uint32_t *fn_name, *fn_file;  /* per function */
    uint32_t *map_ob;             /* per mapping */
    uint32_t *loc_ob, *loc_addr;  /* per location; loc_addr: "0x..." name */
    int col[CG_MAX_EVENTS];       /* event of the k-th count-like type */
    size_t type_of[CG_MAX_EVENTS];/* its sample type index */
    size_t ncol;
    uint64_t *stamp;              /* per function record: last sample + 1 */
    size_t stamp_cap;
    uint64_t nframes;
    uint32_t unknown_file, unknown_ob;
} reader_t;

static uint32_t str_id(reader_t *r, int64_t i)
{
    return intern(&r->p->names, r->pr->string_table[i]);
}

/* Laid out as RISC Zero's profiler writes it (pprof_costs.h). */
static int is_risc0(const Perftools__Profiles__Profile *pr)
{
    if (pr->n_sample_type != 1 || pr->n_mapping > 1)
        return 0;
    const char *t = pr->string_table[pr->sample_type[0]->type];
    const char *u = pr->string_table[pr->sample_type[0]->unit];
    return strcmp(t, "cycles") == 0 && strcmp(u, "count") == 0;
}

/* Sample types: which are counts, which comes first, the events they map
 * to (set from the first profile, matched by name in later ones). */
static int read_types(reader_t *r)
{
    Perftools__Profiles__Profile *pr = r->pr;
    cg_profile_t *p = r->p;
    size_t nt = pr->n_sample_type, nstr = pr->n_string_table;
    if (nt == 0)
        return cu_fail_named(r->err, r->errlen, r->name, "the profile has no sample "
                    "types, so no count-like sample type");
    for (size_t t = 0; t < nt; t++) {
        int64_t ty = pr->sample_type[t]->type, un = pr->sample_type[t]->unit;
        if (ty < 0 || (uint64_t)ty >= nstr || un < 0 || (uint64_t)un >= nstr)
            return cu_fail_named(r->err, r->errlen, r->name, "sample type %zu: string "
                        "index out of range", t);
    }
    unsigned char *neg = cu_calloc(nt, 1);
    for (size_t s = 0; s < pr->n_sample; s++) {
        if (pr->sample[s]->n_value != nt) {
            free(neg);
            return cu_fail_named(r->err, r->errlen, r->name, "sample %zu has %zu "
                        "values, expected %zu (one per sample type)", s,
                        pr->sample[s]->n_value, nt);
        }
        for (size_t t = 0; t < nt; t++)
            neg[t] |= pr->sample[s]->value[t] < 0;
    }
    /* pprof's default: default_sample_type, else the last type. */
    size_t def = nt;
    for (size_t t = 0; t < nt && pr->default_sample_type; t++)
        if (pr->sample_type[t]->type == pr->default_sample_type) {
            def = t;
            break;
        }
    if (def == nt || neg[def])
        for (size_t t = nt; t-- > 0 && (def == nt || neg[def]);)
            def = t;
    if (neg[def]) {
        free(neg);
        return cu_fail_named(r->err, r->errlen, r->name, "the profile has no "
                    "count-like sample type: every sample type has negative "
                    "values (a difference of two profiles?)");
    }
    r->ncol = 0;
    for (size_t k = 0; k < nt; k++) {
        size_t t = k == 0 ? def : (k <= def ? k - 1 : k);
        if (neg[t])
            continue;
        if (r->ncol == CG_MAX_EVENTS) {
            free(neg);
            return cu_fail_named(r->err, r->errlen, r->name, "more than %d sample "
                        "types", CG_MAX_EVENTS);
        }
        r->type_of[r->ncol++] = t;
    }
    free(neg);

    const char *names[CG_MAX_EVENTS];
    for (size_t k = 0; k < r->ncol; k++) {
        names[k] = pr->string_table[pr->sample_type[r->type_of[k]]->type];
        if (!*names[k])
            return cu_fail_named(r->err, r->errlen, r->name, "sample type %zu has no "
                        "name", r->type_of[k]);
        for (size_t j = 0; j < k; j++)
            if (strcmp(names[j], names[k]) == 0)
                return cu_fail_named(r->err, r->errlen, r->name, "sample type '%s' "
                            "is listed twice", names[k]);
    }
    if (!p->nev) {
        for (size_t k = 0; k < r->ncol; k++) {
            p->events[k] = cu_strdup(names[k]);
            r->col[k] = (int)k;
        }
        p->nev = r->ncol;
        return 0;
    }
    for (size_t k = 0; k < r->ncol; k++) {
        r->col[k] = cg_event_index(p, names[k]);
        if (r->col[k] < 0)
            return cu_fail_named(r->err, r->errlen, r->name, "sample type '%s' is "
                        "not among the events of the first profile (%s%s)",
                        names[k], p->events[0], p->nev > 1 ? " ..." : "");
    }
    return 0;
}

/* Ids, names and objects, checked and resolved once. */
static int read_tables(reader_t *r)
{
    Perftools__Profiles__Profile *pr = r->pr;
    if (pprof_index_build(&r->ix, pr, r->name, r->err, r->errlen) < 0)
        return -1;

    unsigned has = 0;
    r->fn_name = cu_calloc(pr->n_function + 1, sizeof *r->fn_name);
    r->fn_file = cu_calloc(pr->n_function + 1, sizeof *r->fn_file);
    for (size_t i = 0; i < pr->n_function; i++) {
        Perftools__Profiles__Function *f = pr->function[i];
        const char *s = pr->string_table[f->name];
        if (!*s)
            s = pr->string_table[f->system_name];
        r->fn_name[i] = intern(&r->p->names, *s ? s : "??");
        if (*pr->string_table[f->filename]) {
            r->fn_file[i] = str_id(r, f->filename);
            has |= CG_LACKS_FILE;
        } else {
            r->fn_file[i] = r->unknown_file;
        }
    }
    r->map_ob = cu_calloc(pr->n_mapping + 1, sizeof *r->map_ob);
    for (size_t i = 0; i < pr->n_mapping; i++) {
        r->map_ob[i] = str_id(r, pr->mapping[i]->filename);
        if (*pr->string_table[pr->mapping[i]->filename])
            has |= CG_LACKS_OBJECT;
    }
    r->loc_ob = cu_calloc(pr->n_location + 1, sizeof *r->loc_ob);
    r->loc_addr = cu_calloc(pr->n_location + 1, sizeof *r->loc_addr);
    for (size_t i = 0; i < pr->n_location; i++) {
        Perftools__Profiles__Location *l = pr->location[i];
        r->loc_ob[i] = r->unknown_ob;
        if (l->mapping_id)
            r->loc_ob[i] = r->map_ob[pprof_index_find(&r->ix.maps, l->mapping_id)];
        for (size_t j = 0; j < l->n_line; j++)
            if (l->line[j]->line > 0)
                has |= CG_LACKS_LINE;
        if (!l->n_line) {
            char buf[32];
            snprintf(buf, sizeof buf, "0x%" PRIx64, l->address);
            r->loc_addr[i] = intern(&r->p->names, buf);
        }
    }
    r->p->lacks |= (CG_LACKS_FILE | CG_LACKS_LINE | CG_LACKS_OBJECT) & ~has;
    return 0;
}

/* The j-th line of location li (innermost first); a location without lines
 * is one frame named by its address. */
static frame_t frame_of(const reader_t *r, size_t li, size_t j)
{
    Perftools__Profiles__Location *l = r->pr->location[li];
    frame_t f = {r->unknown_file, r->loc_addr[li], r->loc_ob[li], 0};
    if (l->n_line) {
        Perftools__Profiles__Line *ln = l->line[j];
        size_t fi = pprof_index_find(&r->ix.fns, ln->function_id);
        f.fl = r->fn_file[fi];
        f.fn = r->fn_name[fi];
        f.line = ln->line <= 0                  ? 0
                 : ln->line > UINT32_MAX - 1 ? UINT32_MAX - 1
                                             : (uint32_t)ln->line;
    }
    return f;
}

static int add(reader_t *r, uint64_t *dst, const uint64_t *v)
{
    for (size_t e = 0; e < r->p->nev; e++)
        if (cu_add_u64(&dst[e], v[e]) != 0)
            return cu_fail_named(r->err, r->errlen, r->name, "the values of %s add "
                        "up to more than 2^64-1", r->p->events[e]);
    return 0;
}

/* Inclusive: each function once per sample (stamp), however often it is on
 * the stack. */
static int add_inclusive(reader_t *r, frame_t f, uint64_t sample,
                         const uint64_t *v)
{
    cg_profile_t *p = r->p;
    size_t fi = cg_fn_record(p, f.fl, f.fn, f.ob);
    if (fi >= r->stamp_cap) {
        size_t old = r->stamp_cap;
        cu_grow(&r->stamp, &r->stamp_cap, fi + 1, sizeof *r->stamp);
        memset(r->stamp + old, 0, (r->stamp_cap - old) * sizeof *r->stamp);
    }
    if (r->stamp[fi] == sample)
        return 0;
    r->stamp[fi] = sample;
    p->fn_called[fi] = 1;
    return add(r, p->fn_in + fi * p->nev, v);
}

static int read_sample(reader_t *r, size_t si)
{
    Perftools__Profiles__Sample *s = r->pr->sample[si];
    cg_profile_t *p = r->p;
    uint64_t v[CG_MAX_EVENTS] = {0};
    int any = 0;
    for (size_t k = 0; k < r->ncol; k++) {
        v[r->col[k]] = (uint64_t)s->value[r->type_of[k]];
        any |= v[r->col[k]] != 0;
    }
    size_t *li = cu_calloc(s->n_location_id + 1, sizeof *li);
    int rc = 0;
    for (size_t k = 0; k < s->n_location_id; k++) {
        li[k] = pprof_index_find(&r->ix.locs, s->location_id[k]);
        if (li[k] == SIZE_MAX) {
            rc = cu_fail_named(r->err, r->errlen, r->name, "sample %zu refers to "
                      "unknown location %" PRIu64, si, s->location_id[k]);
            goto out;
        }
    }
    if (!any)
        goto out;
    if ((rc = add(r, p->totals, v)) < 0)
        goto out;

    /* Self: the leaf, the innermost line of the first location. */
    frame_t leaf = {r->unknown_file, intern(&p->names, "[unknown]"),
                    r->unknown_ob, 0};
    if (s->n_location_id)
        leaf = frame_of(r, li[0], 0);
    size_t fi = cg_fn_record(p, leaf.fl, leaf.fn, leaf.ob);
    if ((rc = add(r, cg_line_record(p, leaf.ob, leaf.fl, leaf.fn, leaf.line),
                  v)) < 0 ||
        (rc = add(r, p->fn_self + fi * p->nev, v)) < 0)
        goto out;

    if (!s->n_location_id) {
        rc = add_inclusive(r, leaf, si + 1, v);
        goto out;
    }
    for (size_t k = 0; k < s->n_location_id && !rc; k++) {
        size_t nl = r->pr->location[li[k]]->n_line;
        r->nframes += nl ? nl : 1;
        if (r->nframes > MAX_FRAMES) {
            rc = cu_fail_named(r->err, r->errlen, r->name, "stacks too deep (more "
                      "than %u frames in all)", MAX_FRAMES);
            break;
        }
        for (size_t j = 0; j < (nl ? nl : 1) && !rc; j++)
            rc = add_inclusive(r, frame_of(r, li[k], j), si + 1, v);
    }
out:
    free(li);
    return rc;
}

/* Reads the decoded message pr (freed here) into p. */
static int read_message(cg_profile_t *p, const char *name,
                        Perftools__Profiles__Profile *pr, char *err,
                        size_t errlen)
{
    reader_t r;
    memset(&r, 0, sizeof r);
    r.p = p;
    r.name = name;
    r.err = err;
    r.errlen = errlen;
    r.pr = pr;
    r.unknown_file = intern(&p->names, "???");
    r.unknown_ob = intern(&p->names, "");

    cu_grow(&p->files, &p->files_cap, p->nfiles + 1, sizeof *p->files);
    p->files[p->nfiles++] = cu_strdup(name);
    p->npprof++;

    int rc = read_types(&r);
    if (!rc)
        rc = read_tables(&r);
    if (!rc && is_risc0(pr))
        p->nrisc0++;
    p->by_name = p->nrisc0 == p->nfiles;
    /* cycprof puts the profiled command in the first comment, and its
     * --deterministic mode in a later one. */
    static const char mode_prefix[] = "cycprof deterministic: ";
    static const char zk_prefix[] = "cycprof-zkvm: ";
    for (size_t c = 0; !rc && c < pr->n_comment; c++) {
        if (pr->comment[c] <= 0 || (uint64_t)pr->comment[c] >= pr->n_string_table)
            continue;
        const char *text = pr->string_table[pr->comment[c]];
        if (c == 0 && !p->cmd)
            p->cmd = cu_strdup(text);
        else if (!p->deterministic &&
                 strncmp(text, mode_prefix, sizeof mode_prefix - 1) == 0)
            p->deterministic = cu_strdup(text + sizeof mode_prefix - 1);
        else if (strncmp(text, zk_prefix, sizeof zk_prefix - 1) == 0) {
            cu_grow(&p->zk_table, &p->zk_table_cap, p->zk_table_lines + 1,
                    sizeof *p->zk_table);
            p->zk_table[p->zk_table_lines++] = cu_strdup(text + sizeof zk_prefix - 1);
        }
    }
    for (size_t si = 0; !rc && si < pr->n_sample; si++)
        rc = read_sample(&r, si);
    if (!rc)
        p->nparts++;

    free(r.fn_name);
    free(r.fn_file);
    free(r.map_ob);
    free(r.loc_ob);
    free(r.loc_addr);
    free(r.stamp);
    pprof_index_free(&r.ix);
    pprof_free_unpacked(pr);
    return rc;
}

int pprof_costs_read(cg_profile_t *p, const char *path, char *err,
                     size_t errlen)
{
    Perftools__Profiles__Profile *pr = pprof_unpack_file(path, err, errlen);
    return pr ? read_message(p, path, pr, err, errlen) : -1;
}

int pprof_costs_read_mem(cg_profile_t *p, const char *name,
                         const unsigned char *buf, size_t len, char *err,
                         size_t errlen)
{
    Perftools__Profiles__Profile *pr = pprof_unpack_mem(name, buf, len, err,
                                                        errlen);
    return pr ? read_message(p, name, pr, err, errlen) : -1;
}
