/* See callgrind_reader.h. The parser is line based and strict: anything it
 * does not understand is an error with the file name and line number, never
 * a guess, because a silently misread profile gives wrong exact counts. */
#define _POSIX_C_SOURCE 200809L
#include "read/callgrind_reader.h"
#include "model/cost_tables.h"
#include "model/hash_index.h"
#include "model/tuplemap.h"
#include "read/name_ids.h"
#include "util/cmdutil.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* What the reader keeps between the files it reads into one profile: the
 * indices that merge them by name, and running sums. */
struct cg_reader {
    profile_t *pr;
    /* The model's own records are the keys: (file, name) -> function,
     * (mapping, function, line, file) -> location. */
    hash_index_t fns, locs;
    tuplemap_t maps;         /* (object name) -> mapping */
    /* Per function, nev each: its self cost, summed as it is read (as
     * the model's calls_out and calls_in are), so that a sum past 2^64-1
     * is refused at the line where it happens. */
    uint64_t *fn_self;
    size_t fn_cap, string_cap, mapping_cap, location_cap;
    int no_line_numbers;     /* cg_reader_no_line_numbers */
};

/* Name compression contexts: "(id) name" defines, "(id)" refers back.
 * fl/fi/fe/cfi/cfl/jfi share the file table, fn/cfn/jfn the function table,
 * ob/cob the object table (as in callgrind's writer). */
enum { CTX_FILE, CTX_FN, CTX_OB };   /* name_ids' NAME_IDS_TABLES */

#define INDEX_MIN_BITS 10   /* the functions' and locations' indices */

enum { POS_LINE, POS_INSTR };

typedef struct parser {
    cg_reader_t *r;
    profile_t *pr;
    const char *name;
    unsigned long lineno;
    char *err;
    size_t errlen;

    name_ids_t names;       /* name compression: (ctx, id) -> string */

    int have_events;        /* an events: line was seen in this part */
    int colmap[CG_MAX_EVENTS]; /* column of this part -> sample type */
    size_t ncol;
    int pos_kind[2];
    size_t npos;
    uint64_t prev_pos[2];

    uint32_t ob, fl, fn;    /* current object, file (fl/fi/fe), function */
    uint32_t ob_map;        /* mapping of ob */
    size_t fn_idx;          /* function (fl, fn) or SIZE_MAX */
    uint32_t cfl;           /* file from cfi=/cfl= awaiting a cfn= */
    size_t callee_idx;      /* function of the last cfn=, or SIZE_MAX */
    int pending;            /* 0, or which kind of line must follow */

    int part_has_body;
    size_t zk_lines;        /* of the zkVM segment table, in this file */
    int have_summary, have_totals;
    uint64_t summary[CG_MAX_EVENTS], ptotals[CG_MAX_EVENTS];
    uint64_t part_self[CG_MAX_EVENTS];
} parser_t;

enum { PEND_NONE, PEND_CALL, PEND_JUMP };

