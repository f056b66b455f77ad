/* See pprof_coarsen.h. */
#define _POSIX_C_SOURCE 200809L
#include "write/pprof_coarsen.h"
#include "read/elf_buildid.h"
#include "write/inline_renamer.h"
#include "util/cmdutil.h"
#include "model/tuplemap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Node ids index an array; the tool numbers them densely from 1. */
#define MAX_NODE_ID (1u << 28)
#define NO_ID UINT32_MAX

/* Samples keyed (node, leaf loc, thread, region) with their counts. A
 * merged sample has the top bit of its region set, so that it stays apart
 * from a sample of the anchor itself (it has the marker frame). */
struct sample_set {
    tuplemap_t keys;
    int64_t *count;
    size_t count_cap;
};

/* How far ahead the loops over samples prefetch hash slots (and merging,
 * twice as far, anchors): the tables are far larger than the cache, and
 * each lookup would otherwise wait for memory one after the other. */
#define AHEAD 16

struct pending_sample {
    uint32_t k[4];
    uint64_t hash;
    int64_t count;
};

struct coarse {
    tuplemap_t chains;     /* (outer chain, fn lo, fn hi) -> inline chain */
    tuplemap_t locs;       /* (map, chain) -> coarse location - 1 */
    uint32_t *loc_of;      /* dump loc id -> coarse location (1-based) */
    size_t loc_cap;
    tuplemap_t nodes;      /* (parent, loc) -> coarse node - 1 */
    uint32_t *parent;      /* coarse node -> parent coarse node (1-based) */
    uint32_t *node_loc;
    uint16_t *depth;
    size_t nodes_cap;
    uint32_t *node_of;     /* dump node id -> coarse node, 0: root */
    size_t node_of_cap;
    struct sample_set samples;
    size_t nnodes, nlocs;  /* coarse ones, kept when the maps are freed */
    struct pending_sample pending[AHEAD];   /* see put_sample */
    size_t npending;
};

/* Room for index i of an array (elements are not zeroed). */
static void room_for(void *arr, size_t *cap, size_t i, size_t elem)
{
    cu_grow(arr, cap, i + 1, elem);
}

int pc_put_definition(struct pprof_writer *w, struct inline_renamer *ren,
                      const struct sr_record *rec)
{
    char build_id[2 * 64 + 1];
    if (rec->kind == SR_MAP)
        ir_map(ren, rec);
    else
        ir_function(ren, rec);
    if (rec->kind == SR_MAP) {
        elf_buildid_hex(rec->map.path, build_id, sizeof build_id);
        return pw_mapping(w, rec->map.id, rec->map.start, rec->map.limit,
                          rec->map.file_offset, rec->map.path, build_id);
    }
    return pw_function(w, rec->fn.id, rec->fn.name, rec->fn.system_name,
                       rec->fn.filename, rec->fn.start_line);
}

/* One location per (object, inline chain of functions), line 0: written
 * when first seen, at the first address the dump gives it. Inlined Rust
 * frames get their qualified functions first (inline_renamer.h), so the
 * chain is keyed by the names the profile shows. */
static int put_location(struct coarse *c, struct pprof_writer *w,
                        struct inline_renamer *ren, const struct sr_record *rec,
                        uint64_t zk_first_loc)
{
    struct pw_line lines[64];
    size_t n = rec->loc.nlines;
    uint32_t chain = 0;
    int added, rc;
    struct pw_line *l = n <= 64 ? lines : cu_malloc(n * sizeof *l);
    for (size_t i = 0; i < n; i++) {
        l[i].function_id = rec->loc.lines[i].fn;
        l[i].line = rec->loc.lines[i].line;
    }
    rc = ir_location(ren, w, rec, l);
    for (size_t i = n; rc == 0 && i-- > 0;) {
        uint64_t fn = l[i].function_id;
        l[i].line = 0;
        chain = 1 + (uint32_t)tuplemap_get(&c->chains, chain, (uint32_t)fn,
                                           (uint32_t)(fn >> 32), 0, &added);
    }
    size_t k = tuplemap_get(&c->locs, (uint32_t)rec->loc.map_id,
                            (uint32_t)(rec->loc.map_id >> 32), chain, 0,
                            &added);
    if (rc == 0 && rec->loc.id >= MAX_NODE_ID)
        rc = -1;
    if (rc == 0) {
        room_for(&c->loc_of, &c->loc_cap, rec->loc.id, sizeof(uint32_t));
        c->loc_of[rec->loc.id] = (uint32_t)k + 1;
        if (added)
            rc = pw_location(w, k + 1, rec->loc.map_id, rec->loc.address, l, n);
        /* A zkVM frame's functions are its own: no other location shares
         * its chain. */
        if (rc == 0 && zk_first_loc && rec->loc.id >= zk_first_loc)
            pw_zk_location(w, k + 1);
    }
    if (l != lines)
        free(l);
    return rc;
}

