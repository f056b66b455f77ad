/* See pprof_coarsen.h. */
#define _POSIX_C_SOURCE 200809L
#include "pprof_coarsen.h"
#include "elf_buildid.h"
#include "inline_renamer.h"
#include "tuplemap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Node ids index an array; the tool numbers them densely from 1. */
#define MAX_NODE_ID (1u << 28)
#define NO_ID UINT32_MAX

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
    tuplemap_t samples;    /* (node, leaf loc, thread, region) -> sample */
    int64_t *count;
    size_t count_cap;
};

static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need < *cap)
        return 0;
    size_t n = *cap ? *cap : 1024;
    while (n <= need)
        n *= 2;
    void *p = realloc(*arr, n * elem);
    if (!p)
        return -1;
    memset((char *)p + *cap * elem, 0, (n - *cap) * elem);
    *arr = p;
    *cap = n;
    return 0;
}

int pc_put_definition(struct pprof_writer *w, const struct sr_record *rec)
{
    char build_id[2 * 64 + 1];
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
                        struct inline_renamer *ren, const struct sr_record *rec)
{
    struct pw_line lines[64];
    size_t n = rec->loc.nlines;
    uint32_t chain = 0;
    int added, rc;
    struct pw_line *l = n <= 64 ? lines : malloc(n * sizeof *l);
    if (!l)
        return -1;
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
    if (rc == 0 && (rec->loc.id >= MAX_NODE_ID ||
                    grow((void **)&c->loc_of, &c->loc_cap, rec->loc.id,
                         sizeof(uint32_t))))
        rc = -1;
    if (rc == 0) {
        c->loc_of[rec->loc.id] = (uint32_t)k + 1;
        if (added)
            rc = pw_location(w, k + 1, rec->loc.map_id, rec->loc.address, l, n);
    }
    if (l != lines)
        free(l);
    return rc;
}

static int grow_nodes(struct coarse *c, size_t need)
{
    size_t cap = c->nodes_cap, cap2 = cap;
    if (grow((void **)&c->node_loc, &cap2, need, sizeof(uint32_t)))
        return -1;
    cap2 = cap;
    if (grow((void **)&c->depth, &cap2, need, sizeof(uint16_t)))
        return -1;
    return grow((void **)&c->parent, &c->nodes_cap, need, sizeof(uint32_t));
}

/* Direct recursion stays in its caller's node, and stacks stop growing
 * past SR_MAX_FRAMES: the frames below keep their leaf, the cost of the
 * rest goes to the deepest kept node. */
static int put_node(struct coarse *c, const struct sr_record *rec)
{
    uint32_t parent = 0, node = 0;
    if (rec->node.id >= MAX_NODE_ID ||
        grow((void **)&c->node_of, &c->node_of_cap, rec->node.id,
             sizeof(uint32_t)))
        return -1;
    if (rec->node.parent != 0) {
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
                if (grow_nodes(c, node))
                    return -1;
                c->parent[node] = parent;
                c->node_loc[node] = loc;
                c->depth[node] = parent ? c->depth[parent] + 1 : 1;
            }
        }
    }
    c->node_of[rec->node.id] = node;
    return 0;
}

static int put_sample(struct coarse *c, const struct sr_record *rec)
{
    int added;
    if (rec->sample.thread > UINT32_MAX || rec->sample.region > 0x7fffffffu)
        return -1;
    size_t k = tuplemap_get(&c->samples, c->node_of[rec->sample.node],
                            c->loc_of[rec->sample.loc],
                            (uint32_t)rec->sample.thread,
                            (uint32_t)rec->sample.region, &added);
    if (grow((void **)&c->count, &c->count_cap, k, sizeof(int64_t)))
        return -1;
    c->count[k] += rec->sample.count;
    return 0;
}

/* A merged sample's key: its region set with the top bit set, so that
 * it stays apart from a sample of the anchor itself (it has the marker
 * frame). */
static uint32_t merged_region(const uint32_t *key, uint32_t anchor)
{
    return anchor == key[0] ? key[3] : key[3] | 0x80000000u;
}

/* anchor[n]: n if its inclusive cost reaches t, else its parent's anchor
 * (parents have smaller ids). The root is everyone's last anchor. */
static void find_anchors(const struct coarse *c, const int64_t *incl,
                         int64_t t, uint32_t *anchor)
{
    anchor[0] = 0;
    for (size_t n = 1; n <= c->nodes.n; n++)
        anchor[n] = incl[n] >= t ? (uint32_t)n : anchor[c->parent[n]];
}

/* How many samples merging below t leaves. */
static size_t samples_at(const struct coarse *c, const int64_t *incl,
                         int64_t t, uint32_t *anchor)
{
    tuplemap_t m;
    int added;
    tuplemap_init(&m);
    find_anchors(c, incl, t, anchor);
    for (size_t k = 0; k < c->samples.n; k++) {
        const uint32_t *key = c->samples.key[k].k;
        tuplemap_get(&m, anchor[key[0]], key[1], key[2],
                     merged_region(key, anchor[key[0]]), &added);
    }
    size_t n = m.n;
    tuplemap_free(&m);
    return n;
}