static int fail(parser_t *ps, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail(parser_t *ps, const char *fmt, ...)
{
    char msg[CU_ERRLEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (ps->lineno)
        snprintf(ps->err, ps->errlen, "%s:%lu: %s", ps->name, ps->lineno, msg);
    else
        snprintf(ps->err, ps->errlen, "%s: %s", ps->name, msg);
    return -1;
}

static const char *event_name(const profile_t *pr, size_t e)
{
    return pf_str(pr, pr->sample_type[e].type);
}

/* dst[e] += v[e] for each event; sums past 2^64-1 are an error rather
 * than a wrapped number. */
static int add_costs(parser_t *ps, uint64_t *dst, const uint64_t *v,
                     const char *what)
{
    for (size_t e = 0; e < ps->pr->nsample_type; e++)
        if (cu_add_u64(&dst[e], v[e]) != 0)
            return fail(ps, "the %s of %s add up to more than 2^64-1",
                        what, event_name(ps->pr, e));
    return 0;
}

/* ---- small lexing helpers ---- */

static const char *skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Parse an unsigned decimal or 0x-hex number at *s; advances *s. */
static int lex_u64(const char **s, uint64_t *out)
{
    const char *c = *s;
    uint64_t v = 0;
    int base = 10, digits = 0;
    if (c[0] == '0' && (c[1] == 'x' || c[1] == 'X')) {
        base = 16;
        c += 2;
    }
    for (;; c++) {
        unsigned d;
        if (*c >= '0' && *c <= '9')
            d = (unsigned)(*c - '0');
        else if (base == 16 && *c >= 'a' && *c <= 'f')
            d = (unsigned)(*c - 'a' + 10);
        else if (base == 16 && *c >= 'A' && *c <= 'F')
            d = (unsigned)(*c - 'A' + 10);
        else
            break;
        if (v > (UINT64_MAX - d) / (unsigned)base)
            return -1;
        v = v * (unsigned)base + d;
        digits++;
    }
    if (!digits)
        return -1;
    *s = c;
    *out = v;
    return 0;
}

/* ---- the profile's tables ---- */

/* The string s: its index in the table, added if new. */
static uint32_t str_id(cg_reader_t *r, const char *s)
{
    profile_t *pr = r->pr;
    uint32_t id = intern(&pr->strings, s);
    if (id == pr->nstring) {
        cu_grow(&pr->string, &r->string_cap, id + 1, sizeof *pr->string);
        pr->string[pr->nstring++] = id;
    }
    return id;
}

/* The sample types: the event names, each counting. */
static void set_types(cg_reader_t *r, char *const *names, size_t n)
{
    profile_t *pr = r->pr;
    uint32_t unit = str_id(r, "count");
    pr->sample_type = cu_calloc(n, sizeof *pr->sample_type);
    for (size_t i = 0; i < n; i++)
        pr->sample_type[i] = (pf_value_type_t){str_id(r, names[i]), unit};
    pr->nsample_type = n;
    pr->callgrind.totals = cu_calloc(n, sizeof *pr->callgrind.totals);
}

static int type_index(const profile_t *pr, const char *name)
{
    for (size_t i = 0; i < pr->nsample_type; i++)
        if (strcmp(event_name(pr, i), name) == 0)
            return (int)i;
    return -1;
}

/* The mapping of object ob (a string). */
static uint32_t map_record(cg_reader_t *r, uint32_t ob)
{
    profile_t *pr = r->pr;
    int added;
    size_t i = tuplemap_get(&r->maps, ob, 0, 0, 0, &added);
    if (added) {
        cu_grow(&pr->mapping, &r->mapping_cap, i + 1, sizeof *pr->mapping);
        memset(&pr->mapping[i], 0, sizeof pr->mapping[i]);
        pr->mapping[i].id = i + 1;
        pr->mapping[i].filename = ob;
        pr->nmapping = i + 1;
    }
    return (uint32_t)i;
}

/* Where a file's name is kept for location i (profile.h). */
static uint32_t location_file(const profile_t *pr, size_t i)
{
    return pr->callgrind.location_file
               ? pr->callgrind.location_file[i]
               : pr->function[pr->lines[i].function].filename;
}

/* The function (fl, fn), made on first use with object mapping m
 * (PF_NO_MAPPING: unknown yet, set by a later use that knows it). */
static size_t fn_record(cg_reader_t *r, uint32_t fl, uint32_t fn, uint32_t m)
{
    profile_t *pr = r->pr;
    pf_callgrind_t *cg = &pr->callgrind;
    size_t nev = pr->nsample_type, i, n = pr->nfunction;
    uint64_t h = tuplemap_hash(fl, fn, 0, 0), s;
    hx_reserve(&r->fns, n + 1, INDEX_MIN_BITS);
    for (i = hx_home(&r->fns, h); (s = r->fns.slot[i]) != 0;
         i = hx_next(&r->fns, i)) {
        size_t k = hx_entry(s);
        if (hx_tag_is(s, h) && pr->function[k].filename == fl &&
            pr->function[k].name == fn) {
            if (cg->function_object[k] == PF_NO_MAPPING)
                cg->function_object[k] = m;
            return k;
        }
    }
    hx_put(&r->fns, i, h, n);
    if (n + 1 > r->fn_cap) {
        size_t nc = cu_grown_cap(r->fn_cap, n + 1, nev * 24);
        if (!nc)
            cu_oom();
        pr->function = cu_realloc(pr->function, nc * sizeof *pr->function);
        cg->function_object = cu_realloc(cg->function_object,
                                         nc * sizeof *cg->function_object);
        cg->calls_out = cu_realloc(cg->calls_out, nc * nev * 8);
        cg->calls_in = cu_realloc(cg->calls_in, nc * nev * 8);
        cg->called = cu_realloc(cg->called, nc);
        r->fn_self = cu_realloc(r->fn_self, nc * nev * 8);
        r->fn_cap = nc;
    }
    pr->function[n] = (pf_function_t){.name = fn,
                                      .system_name = fn, .filename = fl};
    cg->function_object[n] = m;
    memset(cg->calls_out + n * nev, 0, nev * 8);
    memset(cg->calls_in + n * nev, 0, nev * 8);
    cg->called[n] = 0;
    memset(r->fn_self + n * nev, 0, nev * 8);
    pr->nfunction = n + 1;
    return n;
}

/* The self cost of (mapping m, function f, line in source file fl):
 * location and line of the same index, made on first use. */
static uint64_t *line_record(cg_reader_t *r, uint32_t m, uint32_t f,
                             uint32_t line, uint32_t fl)
{
    profile_t *pr = r->pr;
    pf_callgrind_t *cg = &pr->callgrind;
    size_t nev = pr->nsample_type, i, n = pr->nlocation;
    uint64_t h = tuplemap_hash(m, f, line, fl), s;
    hx_reserve(&r->locs, n + 1, INDEX_MIN_BITS);
    for (i = hx_home(&r->locs, h); (s = r->locs.slot[i]) != 0;
         i = hx_next(&r->locs, i)) {
        size_t k = hx_entry(s);
        if (hx_tag_is(s, h) && cg->location_mapping[k] == m &&
            pr->lines[k].function == f && pr->lines[k].line == line &&
            location_file(pr, k) == fl)
            return (uint64_t *)(cg->self + k * nev);
    }
    hx_put(&r->locs, i, h, n);
    if (n + 1 > r->location_cap) {
        size_t nc = cu_grown_cap(r->location_cap, n + 1, nev * 8);
        if (!nc || nc > UINT32_MAX / (nev + 1))
            cu_oom();   /* the model's indices are 32 bits */
        cg->self = cu_realloc(cg->self, nc * nev * 8);
        cg->location_mapping = cu_realloc(cg->location_mapping,
                                          nc * sizeof *cg->location_mapping);
        pr->lines = cu_realloc(pr->lines, nc * sizeof *pr->lines);
        if (cg->location_file)
            cg->location_file = cu_realloc(cg->location_file,
                                           nc * sizeof *cg->location_file);
        r->location_cap = nc;
    }
    if (!cg->location_file && fl != pr->function[f].filename) {
        /* The first line outside its function's file. */
        cg->location_file =
            cu_malloc(r->location_cap * sizeof *cg->location_file);
        for (size_t k = 0; k < n; k++)
            cg->location_file[k] =
                pr->function[pr->lines[k].function].filename;
    }
    if (cg->location_file)
        cg->location_file[n] = fl;
    memset(cg->self + n * nev, 0, nev * 8);
    cg->location_mapping[n] = m;
    pr->lines[n] = (pf_line_t){.function = f, .line = line};
    pr->nlocation = pr->nlines = n + 1;
    return (uint64_t *)(cg->self + n * nev);
}

cg_reader_t *cg_reader_new(profile_t *pr, char *const *events, size_t nev)
{
    cg_reader_t *r = cu_calloc(1, sizeof *r);
    r->pr = pr;
    tuplemap_init(&r->maps);
    str_id(r, "");
    if (nev)
        set_types(r, events, nev);
    return r;
}

void cg_reader_no_line_numbers(cg_reader_t *r)
{
    r->no_line_numbers = 1;
}

void cg_reader_free(cg_reader_t *r)
{
    if (!r)
        return;
    hx_free(&r->fns);
    hx_free(&r->locs);
    tuplemap_free(&r->maps);
    free(r->fn_self);
    free(r);
}

/* ---- name compression ---- */

/* Resolve "(id) name", "(id)" or "name" in context ctx to a name id. */
static int resolve(parser_t *ps, int ctx, const char *s, uint32_t *out)
{
    s = skip_ws(s);
    if (*s == '(') {
        const char *c = s + 1;
        uint64_t id;
        if (*c >= '0' && *c <= '9' && lex_u64(&c, &id) == 0 && *c == ')' &&
            id <= UINT32_MAX) {
            const char *rest = skip_ws(c + 1);
            if (*rest) {
                *out = str_id(ps->r, rest);
                name_ids_define(&ps->names, ctx, (uint32_t)id, *out);
            } else if (name_ids_find(&ps->names, ctx, (uint32_t)id, out) < 0) {
                static const char *const what[] = {"file", "function",
                                                   "object"};
                return fail(ps, "%s name (%llu) used before it is defined",
                            what[ctx], (unsigned long long)id);
            }
            return 0;
        }
        /* Not a compression prefix, e.g. "(below main)": a literal name. */
    }
    *out = str_id(ps->r, s);
    return 0;
}

/* ---- header lines ---- */

/* Close a part: check its costs against its totals, add them up.
 * callgrind and cycprof end every part with "totals:", the exact sum of the
 * part's cost lines; "summary:" in the header may differ slightly under
 * callgrind's cache simulation, so it is only used to spot a file that was
 * cut before its "totals:" line. */
static int end_part(parser_t *ps)
{
    profile_t *pr = ps->pr;
    if (ps->part_has_body || ps->have_summary || ps->have_totals) {
        for (size_t e = 0; e < pr->nsample_type; e++) {
            if (ps->have_totals && ps->ptotals[e] != ps->part_self[e])
                return fail(ps, "the costs add up to %llu %s but 'totals:' "
                            "says %llu (corrupt file?)",
                            (unsigned long long)ps->part_self[e],
                            event_name(pr, e),
                            (unsigned long long)ps->ptotals[e]);
            if (!ps->have_totals && ps->have_summary &&
                ps->summary[e] != ps->part_self[e])
                return fail(ps, "no 'totals:' line and the costs add up to "
                            "%llu %s, not the %llu of 'summary:' (truncated "
                            "file?)", (unsigned long long)ps->part_self[e],
                            event_name(pr, e),
                            (unsigned long long)ps->summary[e]);
        }
        /* callgrind_annotate's choice: summary:, else totals:, else the
         * sum of the self costs. */
        const uint64_t *t = ps->have_summary  ? ps->summary
                            : ps->have_totals ? ps->ptotals
                                              : ps->part_self;
        if (add_costs(ps, pr->callgrind.totals, t, "totals of the parts") != 0)
            return -1;
        pr->callgrind.nparts++;
    }
    ps->part_has_body = ps->have_summary = ps->have_totals = 0;
    memset(ps->summary, 0, sizeof ps->summary);
    memset(ps->ptotals, 0, sizeof ps->ptotals);
    memset(ps->part_self, 0, sizeof ps->part_self);
    ps->prev_pos[0] = ps->prev_pos[1] = 0;
    return 0;
}

static int parse_events(parser_t *ps, const char *s)
{
    profile_t *pr = ps->pr;
    size_t n = 0;
    char *names[CG_MAX_EVENTS];
    s = skip_ws(s);
    while (*s) {
        const char *b = s;
        while (*s && *s != ' ' && *s != '\t')
            s++;
        if (n == CG_MAX_EVENTS) {
            for (size_t i = 0; i < n; i++)
                free(names[i]);
            return fail(ps, "more than %d events", CG_MAX_EVENTS);
        }
        names[n++] = cu_strndup(b, (size_t)(s - b));
        s = skip_ws(s);
    }
    if (!n)
        return fail(ps, "empty 'events:' line");
    int rc = 0;
    if (!pr->nsample_type) {
        /* The first events: line fixes the profile's sample types. */
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < i; j++)
                if (strcmp(names[i], names[j]) == 0) {
                    rc = fail(ps, "event '%s' listed twice", names[i]);
                    goto out;
                }
        }
        set_types(ps->r, names, n);
        for (size_t i = 0; i < n; i++)
            ps->colmap[i] = (int)i;
    } else {
        /* Later parts or files: map their columns by event name. */
        for (size_t i = 0; i < n && !rc; i++) {
            int e = type_index(pr, names[i]);
            if (e < 0)
                rc = fail(ps, "event '%s' is not among the events of the "
                              "first profile (%s%s)",
                          names[i], event_name(pr, 0),
                          pr->nsample_type > 1 ? " ..." : "");
            for (size_t j = 0; j < i && !rc; j++)
                if (ps->colmap[j] == e)
                    rc = fail(ps, "event '%s' listed twice", names[i]);
            ps->colmap[i] = e;
        }
    }
    ps->ncol = n;
    ps->have_events = 1;
out:
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    return rc;
}