static void grow_nodes(struct coarse *c, size_t need)
{
    size_t cap = c->nodes_cap, cap2 = cap;
    room_for(&c->node_loc, &cap2, need, sizeof(uint32_t));
    cap2 = cap;
    room_for(&c->depth, &cap2, need, sizeof(uint16_t));
    room_for(&c->parent, &c->nodes_cap, need, sizeof(uint32_t));
}

/* Direct recursion stays in its caller's node, and stacks stop growing
 * past SR_MAX_FRAMES: the frames below keep their leaf, the cost of the
 * rest goes to the deepest kept node. */
static int put_node(struct coarse *c, const struct sr_record *rec)
{
    uint32_t parent = 0, node = 0;
    if (rec->node.id >= MAX_NODE_ID)
        return -1;
    room_for(&c->node_of, &c->node_of_cap, rec->node.id, sizeof(uint32_t));
    if (rec->node.parent != 0 && rec->node.loc == 0) {
        node = c->node_of[rec->node.parent];    /* a graft: its parent's */
    } else if (rec->node.parent != 0) {
        uint32_t loc = c->loc_of[rec->node.loc];
        parent = c->node_of[rec->node.parent];
        if (parent && (c->node_loc[parent] == loc ||
                       c->depth[parent] >= SR_MAX_FRAMES))
            node = parent;
        else {
            int added;
            node = 1 + (uint32_t)tuplemap_get(&c->nodes, parent, loc, 0, 0,
                                              &added);
            if (added) {
                grow_nodes(c, node);
                c->parent[node] = parent;
                c->node_loc[node] = loc;
                c->depth[node] = parent ? c->depth[parent] + 1 : 1;
            }
        }
    }
    c->node_of[rec->node.id] = node;
    return 0;
}

/* Adds a sample's count to its key's. */
static void add_sample(struct coarse *c, const struct pending_sample *p)
{
    int added;
    size_t k = tuplemap_get_hashed(&c->samples.keys, p->hash, p->k[0],
                                   p->k[1], p->k[2], p->k[3], &added);
    room_for(&c->samples.count, &c->samples.count_cap, k, sizeof(int64_t));
    c->samples.count[k] = added ? p->count : c->samples.count[k] + p->count;
}

/* Samples wait in a queue of AHEAD while their hash slots are fetched
 * (the table is far larger than the cache): added in the dump's order. */
static int put_sample(struct coarse *c, const struct sr_record *rec)
{
    if (rec->sample.thread > UINT32_MAX || rec->sample.region > 0x7fffffffu)
        return -1;
    struct pending_sample *p = &c->pending[c->npending % AHEAD];
    if (c->npending >= AHEAD)
        add_sample(c, p);
    p->k[0] = c->node_of[rec->sample.node];
    p->k[1] = c->loc_of[rec->sample.loc];
    p->k[2] = (uint32_t)rec->sample.thread;
    p->k[3] = (uint32_t)rec->sample.region;
    p->hash = tuplemap_hash(p->k[0], p->k[1], p->k[2], p->k[3]);
    p->count = rec->sample.count;
    tuplemap_prefetch(&c->samples.keys, p->hash);
    c->npending++;
    return 0;
}

static void flush_samples(struct coarse *c)
{
    size_t first = c->npending > AHEAD ? c->npending - AHEAD : 0;
    for (size_t i = first; i < c->npending; i++)
        add_sample(c, &c->pending[i % AHEAD]);
    c->npending = 0;
}

/* anchor[n]: n if its inclusive cost reaches t, else its parent's anchor
 * (parents have smaller ids). The root is everyone's last anchor. */
static void find_anchors(const struct coarse *c, const int64_t *incl,
                         int64_t t, uint32_t *anchor)
{
    anchor[0] = 0;
    for (size_t n = 1; n <= c->nnodes; n++)
        anchor[n] = incl[n] >= t ? (uint32_t)n : anchor[c->parent[n]];
}

