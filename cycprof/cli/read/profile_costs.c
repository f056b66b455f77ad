/* See profile_costs.h: a view of the profile model (profile.h). Everything
 * a pprof file says is checked before it is used (string indices,
 * location, function and mapping ids), since protobuf-c only checks the
 * wire format; the callgrind reader has checked what it fills. */
#define _POSIX_C_SOURCE 200809L
#include "read/profile_costs.h"
#include "util/cmdutil.h"
#include "model/profile.h"
#include "read/pprof_reader.h"

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
    profile_t *pr;                /* given up to p, which frees what it
                                   * has read of a callgrind profile */
    const char *name;
    char *err;
    size_t errlen;
    uint32_t *fn_name, *fn_file;  /* per function */
    uint32_t *map_ob;             /* per mapping */
    uint32_t *loc_ob;             /* per location */
    uint32_t *loc_addr;           /* per location, "0x..." names: NULL
                                   * while every location has lines */
    int col[CG_MAX_EVENTS];       /* event of the k-th count-like type */
    size_t type_of[CG_MAX_EVENTS];/* its sample type index */
    size_t ncol;
    uint64_t *stamp;              /* per function record: last sample + 1 */
    size_t stamp_cap;
    uint64_t nframes;
    uint32_t unknown_file, unknown_ob;
    int callgrind;                /* pr was read from callgrind files */
    int moved;                    /* pr's strings are p->names */
    int functions, lines;         /* what p keeps (cg_keeps_*) */
    size_t *fn_record;            /* callgrind: per function, its record */
} reader_t;

/* String i of the profile, and its id in p->names: the profile's own id
 * when its strings were moved there (pc_add_taking). */
static const char *text(const reader_t *r, uint32_t i)
{
    return r->moved ? r->p->names.str[r->pr->string[i]] : pf_str(r->pr, i);
}

static uint32_t str_id(reader_t *r, uint32_t i)
{
    return r->moved ? r->pr->string[i] : intern(&r->p->names, pf_str(r->pr, i));
}

/* Laid out as RISC Zero's profiler writes it (profile_costs.h). */
static int is_risc0(const reader_t *r)
{
    const profile_t *pr = r->pr;
    if (pr->nsample_type != 1 || pr->nmapping > 1)
        return 0;
    const char *t = text(r, pr->sample_type[0].type);
    const char *u = text(r, pr->sample_type[0].unit);
    return strcmp(t, "cycles") == 0 && strcmp(u, "count") == 0;
}