static int parse_positions(parser_t *ps, const char *s)
{
    size_t n = 0;
    s = skip_ws(s);
    while (*s) {
        const char *b = s;
        while (*s && *s != ' ' && *s != '\t')
            s++;
        size_t len = (size_t)(s - b);
        int kind;
        if (len == 4 && strncmp(b, "line", 4) == 0)
            kind = POS_LINE;
        else if ((len == 5 && strncmp(b, "instr", 5) == 0) ||
                 (len == 4 && strncmp(b, "addr", 4) == 0))
            kind = POS_INSTR;
        else
            return fail(ps, "unknown position kind '%.*s' (expected line, "
                            "instr or addr)", (int)len, b);
        if (n == 2)
            return fail(ps, "too many position kinds");
        ps->pos_kind[n++] = kind;
        s = skip_ws(s);
    }
    if (!n)
        return fail(ps, "empty 'positions:' line");
    ps->npos = n;
    return 0;
}

/* Parse a vector of costs in this part's column order into out[profile ev]. */
static int parse_costs(parser_t *ps, const char *s, uint64_t *out)
{
    memset(out, 0, sizeof(uint64_t) * CG_MAX_EVENTS);
    size_t col = 0;
    s = skip_ws(s);
    while (*s) {
        uint64_t v;
        if (col == ps->ncol)
            return fail(ps, "more costs than events (%zu)", ps->ncol);
        if (lex_u64(&s, &v) < 0 || (*s && *s != ' ' && *s != '\t'))
            return fail(ps, "malformed cost number");
        if (cu_add_u64(&out[ps->colmap[col++]], v) != 0)
            return fail(ps, "costs of one event add up to more than 2^64-1");
        s = skip_ws(s);
    }
    return 0;
}