static void sample_set_free(struct sample_set *s)
{
    tuplemap_free(&s->keys);
    free(s->count);
    memset(s, 0, sizeof *s);
}

struct merged_key {
    uint32_t k[4];
    uint64_t hash;
};

static void merged_key(const uint32_t *key, const uint32_t *anchor,
                       struct merged_key *m)
{
    uint32_t a = anchor[key[0]];
    m->k[0] = a;
    m->k[1] = key[1];
    m->k[2] = key[2];
    m->k[3] = a == key[0] ? key[3] : key[3] | 0x80000000u;
    m->hash = tuplemap_hash(m->k[0], m->k[1], m->k[2], m->k[3]);
}

/* Merges the samples of `in` into their nodes' anchors, into `out`
 * (emptied first; its memory is reused). Between nodes and their anchors
 * every cost is under the threshold, so merging at a higher threshold the
 * samples already merged at a lower one gives what merging the dump's
 * samples would: each step reads only the previous step's (fewer)
 * samples. Keys keep the order in which they first appear in the dump,
 * and counts sum exactly, so the profile does not depend on the steps. */
static void merge_into(const struct sample_set *in, const uint32_t *anchor,
                       struct sample_set *out)
{
    const tuple_t *key = in->keys.key;
    size_t n = in->keys.n;
    struct merged_key ring[AHEAD];
    int added;
    tuplemap_clear(&out->keys);
    /* No table grows during the loop (the prefetches stay good), and the
     * first step's, which gets the most keys, is made once. */
    tuplemap_reserve(&out->keys, n);
    for (size_t k = 0; k < n && k < AHEAD; k++)
        merged_key(key[k].k, anchor, &ring[k]);
    for (size_t k = 0; k < n; k++) {
        if (k + 2 * AHEAD < n)
            __builtin_prefetch(&anchor[key[k + 2 * AHEAD].k[0]]);
        struct merged_key *m = &ring[k % AHEAD];
        size_t i = tuplemap_get_hashed(&out->keys, m->hash, m->k[0], m->k[1],
                                       m->k[2], m->k[3], &added);
        if (added) {
            room_for(&out->count, &out->count_cap, i, sizeof(int64_t));
            out->count[i] = in->count[k];
        } else
            out->count[i] += in->count[k];
        if (k + AHEAD < n) {
            merged_key(key[k + AHEAD].k, anchor, m);
            tuplemap_prefetch(&out->keys, m->hash);
        }
    }
}

static int write_samples(const struct coarse *c, struct pprof_writer *w,
                         const struct stacks_reader *r,
                         const struct sample_set *s, uint64_t marker_loc)
{
    uint64_t stack[SR_MAX_FRAMES + 3];
    /* The labels of the last region set: samples of one node, which come
     * together, share it (a set per transaction: 100,000 names). */
    int64_t strs[PW_MAX_REGION_LABELS];
    size_t nstrs = 0;
    uint32_t last_set = UINT32_MAX;
    int rc = 0;
    for (size_t i = 0; i < s->keys.n && rc == 0; i++) {
        const uint32_t *key = s->keys.key[i].k;
        size_t n = 0;
        stack[n++] = key[1];
        if (key[3] & 0x80000000u)
            stack[n++] = marker_loc;
        for (uint32_t node = key[0]; node; node = c->parent[node])
            stack[n++] = c->node_loc[node];
        if ((key[3] & 0x7fffffffu) != last_set) {
            const char *regions[PW_MAX_REGION_LABELS];
            last_set = key[3] & 0x7fffffffu;
            nstrs = pw_region_strings(w, regions,
                                      sr_region_names(r, last_set, regions,
                                                      PW_MAX_REGION_LABELS),
                                      strs);
        }
        rc = pw_sample_with_regions(w, stack, n, s->count[i], key[2], strs,
                                    nstrs);
    }
    return rc;
}

/* What only reading the dump needs: freed before merging, which needs
 * memory of its own. */
static void free_lookup_tables(struct coarse *c)
{
    c->nnodes = c->nodes.n;
    c->nlocs = c->locs.n;
    tuplemap_free(&c->chains);
    tuplemap_free(&c->locs);
    tuplemap_free(&c->nodes);
    free(c->loc_of);
    free(c->node_of);
    c->loc_of = c->node_of = NULL;
}

/* Merges contexts below a threshold until the samples fit: starting from
 * total / max_samples, doubling. */