/* A pprof profile's sample types: which are counts, which comes first. */
static int pprof_types(reader_t *r)
{
    const profile_t *pr = r->pr;
    size_t nt = pr->nsample_type;
    if (nt == 0)
        return cu_fail_named(r->err, r->errlen, r->name, "the profile has no sample "
                    "types, so no count-like sample type");
    for (size_t t = 0; t < nt; t++) {
        if (pr->sample_type[t].type == PF_BAD_STR ||
            pr->sample_type[t].unit == PF_BAD_STR)
            return cu_fail_named(r->err, r->errlen, r->name, "sample type %zu: string "
                        "index out of range", t);
    }
    unsigned char *neg = cu_calloc(nt, 1);
    for (size_t s = 0; s < pr->nsample; s++) {
        if (pr->sample[s].nvalue != nt) {
            free(neg);
            return cu_fail_named(r->err, r->errlen, r->name, "sample %zu has %zu "
                        "values, expected %zu (one per sample type)", s,
                        (size_t)pr->sample[s].nvalue, nt);
        }
        const int64_t *value = pr->sample_value + pr->sample[s].value;
        for (size_t t = 0; t < nt; t++)
            neg[t] |= value[t] < 0;
    }
    /* pprof's default: default_sample_type, else the last type. */
    size_t def = nt;
    for (size_t t = 0; t < nt && pr->default_sample_type; t++)
        if (pr->sample_type[t].type == pr->default_sample_type) {
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
    return 0;
}

/* Sample types: the events they map to (set from the first profile,
 * matched by name in later ones). A callgrind profile's are all counts,
 * in their order. */
static int read_types(reader_t *r)
{
    const profile_t *pr = r->pr;
    cg_profile_t *p = r->p;
    if (!r->callgrind) {
        if (pprof_types(r) < 0)
            return -1;
    } else {
        r->ncol = pr->nsample_type;
        for (size_t k = 0; k < r->ncol; k++)
            r->type_of[k] = k;
    }

    const char *names[CG_MAX_EVENTS];
    for (size_t k = 0; k < r->ncol; k++) {
        names[k] = text(r, pr->sample_type[r->type_of[k]].type);
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

/* Names and objects, resolved once, the tables checked. */
static int read_tables(reader_t *r)
{
    const profile_t *pr = r->pr;
    if (pf_check_tables(pr, r->err, r->errlen) < 0)
        return -1;

    unsigned has = 0;
    r->fn_name = cu_calloc(pr->nfunction + 1, sizeof *r->fn_name);
    r->fn_file = cu_calloc(pr->nfunction + 1, sizeof *r->fn_file);
    for (size_t i = 0; i < pr->nfunction && r->callgrind; i++) {
        r->fn_name[i] = str_id(r, pr->function[i].name);
        r->fn_file[i] = str_id(r, pr->function[i].filename);
    }
    for (size_t i = 0; i < pr->nfunction && !r->callgrind; i++) {
        const pf_function_t *f = &pr->function[i];
        const char *s = text(r, f->name);
        if (!*s)
            s = text(r, f->system_name);
        r->fn_name[i] = intern(&r->p->names, *s ? s : "??");
        if (*text(r, f->filename)) {
            r->fn_file[i] = str_id(r, f->filename);
            has |= CG_LACKS_FILE;
        } else {
            r->fn_file[i] = r->unknown_file;
        }
    }
    r->map_ob = cu_calloc(pr->nmapping + 1, sizeof *r->map_ob);
    for (size_t i = 0; i < pr->nmapping; i++) {
        r->map_ob[i] = str_id(r, pr->mapping[i].filename);
        if (*text(r, pr->mapping[i].filename))
            has |= CG_LACKS_OBJECT;
    }
    r->loc_ob = cu_calloc(pr->nlocation + 1, sizeof *r->loc_ob);
    for (size_t i = 0; i < pr->nlocation; i++) {
        const pf_location_t l = pf_location_at(pr, i);
        r->loc_ob[i] = r->unknown_ob;
        if (l.mapping != PF_NO_MAPPING)
            r->loc_ob[i] = r->map_ob[l.mapping];
        for (size_t j = 0; j < l.nline; j++)
            if (pr->lines[l.line + j].line > 0)
                has |= CG_LACKS_LINE;
        if (!l.nline) {
            char buf[32];
            if (!r->loc_addr)
                r->loc_addr = cu_calloc(pr->nlocation, sizeof *r->loc_addr);
            snprintf(buf, sizeof buf, "0x%" PRIx64, l.address);
            r->loc_addr[i] = intern(&r->p->names, buf);
        }
    }
    if (!r->callgrind)
        r->p->lacks |= (CG_LACKS_FILE | CG_LACKS_LINE | CG_LACKS_OBJECT) & ~has;
    return 0;
}

/* The j-th line of location li (innermost first); a location without lines
 * is one frame named by its address. */
static frame_t frame_of(const reader_t *r, size_t li, size_t j)
{
    const pf_location_t l = pf_location_at(r->pr, li);
    frame_t f = {r->unknown_file, 0, r->loc_ob[li], 0};
    if (!l.nline) {
        f.fn = r->loc_addr[li];
    } else {
        const pf_line_t *ln = &r->pr->lines[l.line + j];
        f.fl = r->fn_file[ln->function];
        f.fn = r->fn_name[ln->function];
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

/* Self: a sample's values v go to its leaf frame, whose function is
 * record fi (where the tables keep functions), its line in source file
 * line_file (the frame's file but for callgrind's fl= without fn=). */
static int add_self(reader_t *r, frame_t leaf, size_t fi, uint32_t line_file,
                    const uint64_t *v)
{
    cg_profile_t *p = r->p;
    int rc;
    if (r->lines &&
        (rc = add(r, cg_line_record(p, leaf.ob, line_file, leaf.fn,
                                    leaf.line), v)) < 0)
        return rc;
    return r->functions ? add(r, p->fn_self + fi * p->nev, v) : 0;
}

static int read_sample(reader_t *r, size_t si)
{
    const profile_t *pr = r->pr;
    const pf_sample_t *s = &pr->sample[si];
    const uint32_t *li = pr->sample_loc + s->loc;
    cg_profile_t *p = r->p;
    uint64_t v[CG_MAX_EVENTS] = {0};
    int any = 0;
    for (size_t k = 0; k < r->ncol; k++) {
        v[r->col[k]] = (uint64_t)pr->sample_value[s->value + r->type_of[k]];
        any |= v[r->col[k]] != 0;
    }
    for (size_t k = 0; k < s->nloc; k++)
        if (li[k] >= pr->nlocation)
            return cu_fail_named(r->err, r->errlen, r->name, "sample %zu refers to "
                      "unknown location %" PRIu64, si,
                      pr->unknown_location[li[k] - pr->nlocation]);
    if (!any)
        return 0;
    int rc;
    if ((rc = add(r, p->totals, v)) < 0)
        return rc;

    /* Self: the leaf, the innermost line of the first location. */
    frame_t leaf = {r->unknown_file, intern(&p->names, "[unknown]"),
                    r->unknown_ob, 0};
    if (s->nloc)
        leaf = frame_of(r, li[0], 0);
    int functions = r->functions;
    size_t fi = functions ? cg_fn_record(p, leaf.fl, leaf.fn, leaf.ob) : 0;
    if ((rc = add_self(r, leaf, fi, leaf.fl, v)) < 0)
        return rc;

    if (!s->nloc)
        return functions ? add_inclusive(r, leaf, si + 1, v) : 0;
    /* The frames are counted whether or not they are walked, so that a
     * file refused for them is refused by every view. */
    for (size_t k = 0; k < s->nloc && !rc; k++) {
        size_t nl = pr->location[li[k]].nline;
        r->nframes += nl ? nl : 1;
        if (r->nframes > MAX_FRAMES)
            return cu_fail_named(r->err, r->errlen, r->name, "stacks too deep (more "
                      "than %u frames in all)", MAX_FRAMES);
        for (size_t j = 0; j < (nl ? nl : 1) && functions && !rc; j++)
            rc = add_inclusive(r, frame_of(r, li[k], j), si + 1, v);
    }
    return rc;
}

/* The rest of a pprof profile: its comments, then its samples. */
static int add_pprof(reader_t *r)
{
    cg_profile_t *p = r->p;
    const profile_t *pr = r->pr;
    r->unknown_file = intern(&p->names, "???");
    r->unknown_ob = intern(&p->names, "");
    p->nfiles++;
    p->npprof++;

    int rc = read_types(r);
    if (!rc)
        rc = read_tables(r);
    if (!rc && is_risc0(r))
        p->nrisc0++;
    p->by_name = p->nrisc0 == p->nfiles;
    /* cycprof puts the profiled command in the first comment, and its
     * --deterministic mode in a later one. */
    static const char mode_prefix[] = "cycprof deterministic: ";
    static const char zk_prefix[] = "cycprof-zkvm: ";
    for (size_t c = 0; !rc && c < pr->ncomment; c++) {
        if (pr->comment[c] == 0 || pr->comment[c] == PF_BAD_STR)
            continue;
        const char *t = text(r, pr->comment[c]);
        if (c == 0 && !p->cmd)
            p->cmd = cu_strdup(t);
        else if (!p->deterministic &&
                 strncmp(t, mode_prefix, sizeof mode_prefix - 1) == 0)
            p->deterministic = cu_strdup(t + sizeof mode_prefix - 1);
        else if (strncmp(t, zk_prefix, sizeof zk_prefix - 1) == 0) {
            cu_grow(&p->zk_table, &p->zk_table_cap, p->zk_table_lines + 1,
                    sizeof *p->zk_table);
            p->zk_table[p->zk_table_lines++] = cu_strdup(t + sizeof zk_prefix - 1);
        }
    }
    for (size_t si = 0; !rc && si < pr->nsample; si++)
        rc = read_sample(r, si);
    if (!rc)
        p->nparts++;
    return rc;
}

/* values[first..] of a callgrind profile, one per sample type, as the
 * events of p. */
static void callgrind_values(const reader_t *r, const int64_t *values,
                             size_t first, uint64_t *v)
{
    memset(v, 0, sizeof(uint64_t) * CG_MAX_EVENTS);
    for (size_t k = 0; k < r->ncol; k++)
        v[r->col[k]] = pf_count(values, first + r->type_of[k]);
}

/* The parts of a callgrind profile given up (pc_add_taking) that the
 * loops over its functions and locations do not read, once read_tables has
 * their names: freed before them, so that the tables they grow can use
 * their room. */
static void free_before_functions(profile_t *pr)
{
    free(pr->function);
    pr->function = NULL;
}

/* Those that the locations' loop does not read. */
static void free_before_locations(profile_t *pr)
{
    pf_callgrind_t *cg = &pr->callgrind;
    free(cg->calls_out);
    free(cg->calls_in);
    free(cg->called);
    free(cg->function_object);
    cg->calls_out = cg->calls_in = NULL;
    cg->called = NULL;
    cg->function_object = NULL;
}

/* The rest of a callgrind profile: its functions in order, with their
 * objects and calls; its locations; its totals. */
static int add_callgrind(reader_t *r)
{
    cg_profile_t *p = r->p;
    const profile_t *pr = r->pr;
    const pf_callgrind_t *cg = &pr->callgrind;
    uint64_t v[CG_MAX_EVENTS];
    p->nfiles += cg->nfiles;

    int rc = read_types(r);
    if (!rc)
        rc = read_tables(r);
    if (rc)
        return rc;
    if (!p->cmd && cg->cmd)
        p->cmd = cu_strdup(cg->cmd);
    if (!p->creator && cg->creator)
        p->creator = cu_strdup(cg->creator);
    if (!p->deterministic && cg->deterministic)
        p->deterministic = cu_strdup(cg->deterministic);
    for (size_t i = 0; i < cg->zk_table_lines; i++) {
        cu_grow(&p->zk_callgrind, &p->zk_callgrind_cap,
                p->zk_callgrind_lines + 1, sizeof *p->zk_callgrind);
        p->zk_callgrind[p->zk_callgrind_lines++] = (pf_zk_line_t){
            cu_strdup(cg->zk_table[i].text), cg->zk_table[i].file_end};
    }

    free_before_functions(r->pr);
    int functions = r->functions;
    if (functions)
        r->fn_record = cu_calloc(pr->nfunction + 1, sizeof *r->fn_record);
    for (size_t i = 0; functions && !rc && i < pr->nfunction; i++) {
        uint32_t m = cg->function_object[i];
        size_t f = cg_fn_record(p, r->fn_file[i], r->fn_name[i],
                                m == PF_NO_MAPPING ? CG_NONE : r->map_ob[m]);
        r->fn_record[i] = f;
        callgrind_values(r, cg->calls_out, i * pr->nsample_type, v);
        if ((rc = add(r, p->fn_out + f * p->nev, v)) < 0)
            break;
        callgrind_values(r, cg->calls_in, i * pr->nsample_type, v);
        if ((rc = add(r, p->fn_in + f * p->nev, v)) < 0)
            break;
        p->fn_called[f] |= cg->called[i];
    }
    free_before_locations(r->pr);
    for (size_t li = 0; !rc && li < pr->nlocation; li++) {
        frame_t leaf = frame_of(r, li, 0);
        size_t fi = functions ? r->fn_record[pr->lines[li].function] : 0;
        callgrind_values(r, cg->self, li * pr->nsample_type, v);
        rc = add_self(r, leaf, fi,
                      cg->location_file ? str_id(r, cg->location_file[li])
                                        : leaf.fl, v);
    }
    if (!rc) {
        memset(v, 0, sizeof v);
        for (size_t k = 0; k < r->ncol; k++)
            v[r->col[k]] = cg->totals[r->type_of[k]];
        rc = add(r, p->totals, v);
    }
    if (!rc)
        p->nparts += cg->nparts;
    return rc;
}

/* pr is given up to p (pc_add_taking); moved: its strings are p->names. */
static int add_profile(cg_profile_t *p, const char *name, profile_t *pr,
                       int moved, char *err, size_t errlen)
{
    reader_t r;
    memset(&r, 0, sizeof r);
    r.p = p;
    r.name = name;
    r.err = err;
    r.errlen = errlen;
    r.pr = pr;
    r.callgrind = pr->callgrind.nfiles > 0;
    r.moved = moved;
    r.functions = cg_keeps_functions(p);
    r.lines = cg_keeps_lines(p);
    int rc = r.callgrind ? add_callgrind(&r) : add_pprof(&r);
    free(r.fn_name);
    free(r.fn_file);
    free(r.map_ob);
    free(r.loc_ob);
    free(r.loc_addr);
    free(r.stamp);
    free(r.fn_record);
    return rc;
}

int pc_add_taking(cg_profile_t *p, const char *name, profile_t *pr,
                  char *err, size_t errlen)
{
    if (p->names.n || pf_check_tables(pr, err, errlen) < 0)
        return add_profile(p, name, pr, 0, err, errlen);
    /* Nothing in p yet: its names are the profile's strings. */
    intern_free(&p->names);
    p->names = pr->strings;
    intern_init(&pr->strings);
    return add_profile(p, name, pr, 1, err, errlen);
}

int pc_add_pprof(cg_profile_t *p, const char *path, char *err, size_t errlen)
{
    profile_t pr;
    pf_init(&pr);
    int rc = pprof_load_file(&pr, path, err, errlen);
    if (rc == 0)
        rc = pc_add_taking(p, path, &pr, err, errlen);
    pf_free(&pr);
    return rc;
}

int pc_add_pprof_mem(cg_profile_t *p, const char *name,
                     const unsigned char *buf, size_t len, char *err,
                     size_t errlen)
{
    profile_t pr;
    pf_init(&pr);
    int rc = pprof_load_mem(&pr, name, buf, len, err, errlen);
    if (rc == 0)
        rc = pc_add_taking(p, name, &pr, err, errlen);
    pf_free(&pr);
    return rc;
}