static int header_line(parser_t *ps, const char *key, size_t klen,
                       const char *val)
{
    pf_callgrind_t *cg = &ps->pr->callgrind;
#define IS(k) (klen == sizeof(k) - 1 && strncmp(key, k, klen) == 0)
    if (IS("version")) {
        uint64_t v;
        const char *c = skip_ws(val);
        if (lex_u64(&c, &v) < 0 || v > 1)
            return fail(ps, "unsupported format version '%s'", skip_ws(val));
    } else if (IS("part")) {
        return end_part(ps);
    } else if (IS("events")) {
        if (ps->part_has_body)
            return fail(ps, "'events:' after cost lines of the same part");
        return parse_events(ps, val);
    } else if (IS("positions")) {
        return parse_positions(ps, val);
    } else if (IS("summary") || IS("totals")) {
        uint64_t v[CG_MAX_EVENTS];
        if (!ps->have_events)
            return fail(ps, "'%.*s:' before 'events:'", (int)klen, key);
        if (parse_costs(ps, val, v) < 0)
            return -1;
        if (IS("summary")) {
            memcpy(ps->summary, v, sizeof v);
            ps->have_summary = 1;
        } else {
            memcpy(ps->ptotals, v, sizeof v);
            ps->have_totals = 1;
        }
    } else if (IS("cmd")) {
        if (!cg->cmd)
            cg->cmd = cu_strdup(skip_ws(val));
    } else if (IS("creator")) {
        if (!cg->creator)
            cg->creator = cu_strdup(skip_ws(val));
    } else if (IS("desc")) {
        const char *d = skip_ws(val);
        if (!cg->deterministic && strncmp(d, "Deterministic:", 14) == 0)
            cg->deterministic = cu_strdup(skip_ws(d + 14));
    }
    /* pid:, thread:, other desc:, event: and unknown headers carry nothing
     * we need; the format allows new header keys, so they are not errors. */
    return 0;
#undef IS
}