static int merge_small(struct coarse *c, struct pprof_writer *w,
                       const struct stacks_reader *r, uint64_t max_samples,
                       uint64_t last_fn, struct pc_result *res)
{
    size_t nn = c->nnodes + 1;
    int64_t *incl = cu_calloc(nn, sizeof *incl);
    uint32_t *anchor = cu_malloc(nn * sizeof *anchor);
    /* Each step reads one set and fills the other. */
    struct sample_set sets[2], *cur = &sets[0], *next = &sets[1];
    int64_t total = 0, t;
    int rc = -1;
    sets[0] = c->samples;
    memset(&sets[1], 0, sizeof sets[1]);
    memset(&c->samples, 0, sizeof c->samples);
    for (size_t k = 0; k < cur->keys.n; k++) {
        incl[cur->keys.key[k].k[0]] += cur->count[k];
        total += cur->count[k];
    }
    for (size_t n = nn - 1; n >= 1; n--)
        incl[c->parent[n]] += incl[n];
    t = total / (int64_t)max_samples;
    if (t < 1)
        t = 1;
    for (;;) {
        find_anchors(c, incl, t, anchor);
        merge_into(cur, anchor, next);
        struct sample_set *done = cur;
        cur = next;
        next = done;
        if (cur->keys.n <= max_samples || t >= total)
            break;
        t *= 2;
    }
    res->merged = 1;
    res->threshold = t;
    res->samples_out = cur->keys.n;
    struct pw_line line = { last_fn + 1, 0 };
    if (pw_function(w, last_fn + 1, "(contexts under the merge threshold)",
                    "(contexts under the merge threshold)", "", 0) != 0 ||
        pw_location(w, c->nlocs + 1, 0, 0, &line, 1) != 0)
        goto out;
    rc = write_samples(c, w, r, cur, c->nlocs + 1);
out:
    sample_set_free(&sets[0]);
    sample_set_free(&sets[1]);
    free(incl);
    free(anchor);
    return rc;
}

static void coarse_free(struct coarse *c)
{
    tuplemap_free(&c->chains);
    tuplemap_free(&c->locs);
    tuplemap_free(&c->nodes);
    sample_set_free(&c->samples);
    free(c->loc_of);
    free(c->parent);
    free(c->node_loc);
    free(c->depth);
    free(c->node_of);
}

int pc_convert(struct stacks_reader *r, struct pprof_writer *w,
               uint64_t max_samples, const char *out_path,
               struct pc_result *res, char *err, size_t errlen)
{
    struct coarse c;
    struct sr_record rec;
    struct inline_renamer *ren = ir_new();
    int rc = 0, wr = 0;
    memset(&c, 0, sizeof c);
    memset(res, 0, sizeof *res);
    tuplemap_init(&c.chains);
    tuplemap_init(&c.locs);
    tuplemap_init(&c.nodes);
    while (wr == 0 && (rc = sr_next(r, &rec)) == 1) {
        switch (rec.kind) {
        case SR_MAP:
        case SR_FN:
            wr = pc_put_definition(w, ren, &rec);
            break;
        case SR_LOC:
            wr = put_location(&c, w, ren, &rec, sr_header(r)->zk_first_loc);
            break;
        case SR_NODE:
            wr = put_node(&c, &rec);
            break;
        case SR_SAMPLE:
            res->samples_in += !rec.sample.zk;
            wr = put_sample(&c, &rec);
            break;
        case SR_END:
            /* Written per function, by a tool that knew the line-level
             * profile too big: same keys, same sums, fewer lines. */
            if (rec.end.line_samples) {
                res->samples_in = rec.end.line_samples;
                res->per_function = 1;
            }
            free_lookup_tables(&c);
            flush_samples(&c);
            if (c.samples.keys.n <= max_samples) {
                res->samples_out = c.samples.keys.n;
                wr = write_samples(&c, w, r, &c.samples, 0);
            } else {
                wr = merge_small(&c, w, r, max_samples,
                                 ir_last_function(ren), res);
            }
            break;
        }
    }
    coarse_free(&c);
    ir_free(ren);
    if (rc < 0) {
        snprintf(err, errlen, "%s", sr_error(r));
        return -1;
    }
    if (wr != 0) {
        /* No writer error: a node, location or thread id past what the
         * coarse tables hold (MAX_NODE_ID, 32 bits). */
        snprintf(err, errlen, "%s: %s", out_path,
                 pw_error(w) ? pw_error(w) : "out of memory while coarsening");
        return -1;
    }
    return 0;
}
