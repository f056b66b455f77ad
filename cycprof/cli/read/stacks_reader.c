/* stacks_reader: see stacks_reader.h and docs/internals/stacks-format.md.
 *
 * Ids of each record kind must come in order 1, 2, 3, ...: that is how the
 * tool writes them, and it makes "dense from 1" and "defined before use"
 * checkable with a counter per kind, so maps, functions and locations need no
 * table here at all. Only nodes are stored (16 bytes each), to walk stacks. */
#define _POSIX_C_SOURCE 200809L
#include "read/stacks_reader.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cmdutil.h"
#include "util/line_reader.h"

#define MAX_FIELDS 8

/* Where we are in the fixed record order of the format. */
enum phase { PH_HEADER, PH_MAP, PH_FN, PH_LOC, PH_REGION, PH_NODE,
             PH_SAMPLE, PH_END, PH_DONE };

/* depth: locations on the node's stack (a root 0, its child 1; a graft
 * adds none); anchor: its ancestor at depth SR_KEEP_OUTER (itself when not
 * deeper), where the outer part of a cut stack starts. */
struct node {
    uint32_t parent, loc, depth, anchor;
    uint32_t region;             /* the region set of its nearest root or
                                  * graft */
};

struct region {
    uint64_t parent;
    char *name;
};

struct stacks_reader {
    const char *path;
    FILE *f;
    struct line_reader *lr;
    char err[1024];
    int failed;
    enum phase phase;

    struct sr_header hdr;
    char *cmd;                   /* owned copy of the cmd field */
    char *deterministic;         /* owned copy of the deterministic field */
    char *zk_model;              /* owned copy of the zkvm model name */
    int seen_cmd, seen_pid, seen_duration, seen_total;

    /* A record line read ahead while looking for the end of the header. */
    char *pending;
    size_t pending_len;

    uint64_t nmaps, nfns, nlocs, nsamples;
    int64_t sum;                 /* of sample counts so far */
    int64_t zk_sum;              /* of zk records' cycles so far */

    struct node *nodes;          /* nodes[id - 1] */
    size_t nnodes, nodes_cap;

    struct region *regions;      /* regions[id - 1] */
    size_t nregions, regions_cap;

    size_t zk_table_cap;
    struct sr_line *lines;       /* reused for each loc record */
    size_t lines_cap;
};

static int errorf(struct stacks_reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Records the first error, prefixed with file and current line. */
static int errorf(struct stacks_reader *r, const char *fmt, ...)
{
    if (!r->failed) {
        unsigned long line = r->lr ? lr_lineno(r->lr) : 0;
        /* Line 0: nothing read yet (an empty file): name just the file. */
        int n = line ? snprintf(r->err, sizeof r->err, "%s:%lu: ", r->path, line)
                     : snprintf(r->err, sizeof r->err, "%s: ", r->path);
        if (n < 0 || (size_t)n >= sizeof r->err)
            n = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err + n, sizeof r->err - (size_t)n, fmt, ap);
        va_end(ap);
        r->failed = 1;
    }
    return -1;
}