/* ---- body lines ---- */

/* The line number of a cost line's positions (0: none). */
static uint32_t pos_line(const parser_t *ps, const uint64_t *pos)
{
    uint64_t line = 0;
    for (size_t i = 0; i < ps->npos; i++)
        if (ps->pos_kind[i] == POS_LINE)
            line = pos[i];
    return line > UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)line;
}

static int cost_line(parser_t *ps, const char *s)
{
    size_t nev = ps->pr->nsample_type;
    uint64_t pos[2] = {0, 0};
    uint64_t cost[CG_MAX_EVENTS];

    if (!ps->have_events)
        return fail(ps, "cost line before 'events:'");
    for (size_t i = 0; i < ps->npos; i++) {
        uint64_t v;
        s = skip_ws(s);
        if (*s == '+' || *s == '-') {
            /* Relative to the previous value of the same position kind. */
            int neg = *s == '-';
            s++;
            if (lex_u64(&s, &v) < 0)
                return fail(ps, "malformed relative position");
            pos[i] = neg ? ps->prev_pos[i] - v : ps->prev_pos[i] + v;
        } else if (*s == '*') {
            s++;
            pos[i] = ps->prev_pos[i];
        } else if (lex_u64(&s, &v) == 0) {
            pos[i] = v;
        } else {
            return fail(ps, "malformed position");
        }
        if (*s && *s != ' ' && *s != '\t')
            return fail(ps, "malformed position");
        ps->prev_pos[i] = pos[i];
    }
    if (parse_costs(ps, s, cost) < 0)
        return -1;
    ps->part_has_body = 1;

    int pend = ps->pending;
    ps->pending = PEND_NONE;
    if (pend == PEND_JUMP)
        return 0; /* the source position of a jump carries no cost */
    if (ps->fn == CG_NONE)
        return fail(ps, "cost line before any 'fn='");

    if (pend == PEND_CALL) {
        /* The inclusive cost of a call: the caller's "calls within the
         * function" and the callee's "received". */
        pf_callgrind_t *cg = &ps->pr->callgrind;
        size_t ci = ps->callee_idx;
        uint64_t *out = (uint64_t *)(cg->calls_out + ps->fn_idx * nev);
        uint64_t *in = (uint64_t *)(cg->calls_in + ci * nev);
        if (add_costs(ps, out, cost, "calls from a function") != 0 ||
            add_costs(ps, in, cost, "calls to a function") != 0)
            return -1;
        cg->called[ci] = 1;
        return 0;
    }

    /* Without line numbers a location sums part of its function's costs:
     * a sum past 2^64-1 there is one of the function's too. */
    int no_lines = ps->r->no_line_numbers;
    uint64_t *lc = line_record(ps->r, ps->ob_map, (uint32_t)ps->fn_idx,
                               no_lines ? 0 : pos_line(ps, pos), ps->fl);
    uint64_t *fc = ps->r->fn_self + ps->fn_idx * nev;
    if (add_costs(ps, ps->part_self, cost, "costs") != 0 ||
        add_costs(ps, lc, cost,
                  no_lines ? "costs of a function" : "costs of a line") != 0 ||
        add_costs(ps, fc, cost, "costs of a function") != 0)
        return -1;
    return 0;
}