static int write_samples(struct coarse *c, struct pprof_writer *w,
                         const struct stacks_reader *r, const uint32_t *anchor,
                         uint64_t marker_loc, uint64_t *written)
{
    uint64_t *stack = malloc((SR_MAX_FRAMES + 3) * sizeof *stack);
    tuplemap_t merged;
    int64_t *sum = NULL;
    size_t sum_cap = 0;
    int added, rc = 0;
    if (!stack)
        return -1;
    tuplemap_init(&merged);
    for (size_t k = 0; k < c->samples.n; k++) {
        const uint32_t *key = c->samples.key[k].k;
        uint32_t a = anchor ? anchor[key[0]] : key[0];
        size_t i = tuplemap_get(&merged, a, key[1], key[2],
                                merged_region(key, a), &added);
        if (grow((void **)&sum, &sum_cap, i, sizeof(int64_t))) {
            rc = -1;
            goto out;
        }
        sum[i] += c->count[k];
    }
    for (size_t i = 0; i < merged.n && rc == 0; i++) {
        const uint32_t *key = merged.key[i].k;
        size_t n = 0;
        const char *regions[64];
        stack[n++] = key[1];
        if (key[3] & 0x80000000u)
            stack[n++] = marker_loc;
        for (uint32_t node = key[0]; node; node = c->parent[node])
            stack[n++] = c->node_loc[node];
        size_t nr = sr_region_names(r, key[3] & 0x7fffffffu, regions, 64);
        rc = pw_sample_in_regions(w, stack, n, sum[i], key[2], regions, nr);
    }
    *written = merged.n;
out:
    tuplemap_free(&merged);
    free(sum);
    free(stack);
    return rc;
}

/* Merges contexts below a threshold until the samples fit: starting from
 * total / max_samples, doubling. */
static int merge_small(struct coarse *c, struct pprof_writer *w,
                       const struct stacks_reader *r, uint64_t max_samples,
                       uint64_t last_fn, struct pc_result *res)
{
    size_t nn = c->nodes.n + 1;
    int64_t *incl = calloc(nn, sizeof *incl);
    uint32_t *anchor = malloc(nn * sizeof *anchor);
    int64_t total = 0, t;
    int rc = -1;
    if (!incl || !anchor)
        goto out;
    for (size_t k = 0; k < c->samples.n; k++) {
        incl[c->samples.key[k].k[0]] += c->count[k];
        total += c->count[k];
    }
    for (size_t n = nn - 1; n >= 1; n--)
        incl[c->parent[n]] += incl[n];
    t = total / (int64_t)max_samples;
    if (t < 1)
        t = 1;
    while (samples_at(c, incl, t, anchor) > max_samples && t < total)
        t *= 2;
    res->merged = 1;
    res->threshold = t;
    struct pw_line line = { last_fn + 1, 0 };
    if (pw_function(w, last_fn + 1, "(contexts under the merge threshold)",
                    "(contexts under the merge threshold)", "", 0) != 0 ||
        pw_location(w, c->locs.n + 1, 0, 0, &line, 1) != 0)
        goto out;
    find_anchors(c, incl, t, anchor);
    rc = write_samples(c, w, r, anchor, c->locs.n + 1, &res->samples_out);
out:
    free(incl);
    free(anchor);
    return rc;
}

static void coarse_free(struct coarse *c)
{
    tuplemap_free(&c->chains);
    tuplemap_free(&c->locs);
    tuplemap_free(&c->nodes);
    tuplemap_free(&c->samples);
    free(c->loc_of);
    free(c->parent);
    free(c->node_loc);
    free(c->depth);
    free(c->node_of);
    free(c->count);
}

int pc_convert(struct stacks_reader *r, struct pprof_writer *w,
               uint64_t max_samples, const char *out_path,
               struct pc_result *res)
{
    struct coarse c;
    struct sr_record rec;
    struct inline_renamer *ren = ir_new();
    int rc = 0, wr = ren ? 0 : -1;
    memset(&c, 0, sizeof c);
    memset(res, 0, sizeof *res);
    tuplemap_init(&c.chains);
    tuplemap_init(&c.locs);
    tuplemap_init(&c.nodes);
    tuplemap_init(&c.samples);
    while (wr == 0 && (rc = sr_next(r, &rec)) == 1) {
        switch (rec.kind) {
        case SR_MAP:
            wr = ir_map(ren, &rec) ? -1 : pc_put_definition(w, &rec);
            break;
        case SR_FN:
            wr = ir_function(ren, &rec) ? -1 : pc_put_definition(w, &rec);
            break;
        case SR_LOC:
            wr = put_location(&c, w, ren, &rec);
            break;
        case SR_NODE:
            wr = put_node(&c, &rec);
            break;
        case SR_SAMPLE:
            res->samples_in++;
            wr = put_sample(&c, &rec);
            break;
        case SR_END:
            if (c.samples.n <= max_samples)
                wr = write_samples(&c, w, r, NULL, 0, &res->samples_out);
            else
                wr = merge_small(&c, w, r, max_samples,
                                 ir_last_function(ren), res);
            break;
        }
    }
    coarse_free(&c);
    ir_free(ren);
    if (rc < 0) {
        fprintf(stderr, "cycprof pprof: %s\n", sr_error(r));
        return -1;
    }
    if (wr != 0) {
        fprintf(stderr, "cycprof pprof: %s: %s\n", out_path,
                pw_error(w) ? pw_error(w) : "out of memory while coarsening");
        return -1;
    }
    return 0;
}