/* Number parsing: no sign, no spaces, no empty field, no overflow past max. */
static int parse_dec(const char *s, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    const uint64_t lim = max / 10, lim_digit = max % 10;   /* loop-invariant */
    if (*s == '\0')
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > lim || (v == lim && d > lim_digit))
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static int parse_hex(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (*s == '\0')
        return -1;
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (*s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (*s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            return -1;
        if (v >> 60)
            return -1;
        v = v << 4 | d;
    }
    *out = v;
    return 0;
}

/* Field parsers that report "<record> <field>: ..." on failure (just
 * "<record>: ..." when field is NULL). */
static int num(struct stacks_reader *r, const char *rec, const char *field,
               const char *s, uint64_t max, uint64_t *out)
{
    if (parse_dec(s, max, out) == 0)
        return 0;
    size_t digits = strspn(s, "0123456789");
    if (digits > 0 && s[digits] == '\0')
        return errorf(r, "%s%s%s: %.40s is too large (at most %" PRIu64 ")",
                      rec, field ? " " : "", field ? field : "", s, max);
    return errorf(r, "%s%s%s: '%.40s' is not a decimal number", rec,
                  field ? " " : "", field ? field : "", s);
}

static int hexnum(struct stacks_reader *r, const char *rec, const char *field,
                  const char *s, uint64_t *out)
{
    if (parse_hex(s, out) != 0)
        return errorf(r, "%s %s: '%.40s' is not a 64-bit hex number "
                      "(digits only, no 0x)", rec, field, s);
    return 0;
}

/* An id that refers to a record of kind `what` of which `defined` exist.
 * `zero_ok`: whether 0 ("none") is allowed here. */
static int ref(struct stacks_reader *r, const char *rec, const char *field,
               const char *s, const char *what, uint64_t defined, int zero_ok,
               uint64_t *out)
{
    if (num(r, rec, field, s, UINT64_MAX, out) != 0)
        return -1;
    if (*out == 0 && !zero_ok)
        return errorf(r, "%s %s: id 0 is not allowed here", rec, field);
    if (*out > defined)
        return errorf(r, "%s %s: %s %" PRIu64 " is not defined (%" PRIu64
                      " defined so far)", rec, field, what, *out, defined);
    return 0;
}

/* The id field of a defining record: must be the next one in order. */
static int next_id(struct stacks_reader *r, const char *rec, const char *s,
                   uint64_t defined, uint64_t *out)
{
    if (num(r, rec, "id", s, UINT64_MAX, out) != 0)
        return -1;
    if (*out != defined + 1)
        return errorf(r, "%s id %" PRIu64 ": expected %" PRIu64
                      " (ids are dense from 1 and in order)", rec, *out,
                      defined + 1);
    return 0;
}

/* Splits a line at TABs in place. Returns the number of fields (record name
 * included), or MAX_FIELDS + 1 if there are more than MAX_FIELDS. */
static int split(char *line, char **f)
{
    int n = 0;
    for (;;) {
        if (n == MAX_FIELDS)
            return MAX_FIELDS + 1;
        f[n++] = line;
        char *tab = strchr(line, '\t');
        if (!tab)
            return n;
        *tab = '\0';
        line = tab + 1;
    }
}

static int want_fields(struct stacks_reader *r, const char *rec, int have,
                       int want, const char *names)
{
    if (have != want + 1)
        return errorf(r, "'%s' record needs %d TAB-separated field%s (%s), "
                      "found %d", rec, want, want == 1 ? "" : "s", names,
                      have > MAX_FIELDS ? have : have - 1);
    return 0;
}

/* Next raw line, NUL-free; NULL at EOF (r->failed tells errors apart). */
static char *next_line(struct stacks_reader *r, size_t *len)
{
    if (r->pending) {
        char *l = r->pending;
        *len = r->pending_len;
        r->pending = NULL;
        return l;
    }
    int nl;
    char *l = lr_next(r->lr, len, &nl);
    if (!l) {
        int e = lr_error(r->lr);
        if (e)
            errorf(r, "read error: %s", strerror(e));
        return NULL;
    }
    /* Every record ends with '\n': a line without one was cut short, and
     * its last field may be too (a count "12" that was "1234"). */
    if (!nl) {
        errorf(r, "truncated dump: line has no newline");
        return NULL;
    }
    if (memchr(l, '\0', *len)) {
        errorf(r, "NUL byte in line (not a text stacks dump?)");
        return NULL;
    }
    if (*len > 0 && l[*len - 1] == '\r') {
        errorf(r, "line ends with CR LF: a stacks dump has LF line ends "
               "(was it converted to DOS line ends?)");
        return NULL;
    }
    return l;
}

static const char *const phase_names[] = {
    "header", "map", "fn", "loc", "region", "node", "sample", "end", "end"
};

/* Moves to phase `p` for a record of that kind, refusing to go back. */
static int enter(struct stacks_reader *r, enum phase p, const char *rec)
{
    if (p < r->phase)
        return errorf(r, "'%s' record after '%s' records (order is header, "
                      "map, fn, loc, region, node, sample, end)", rec,
                      phase_names[r->phase]);
    r->phase = p;
    return 0;
}

static int header_record(struct stacks_reader *r, char **f, int n)
{
    const char *rec = f[0];
    int *seen;
    if (strcmp(rec, "deterministic") == 0) {
        if (r->deterministic)
            return errorf(r, "second '%s' record", rec);
        if (want_fields(r, rec, n, 1, "mode") != 0)
            return -1;
        r->deterministic = cu_strdup(f[1]);
        r->hdr.deterministic = r->deterministic;
        return 0;
    }
    if (strcmp(rec, "zkvm") == 0) {
        uint64_t total, first;
        if (r->zk_model)
            return errorf(r, "second '%s' record", rec);
        if (want_fields(r, rec, n, 3, "model, total, first zk loc id") != 0 ||
            num(r, rec, "total", f[2], INT64_MAX, &total) != 0 ||
            num(r, rec, "first zk loc id", f[3], UINT32_MAX, &first) != 0)
            return -1;
        if (!f[1][0] || first == 0)
            return errorf(r, "'%s' record: empty model name or loc id 0", rec);
        r->zk_model = cu_strdup(f[1]);
        r->hdr.zk_model = r->zk_model;
        r->hdr.zk_total = (int64_t)total;
        r->hdr.zk_first_loc = first;
        return 0;
    }
    if (strcmp(rec, "zktable") == 0) {
        if (want_fields(r, rec, n, 1, "line") != 0)
            return -1;
        cu_grow(&r->hdr.zk_table, &r->zk_table_cap,
                r->hdr.zk_table_lines + 1, sizeof *r->hdr.zk_table);
        char *line = cu_strdup(f[1]);
        r->hdr.zk_table[r->hdr.zk_table_lines++] = line;
        return 0;
    }
    if (strcmp(rec, "cmd") == 0)
        seen = &r->seen_cmd;
    else if (strcmp(rec, "pid") == 0)
        seen = &r->seen_pid;
    else if (strcmp(rec, "duration_ns") == 0)
        seen = &r->seen_duration;
    else
        seen = &r->seen_total;
    if (*seen)
        return errorf(r, "second '%s' record", rec);
    *seen = 1;
    if (seen == &r->seen_cmd) {
        if (want_fields(r, rec, n, 1, "command line") != 0)
            return -1;
        r->cmd = cu_strdup(f[1]);
        r->hdr.cmd = r->cmd;
        return 0;
    }
    uint64_t v;
    if (want_fields(r, rec, n, 1, rec) != 0 ||
        num(r, rec, NULL, f[1], seen == &r->seen_pid ? UINT64_MAX : INT64_MAX,
            &v) != 0)
        return -1;
    if (seen == &r->seen_pid)
        r->hdr.pid = v;
    else if (seen == &r->seen_duration)
        r->hdr.duration_ns = (int64_t)v;
    else
        r->hdr.total = (int64_t)v;
    return 0;
}

static int is_header_record(const char *rec)
{
    return strcmp(rec, "cmd") == 0 || strcmp(rec, "deterministic") == 0 ||
           strcmp(rec, "zkvm") == 0 || strcmp(rec, "zktable") == 0 ||
           strcmp(rec, "pid") == 0 ||
           strcmp(rec, "duration_ns") == 0 || strcmp(rec, "total") == 0;
}

/* Reads the version line and the header records, leaving the first other
 * record in r->pending. */
static int read_header(struct stacks_reader *r)
{
    size_t len;
    char *l = next_line(r, &len);
    if (!l)
        return r->failed ? -1 : errorf(r, "empty file, not a cycprof stacks dump");
    char *f[MAX_FIELDS];
    int n = split(l, f);
    if (strcmp(f[0], "cycprof-stacks") != 0)
        return errorf(r, "not a cycprof stacks dump (first line must be "
                      "'cycprof-stacks<TAB>1')");
    if (n != 2 || strcmp(f[1], "1") != 0)
        return errorf(r, "unsupported stacks dump version '%.20s' "
                      "(this cycprof reads version 1)", n >= 2 ? f[1] : "");
    for (;;) {
        l = next_line(r, &len);
        if (!l)
            return r->failed ? -1 : errorf(r, "truncated dump: no 'end' record");
        /* Look at the record name without splitting the line yet. */
        size_t namelen = strcspn(l, "\t");
        char save = l[namelen];
        l[namelen] = '\0';
        int hdr = is_header_record(l);
        l[namelen] = save;
        if (!hdr)
            break;
        n = split(l, f);
        if (header_record(r, f, n) != 0)
            return -1;
    }
    r->pending = l;
    r->pending_len = len;
    const char *missing = !r->seen_cmd ? "cmd" : !r->seen_pid ? "pid" :
                          !r->seen_duration ? "duration_ns" :
                          !r->seen_total ? "total" : NULL;
    if (missing) {
        size_t namelen = strcspn(l, "\t");
        return errorf(r, "header has no '%s' record before this '%.*s' "
                      "record", missing, (int)(namelen > 40 ? 40 : namelen), l);
    }
    return 0;
}

struct stacks_reader *sr_open(const char *path)
{
    return sr_open_following(path, -1);
}

struct stacks_reader *sr_open_following(const char *path, int done_fd)
{
    struct stacks_reader *r = cu_calloc(1, sizeof *r);
    r->path = path;
    r->f = fopen(path, "r");
    if (!r->f) {
        snprintf(r->err, sizeof r->err, "%s: %s", path, strerror(errno));
        r->failed = 1;
        return r;
    }
    r->lr = lr_new(r->f);
    if (done_fd >= 0)
        lr_follow(r->lr, done_fd);
    read_header(r);
    return r;
}

static int parse_map(struct stacks_reader *r, char **f, int n,
                     struct sr_record *rec)
{
    if (want_fields(r, "map", n, 5,
                    "id, start, limit, file_offset, path") != 0 ||
        next_id(r, "map", f[1], r->nmaps, &rec->map.id) != 0 ||
        hexnum(r, "map", "start", f[2], &rec->map.start) != 0 ||
        hexnum(r, "map", "limit", f[3], &rec->map.limit) != 0 ||
        hexnum(r, "map", "file_offset", f[4], &rec->map.file_offset) != 0)
        return -1;
    if (rec->map.limit < rec->map.start)
        return errorf(r, "map limit %" PRIx64 " is below start %" PRIx64,
                      rec->map.limit, rec->map.start);
    rec->map.path = f[5];
    r->nmaps++;
    return 0;
}

static int parse_fn(struct stacks_reader *r, char **f, int n,
                    struct sr_record *rec)
{
    uint64_t line;
    if (want_fields(r, "fn", n, 5,
                    "id, start_line, name, system_name, filename") != 0 ||
        next_id(r, "fn", f[1], r->nfns, &rec->fn.id) != 0 ||
        num(r, "fn", "start_line", f[2], INT64_MAX, &line) != 0)
        return -1;
    rec->fn.start_line = (int64_t)line;
    rec->fn.name = f[3];
    rec->fn.system_name = f[4];
    rec->fn.filename = f[5];
    r->nfns++;
    return 0;
}

/* Parses "fnid:line,fnid:line,..." into r->lines. */
static int parse_lines(struct stacks_reader *r, char *s, size_t *count)
{
    size_t n = 0;
    for (;;) {
        char *end = strchr(s, ',');
        if (end)
            *end = '\0';
        char *colon = strchr(s, ':');
        if (!colon)
            return errorf(r, "loc lines: '%.40s' is not 'fnid:line'", s);
        *colon = '\0';
        uint64_t fn, line;
        if (ref(r, "loc", "lines", s, "fn", r->nfns, 0, &fn) != 0 ||
            num(r, "loc", "lines", colon + 1, INT64_MAX, &line) != 0)
            return -1;
        if (n == r->lines_cap) {
            size_t cap = r->lines_cap ? r->lines_cap * 2 : 16;
            r->lines = cu_realloc(r->lines, cap * sizeof *r->lines);
            r->lines_cap = cap;
        }
        r->lines[n].fn = fn;
        r->lines[n].line = (int64_t)line;
        n++;
        if (!end)
            break;
        s = end + 1;
    }
    *count = n;
    return 0;
}

static int parse_loc(struct stacks_reader *r, char **f, int n,
                     struct sr_record *rec)
{
    if (want_fields(r, "loc", n, 4, "id, map id, address, lines") != 0 ||
        next_id(r, "loc", f[1], r->nlocs, &rec->loc.id) != 0 ||
        ref(r, "loc", "map id", f[2], "map", r->nmaps, 1,
            &rec->loc.map_id) != 0 ||
        hexnum(r, "loc", "address", f[3], &rec->loc.address) != 0 ||
        parse_lines(r, f[4], &rec->loc.nlines) != 0)
        return -1;
    rec->loc.lines = r->lines;
    r->nlocs++;
    return 0;
}

/* region ID PARENT NAME: a set of open regions, NAME inside PARENT's. */
static int parse_region(struct stacks_reader *r, char **f, int n)
{
    uint64_t id, parent;
    if (want_fields(r, "region", n, 3, "id, parent id, name") != 0 ||
        next_id(r, "region", f[1], r->nregions, &id) != 0 ||
        ref(r, "region", "parent id", f[2], "region", r->nregions, 1,
            &parent) != 0)
        return -1;
    if (!f[3][0])
        return errorf(r, "region %" PRIu64 ": empty name", id);
    if (id > UINT32_MAX)
        return errorf(r, "region %" PRIu64 ": too many regions", id);
    cu_grow(&r->regions, &r->regions_cap, r->nregions + 1,
            sizeof *r->regions);
    r->regions[r->nregions].parent = parent;
    r->regions[r->nregions].name = cu_strdup(f[3]);
    r->nregions++;
    return 0;
}

static int parse_node(struct stacks_reader *r, char **f, int n,
                      struct sr_record *rec)
{
    uint64_t region = 0;
    /* A root node, or a graft (loc 0), may name its region set in a 4th
     * field. */
    int named_set = n == 5 && (strcmp(f[2], "0") == 0 || strcmp(f[3], "0") == 0);
    if (named_set) {
        if (ref(r, "node", "region id", f[4], "region", r->nregions, 1,
                &region) != 0)
            return -1;
        n = 4;
    }
    if (want_fields(r, "node", n, 3, "id, parent id, callsite loc id") != 0 ||
        next_id(r, "node", f[1], r->nnodes, &rec->node.id) != 0 ||
        ref(r, "node", "parent id", f[2], "node", r->nnodes, 1,
            &rec->node.parent) != 0 ||
        ref(r, "node", "callsite loc id", f[3], "loc", r->nlocs, 1,
            &rec->node.loc) != 0)
        return -1;
    if (rec->node.parent == 0 && rec->node.loc != 0)
        return errorf(r, "node %" PRIu64 ": a root node (parent 0) must have "
                      "loc 0", rec->node.id);
    if (rec->node.parent != 0 && rec->node.loc == 0 && !named_set)
        return errorf(r, "node %" PRIu64 ": a non-root node needs a callsite "
                      "loc, or a region set (a graft)", rec->node.id);
    /* Ids are stored in 32 bits: 4 billion nodes would not fit in memory
     * anyway, neither the tool's nor ours. */
    if (rec->node.id > UINT32_MAX || rec->node.loc > UINT32_MAX)
        return errorf(r, "node %" PRIu64 ": too many nodes or locations",
                      rec->node.id);
    cu_grow(&r->nodes, &r->nodes_cap, r->nnodes + 1, sizeof *r->nodes);
    struct node *nd = &r->nodes[r->nnodes];
    nd->parent = (uint32_t)rec->node.parent;
    nd->loc = (uint32_t)rec->node.loc;
    nd->depth = 0;
    nd->anchor = (uint32_t)rec->node.id;
    nd->region = (uint32_t)region;
    if (nd->parent) {
        const struct node *up = &r->nodes[nd->parent - 1];
        int adds = nd->loc != 0;    /* a graft adds no location */
        nd->depth = up->depth == UINT32_MAX ? up->depth : up->depth + adds;
        if (nd->depth > SR_KEEP_OUTER)
            nd->anchor = up->anchor;
        if (adds)
            nd->region = up->region;
    }
    r->nnodes++;
    return 0;
}

static int parse_sample(struct stacks_reader *r, char **f, int n,
                        struct sr_record *rec)
{
    uint64_t count;
    if (want_fields(r, "sample", n, 4,
                    "node id, leaf loc id, thread id, count") != 0 ||
        ref(r, "sample", "node id", f[1], "node", r->nnodes, 0,
            &rec->sample.node) != 0 ||
        ref(r, "sample", "leaf loc id", f[2], "loc", r->nlocs, 0,
            &rec->sample.loc) != 0 ||
        num(r, "sample", "thread id", f[3], INT64_MAX,
            &rec->sample.thread) != 0 ||
        num(r, "sample", "count", f[4], INT64_MAX, &count) != 0)
        return -1;
    if (r->zk_model && rec->sample.loc >= r->hdr.zk_first_loc)
        return errorf(r, "sample at loc %" PRIu64 ", a zkVM frame's (zk "
                      "records only)", rec->sample.loc);
    if ((int64_t)count > INT64_MAX - r->sum)
        return errorf(r, "sample counts add up to more than 2^63-1");
    r->sum += (int64_t)count;
    rec->sample.count = (int64_t)count;
    rec->sample.region = rec->sample.node
        ? r->nodes[rec->sample.node - 1].region : 0;
    r->nsamples++;
    return 0;
}

/* zk NODE LOC THREAD CYCLES: a zkVM frame's cost under NODE. */
static int parse_zk(struct stacks_reader *r, char **f, int n,
                    struct sr_record *rec)
{
    uint64_t cycles;
    if (!r->zk_model)
        return errorf(r, "'zk' record in a dump without a 'zkvm' record");
    if (want_fields(r, "zk", n, 4,
                    "node id, zk loc id, thread id, cycles") != 0 ||
        ref(r, "zk", "node id", f[1], "node", r->nnodes, 0,
            &rec->sample.node) != 0 ||
        ref(r, "zk", "zk loc id", f[2], "loc", r->nlocs, 0,
            &rec->sample.loc) != 0 ||
        num(r, "zk", "thread id", f[3], INT64_MAX,
            &rec->sample.thread) != 0 ||
        num(r, "zk", "cycles", f[4], INT64_MAX, &cycles) != 0)
        return -1;
    if (rec->sample.loc < r->hdr.zk_first_loc)
        return errorf(r, "zk record at loc %" PRIu64 ", not a zkVM frame's "
                      "(those are %" PRIu64 " and up)", rec->sample.loc,
                      r->hdr.zk_first_loc);
    if ((int64_t)cycles > INT64_MAX - r->zk_sum)
        return errorf(r, "zk cycles add up to more than 2^63-1");
    r->zk_sum += (int64_t)cycles;
    rec->sample.count = (int64_t)cycles;
    rec->sample.zk = 1;
    rec->sample.region = rec->sample.node
        ? r->nodes[rec->sample.node - 1].region : 0;
    return 0;
}

static int parse_end(struct stacks_reader *r, char **f, int n,
                     struct sr_record *rec)
{
    /* A second field: the samples are per function, and there would have
     * been that many at line level. */
    if ((n != 3 && want_fields(r, "end", n, 1,
                               "number of sample records") != 0) ||
        num(r, "end", "count", f[1], UINT64_MAX, &rec->end.nsamples) != 0 ||
        (n == 3 && num(r, "end", "line-level count", f[2], UINT64_MAX,
                       &rec->end.line_samples) != 0))
        return -1;
    if (rec->end.nsamples != r->nsamples)
        return errorf(r, "end says %" PRIu64 " sample records, the dump has "
                      "%" PRIu64, rec->end.nsamples, r->nsamples);
    if (r->sum != r->hdr.total)
        return errorf(r, "sample counts add up to %" PRId64 " but the header "
                      "says total %" PRId64, r->sum, r->hdr.total);
    /* Each instruction is one zkVM cycle too. */
    if (r->zk_model && r->sum > INT64_MAX - r->zk_sum)
        return errorf(r, "zkVM cycles add up to more than 2^63-1");
    if (r->zk_model && r->sum + r->zk_sum != r->hdr.zk_total)
        return errorf(r, "instructions and zk records add up to %" PRId64
                      " zkVM cycles but the zkvm record says %" PRId64,
                      r->sum + r->zk_sum, r->hdr.zk_total);
    size_t len;
    if (next_line(r, &len))
        return errorf(r, "data after the 'end' record");
    if (r->failed)
        return -1;
    return 0;
}

/* One record; 2 for a region record, which is kept here and not
 * returned (consumers ask for regions by id). */
static int next_record(struct stacks_reader *r, struct sr_record *rec)
{
    if (r->failed)
        return -1;
    if (r->phase == PH_DONE)
        return 0;
    size_t len;
    char *l = next_line(r, &len);
    if (!l)
        return r->failed ? -1 : errorf(r, "truncated dump: no 'end' record");
    char *f[MAX_FIELDS];
    int n = split(l, f);
    const char *k = f[0];
    memset(rec, 0, sizeof *rec);
    int rc;
    /* The common cases first: a dump is mostly samples and nodes. */
    if (strcmp(k, "sample") == 0) {
        rec->kind = SR_SAMPLE;
        rc = enter(r, PH_SAMPLE, k) ? -1 : parse_sample(r, f, n, rec);
    } else if (strcmp(k, "node") == 0) {
        rec->kind = SR_NODE;
        rc = enter(r, PH_NODE, k) ? -1 : parse_node(r, f, n, rec);
    } else if (strcmp(k, "region") == 0) {
        return enter(r, PH_REGION, k) != 0 || parse_region(r, f, n) != 0
            ? -1 : 2;
    } else if (strcmp(k, "zk") == 0) {
        rec->kind = SR_SAMPLE;
        rc = enter(r, PH_SAMPLE, k) ? -1 : parse_zk(r, f, n, rec);
    } else if (strcmp(k, "loc") == 0) {
        rec->kind = SR_LOC;
        rc = enter(r, PH_LOC, k) ? -1 : parse_loc(r, f, n, rec);
    } else if (strcmp(k, "fn") == 0) {
        rec->kind = SR_FN;
        rc = enter(r, PH_FN, k) ? -1 : parse_fn(r, f, n, rec);
    } else if (strcmp(k, "map") == 0) {
        rec->kind = SR_MAP;
        rc = enter(r, PH_MAP, k) ? -1 : parse_map(r, f, n, rec);
    } else if (strcmp(k, "end") == 0) {
        rec->kind = SR_END;
        rc = enter(r, PH_END, k) ? -1 : parse_end(r, f, n, rec);
        if (rc == 0)
            r->phase = PH_DONE;
    } else if (is_header_record(k) || strcmp(k, "cycprof-stacks") == 0) {
        rc = errorf(r, "'%s' record after the header", k);
    } else {
        rc = errorf(r, "unknown record '%.40s'", k);
    }
    return rc == 0 ? 1 : -1;
}

int sr_is_dump_start(const void *bytes, size_t n)
{
    return n >= SR_MAGIC_LEN && memcmp(bytes, "cycprof-stacks\t", SR_MAGIC_LEN) == 0;
}

int sr_next(struct stacks_reader *r, struct sr_record *rec)
{
    int rc;
    do
        rc = next_record(r, rec);
    while (rc == 2);
    return rc;
}

const struct sr_header *sr_header(const struct stacks_reader *r)
{
    return &r->hdr;
}

const char *sr_error(const struct stacks_reader *r)
{
    return r->failed ? r->err : NULL;
}

/* Appends the locations of node and its ancestors, at most `count`. */
static size_t walk(const struct stacks_reader *r, uint64_t node,
                   uint64_t *out, size_t count)
{
    size_t n = 0;
    while (n < count && node != 0) {
        const struct node *nd = &r->nodes[node - 1];
        if (nd->parent == 0)     /* a root adds no location */
            break;
        if (nd->loc)             /* nor does a graft */
            out[n++] = nd->loc;
        node = nd->parent;
    }
    return n;
}

size_t sr_stack(const struct stacks_reader *r, uint64_t node,
                uint64_t leaf_loc, uint64_t **buf, size_t *cap)
{
    size_t depth = node ? r->nodes[node - 1].depth : 0;
    size_t need = depth + 1 < SR_MAX_FRAMES ? depth + 1 : SR_MAX_FRAMES;
    if (need > *cap) {
        size_t c = need < 64 ? 64 : need;
        *buf = cu_realloc(*buf, c * sizeof **buf);
        *cap = c;
    }
    uint64_t *out = *buf;
    out[0] = leaf_loc;
    if (depth + 1 <= SR_MAX_FRAMES)
        return 1 + walk(r, node, out + 1, depth);
    /* Too deep: the innermost frames, a 0 for the ones left out, and the
     * outermost SR_KEEP_OUTER, found through the anchor: the cost is the
     * same whatever the depth. */
    size_t inner = SR_MAX_FRAMES - SR_KEEP_OUTER - 1;
    size_t n = 1 + walk(r, node, out + 1, inner - 1);
    out[n++] = 0;
    return n + walk(r, r->nodes[node - 1].anchor, out + n, SR_KEEP_OUTER);
}

size_t sr_region_names(const struct stacks_reader *r, uint64_t region,
                       const char **names, size_t max)
{
    size_t n = 0;
    /* Parents come first, so ids decrease along the walk. */
    for (; region && n < max; region = r->regions[region - 1].parent)
        names[n++] = r->regions[region - 1].name;
    return n;
}

void sr_close(struct stacks_reader *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nregions; i++)
        free(r->regions[i].name);
    free(r->regions);
    lr_free(r->lr);
    if (r->f)
        fclose(r->f);
    free(r->nodes);
    free(r->lines);
    free(r->cmd);
    free(r->deterministic);
    free(r->zk_model);
    for (size_t i = 0; i < r->hdr.zk_table_lines; i++)
        free(r->hdr.zk_table[i]);
    free(r->hdr.zk_table);
    free(r);
}