static int spec_line(parser_t *ps, const char *key, size_t klen,
                     const char *val)
{
    cg_reader_t *r = ps->r;
    uint32_t id;
#define IS(k) (klen == sizeof(k) - 1 && strncmp(key, k, klen) == 0)
    if (ps->pending == PEND_CALL)
        return fail(ps, "'calls=' must be followed by its cost line");
    /* Records are sized by the number of events, so it must be known. */
    if (!ps->pr->nsample_type)
        return fail(ps, "'%.*s=' before 'events:'", (int)klen, key);
    if (IS("ob")) {
        if (resolve(ps, CTX_OB, val, &ps->ob) < 0)
            return -1;
        ps->ob_map = map_record(r, ps->ob);
    } else if (IS("fl") || IS("fi") || IS("fe")) {
        if (resolve(ps, CTX_FILE, val, &ps->fl) < 0)
            return -1;
        /* fi=/fe= switch the file of the current function: like
         * callgrind_annotate, costs then go to "inlinefile:function". */
        if (!IS("fl") && ps->fn != CG_NONE)
            ps->fn_idx = fn_record(r, ps->fl, ps->fn, ps->ob_map);
    } else if (IS("fn")) {
        if (resolve(ps, CTX_FN, val, &ps->fn) < 0)
            return -1;
        if (ps->fl == CG_NONE)
            ps->fl = str_id(r, "???");
        ps->fn_idx = fn_record(r, ps->fl, ps->fn, ps->ob_map);
    } else if (IS("cob")) {
        if (resolve(ps, CTX_OB, val, &id) < 0)
            return -1;
    } else if (IS("cfi") || IS("cfl")) {
        if (resolve(ps, CTX_FILE, val, &ps->cfl) < 0)
            return -1;
    } else if (IS("cfn")) {
        if (resolve(ps, CTX_FN, val, &id) < 0)
            return -1;
        /* A callee without cfi= lives in the caller's current file. */
        uint32_t f = ps->cfl != CG_NONE ? ps->cfl : ps->fl;
        if (f == CG_NONE)
            f = str_id(r, "???");
        ps->callee_idx = fn_record(r, f, id, PF_NO_MAPPING);
        ps->cfl = CG_NONE;
    } else if (IS("calls")) {
        uint64_t n;
        const char *c = skip_ws(val);
        if (lex_u64(&c, &n) < 0)
            return fail(ps, "malformed 'calls=' count");
        if (ps->callee_idx == SIZE_MAX)
            return fail(ps, "'calls=' without a preceding 'cfn='");
        ps->pending = PEND_CALL;   /* the count is checked, not kept */
    } else if (IS("jump") || IS("jcnd")) {
        ps->pending = PEND_JUMP;
    } else if (IS("jfi")) {
        if (resolve(ps, CTX_FILE, val, &id) < 0)
            return -1;
    } else if (IS("jfn")) {
        if (resolve(ps, CTX_FN, val, &id) < 0)
            return -1;
    } else {
        return fail(ps, "unknown specification '%.*s='", (int)klen, key);
    }
    return 0;
#undef IS
}

/* A line of the zkVM segment table, kept as the file has it. */
static void zk_table_line(parser_t *ps, const char *s)
{
    static const char prefix[] = "# cycprof-zkvm\t";
    pf_callgrind_t *cg = &ps->pr->callgrind;
    if (strncmp(s, prefix, sizeof prefix - 1) != 0)
        return;
    size_t n = cg->zk_table_lines;
    cu_grow(&cg->zk_table, &cg->zk_table_cap, n + 1, sizeof *cg->zk_table);
    cg->zk_table[n] = (pf_zk_line_t){cu_strdup(s + sizeof prefix - 1), 0};
    cg->zk_table_lines = n + 1;
    ps->zk_lines++;
}

static int do_line(parser_t *ps, char *s, size_t len)
{
    if (*s == '#')
        zk_table_line(ps, s);
    while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
        s[--len] = 0;
    if (memchr(s, 0, len))
        return fail(ps, "NUL byte in line (not a text profile)");
    const char *t = skip_ws(s);
    if (!*t || *t == '#')
        return 0;
    char c = *s;
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*')
        return cost_line(ps, s);
    /* key=value or key: value */
    const char *k = s;
    while ((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') ||
           (*k >= '0' && *k <= '9') || *k == '_')
        k++;
    size_t klen = (size_t)(k - s);
    if (klen && *k == '=')
        return spec_line(ps, s, klen, k + 1);
    if (klen && *k == ':') {
        if (ps->pending == PEND_CALL)
            return fail(ps, "'calls=' must be followed by its cost line");
        return header_line(ps, s, klen, k + 1);
    }
    /* Quote at most 40 bytes, printable ASCII only: the line may be binary. */
    char snip[41];
    size_t n = 0;
    for (; n < 40 && s[n]; n++)
        snip[n] = (s[n] >= 0x20 && s[n] < 0x7f) ? s[n] : '?';
    snip[n] = 0;
    /* Before any header, it is not a profile at all (a pprof profile,
     * binary, never reaches this reader: profile_kind.c). */
    if (!ps->have_events)
        return fail(ps, "unrecognized line '%s': not a callgrind-format "
                    "file or a pprof profile", snip);
    return fail(ps, "unrecognized line '%s'", snip);
}

int cg_read_stream(cg_reader_t *r, const char *name, FILE *f, char *err,
                   size_t errlen)
{
    parser_t ps;
    memset(&ps, 0, sizeof ps);
    ps.r = r;
    ps.pr = r->pr;
    ps.name = name;
    ps.err = err;
    ps.errlen = errlen;
    name_ids_init(&ps.names);
    ps.npos = 1;
    ps.pos_kind[0] = POS_LINE;
    ps.ob = str_id(r, "");
    ps.ob_map = map_record(r, ps.ob);
    ps.fl = ps.fn = ps.cfl = CG_NONE;
    ps.fn_idx = ps.callee_idx = SIZE_MAX;
    r->pr->callgrind.nfiles++;

    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = 0, any = 0;
    while (rc == 0 && (n = getline(&line, &cap, f)) >= 0) {
        ps.lineno++;
        any = 1;
        rc = do_line(&ps, line, (size_t)n);
    }
    if (rc == 0 && ferror(f))
        rc = fail(&ps, "read error: %s", strerror(errno));
    ps.lineno = 0;
    if (rc == 0 && !any)
        rc = fail(&ps, "empty file (not a callgrind profile)");
    if (rc == 0 && ps.pending == PEND_CALL)
        rc = fail(&ps, "truncated: file ends after 'calls=' without its "
                       "cost line");
    if (rc == 0 && !ps.have_events)
        rc = fail(&ps, "no 'events:' line (not a callgrind profile)");
    if (rc == 0)
        rc = end_part(&ps);
    if (ps.zk_lines)
        r->pr->callgrind.zk_table[r->pr->callgrind.zk_table_lines - 1]
            .file_end = 1;
    free(line);
    name_ids_free(&ps.names);
    return rc;
}

int cg_read_file(cg_reader_t *r, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    int rc = cg_read_stream(r, path, f, err, errlen);
    fclose(f);
    return rc;
}
