/* See stack_diff.h. Each side is read with the origin of every frame
 * (stack_profile.h); each distinct frame becomes a row that diff_match
 * keys as it keys functions; a stack's identity is then the sequence of
 * its frames' keys, and the two sides are merged by sorting on it. */
#define _POSIX_C_SOURCE 200809L
#include "analyse/stack_diff.h"
#include "model/event_names.h"
#include "util/cmdutil.h"
#include "read/stack_input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct side {
    stack_profile_t sp;
    rank_t rank;         /* one row per frame, for the matching */
    uint32_t *frame_of;  /* per row: its frame id */
    char **func;         /* per frame id: its function name (escaped) */
    uint32_t *key;       /* per frame id: its id in stack_diff.keys */
} side_t;

/* One stack of one side, keyed by its frames' key ids. */
typedef struct entry {
    const uint32_t *keys;
    uint32_t depth;
    int side;
    const sp_stack_t *s;
} entry_t;

static const uint64_t no_cost[1];

/* "FUNCTION SEP FILE SEP OBJECT" into the row's fields (malloc'ed). */
static void split_origin(const char *name, rank_row_t *row)
{
    const char *a = strchr(name, SP_ORIGIN_SEP[0]);
    const char *b = a ? strchr(a + 1, SP_ORIGIN_SEP[0]) : NULL;
    char *fn = a ? cu_strndup(name, (size_t)(a - name)) : cu_strdup(name);
    char *file = b ? cu_strndup(a + 1, (size_t)(b - a - 1)) : cu_strdup("");
    if (!*file) {
        free(file);
        file = cu_strdup("???");
    }
    size_t n = strlen(file) + strlen(fn) + 2;
    row->label = cu_malloc(n);
    snprintf(row->label, n, "%s:%s", file, fn);
    row->name = fn;
    row->file = file;
    row->object = cu_strdup(b ? b + 1 : "");
    row->cost = (uint64_t *)no_cost;
}

static int load_side(side_t *s, const char *cmd, const char *file,
                     const char *event, int optional)
{
    sp_init(&s->sp);
    s->sp.with_origin = 1;
    s->sp.event = event;
    s->sp.event_optional = optional;
    if (si_load(cmd, file, &s->sp) < 0)
        return -1;
    size_t n = s->sp.names.n;
    s->rank.rows = cu_calloc(n + 1, sizeof *s->rank.rows);
    s->rank.nev = 1;
    s->frame_of = cu_calloc(n + 1, sizeof *s->frame_of);
    s->func = cu_calloc(n + 1, sizeof *s->func);
    s->key = cu_calloc(n + 1, sizeof *s->key);
    for (size_t i = 0; i < n; i++) {
        /* The names interned on the way (bare function names) are no
         * frames: they would take ranks among the unnamed code. */
        if (!strchr(s->sp.names.str[i], SP_ORIGIN_SEP[0])) {
            s->func[i] = cu_strdup("");
            continue;
        }
        rank_row_t *row = &s->rank.rows[s->rank.n];
        split_origin(s->sp.names.str[i], row);
        s->frame_of[s->rank.n++] = (uint32_t)i;
        s->func[i] = cu_strdup(row->name);
    }
    cu_escape_strings_for_terminal(s->func, n);
    return 0;
}

static void free_side(side_t *s)
{
    for (size_t i = 0; i < s->rank.n; i++) {
        rank_row_t *r = &s->rank.rows[i];
        free(r->label);
        free((char *)r->name);
        free((char *)r->file);
        free((char *)r->object);
    }
    for (size_t i = 0; s->func && i < s->sp.names.n; i++)
        free(s->func[i]);
    free(s->rank.rows);
    free(s->frame_of);
    free(s->func);
    free(s->key);
    sp_free(&s->sp);
    memset(s, 0, sizeof *s);
}

/* Give every frame of both sides its key id; a key's name is NEW's. */
static void key_frames(stack_diff_t *d, side_t sd[2], dm_rules_t *rules)
{
    char **k[2];
    dm_keys(&sd[0].rank, &sd[1].rank, BY_FUNCTION, rules, &k[0], &k[1]);
    d->name = cu_calloc(sd[0].rank.n + sd[1].rank.n + 1, sizeof *d->name);
    for (int side = 1; side >= 0; side--) {
        for (size_t i = 0; i < sd[side].rank.n; i++) {
            uint32_t id = intern(&d->keys, k[side][i]);
            uint32_t frame = sd[side].frame_of[i];
            sd[side].key[frame] = id;
            if (!d->name[id])
                d->name[id] = cu_strdup(sd[side].func[frame]);
            free(k[side][i]);
        }
        free(k[side]);
    }
}

static int cmp_keys(const void *x, const void *y)
{
    const entry_t *a = x, *b = y;
    for (uint32_t i = 0; i < a->depth && i < b->depth; i++)
        if (a->keys[i] != b->keys[i])
            return a->keys[i] < b->keys[i] ? -1 : 1;
    return a->depth < b->depth ? -1 : a->depth > b->depth;
}

/* "a;b;c" from the names of the frame ids f[0..n). */
static char *folded(char *const *names, const uint32_t *f, size_t n)
{
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(names[f[i]]) + 1;
    char *s = cu_malloc(len), *p = s;
    *p = 0;
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s%s", i ? ";" : "", names[f[i]]);
    return s;
}

/* Every stack of both sides as its key ids (kept in *store). */
static entry_t *entries(side_t sd[2], uint32_t **store, size_t *nent)
{
    size_t n = sd[0].sp.n + sd[1].sp.n, nf = sd[0].sp.nframes + sd[1].sp.nframes;
    entry_t *e = cu_calloc(n + 1, sizeof *e);
    uint32_t *keys = cu_calloc(nf + 1, sizeof *keys);
    size_t j = 0, off = 0;
    for (int side = 0; side < 2; side++) {
        const stack_profile_t *sp = &sd[side].sp;
        for (size_t i = 0; i < sp->n; i++) {
            const sp_stack_t *s = &sp->stacks[i];
            for (uint32_t f = 0; f < s->depth; f++)
                keys[off + f] = sd[side].key[sp->frames[s->off + f]];
            e[j++] = (entry_t){keys + off, s->depth, side, s};
            off += s->depth;
        }
    }
    *store = keys;
    *nent = j;
    return e;
}

/* Sum each run of equal stacks into one sd_stack. -1 on overflow. */
static int merge(stack_diff_t *d, side_t sd[2], entry_t *e, size_t n)
{
    size_t cap = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        cu_grow(&d->stacks, &cap, d->n + 1, sizeof *d->stacks);
        sd_stack_t *t = &d->stacks[d->n++];
        memset(t, 0, sizeof *t);
        t->off = d->nframes;
        t->depth = e[i].depth;
        cu_grow(&d->frames, &d->frames_cap, d->nframes + t->depth,
                sizeof *d->frames);
        memcpy(d->frames + t->off, e[i].keys, t->depth * sizeof *d->frames);
        d->nframes += t->depth;
        for (; j < n && cmp_keys(&e[i], &e[j]) == 0; j++) {
            const side_t *s = &sd[e[j].side];
            if (cu_add_u64(e[j].side ? &t->new : &t->base, e[j].s->count) < 0)
                return -1;
            if (!e[j].side && !t->base_label)
                t->base_label = folded(s->func, s->sp.frames + e[j].s->off,
                                       e[j].s->depth);
        }
        t->label = folded(d->name, d->frames + t->off, t->depth);
        i = j;
    }
    return 0;
}

/* For qsort_r-less C11: the names the comparison reads. */
static const stack_diff_t *sort_d;

static int cmp_names(const void *x, const void *y)
{
    const sd_stack_t *a = x, *b = y;
    for (uint32_t i = 0; i < a->depth && i < b->depth; i++) {
        uint32_t ka = sort_d->frames[a->off + i], kb = sort_d->frames[b->off + i];
        int c = strcmp(sort_d->name[ka], sort_d->name[kb]);
        if (c)
            return c;
        if (ka != kb)
            return ka < kb ? -1 : 1;
    }
    return a->depth < b->depth ? -1 : a->depth > b->depth;
}

/* The sample types of the two sides, compared by type ("instructions"). */
static int same_unit(stack_diff_t *d, const char *cmd, side_t sd[2],
                     char *const files[2])
{
    char *u[2];
    for (int k = 0; k < 2; k++) {
        u[k] = cu_strdup(sd[k].sp.unit ? sd[k].sp.unit : "samples");
        if (strchr(u[k], '/'))
            *strchr(u[k], '/') = 0;
    }
    int same = ev_alias(u[0], u[1]);
    if (!same)
        cu_err(cmd, "%s: the stacks count %s but BASE's count %s", files[1],
               u[1], u[0]);
    d->unit = u[1];
    free(u[0]);
    return same ? 0 : -1;
}

/* The event of a side: its sample type, without the unit; malloc'ed. */
static char *side_event(const side_t *s)
{
    char *t = cu_strdup(s->sp.unit ? s->sp.unit : "samples");
    if (strchr(t, '/'))
        *strchr(t, '/') = 0;
    return t;
}

/* Without --event, each side counts pprof's default, but NEW the event
 * BASE counts when it has it, and failing that BASE NEW's: a cycprof zkVM
 * profile (instructions first) against a RISC Zero guest profile (cycles
 * only) compares zkVM cycles (event_names.h). */
static int load_sides(side_t sd[2], const char *cmd, char *const files[2],
                      const char *event)
{
    if (load_side(&sd[0], cmd, files[0], event, 0) < 0)
        return -1;
    char *base_ev = event ? NULL : side_event(&sd[0]);
    int rc = load_side(&sd[1], cmd, files[1], event ? event : base_ev,
                       !event);
    if (rc == 0 && !event) {
        char *new_ev = side_event(&sd[1]);
        if (!ev_alias(base_ev, new_ev)) {
            free_side(&sd[0]);
            rc = load_side(&sd[0], cmd, files[0], new_ev, 1);
        }
        free(new_ev);
    }
    free(base_ev);
    return rc;
}

int sd_load(stack_diff_t *d, const char *cmd, char *const files[2],
            const char *event, dm_rules_t *rules)
{
    side_t sd[2];
    memset(d, 0, sizeof *d);
    memset(sd, 0, sizeof sd);
    intern_init(&d->keys);
    int rc = -1;
    if (load_sides(sd, cmd, files, event) < 0)
        goto out;
    if (same_unit(d, cmd, sd, files) < 0)
        goto out;
    key_frames(d, sd, rules);
    uint32_t *store;
    size_t n;
    entry_t *e = entries(sd, &store, &n);
    qsort(e, n, sizeof *e, cmp_keys);
    rc = merge(d, sd, e, n);
    free(e);
    free(store);
    if (rc < 0) {
        cu_err(cmd, "the counts of one stack add up to more than 2^64-1");
        goto out;
    }
    sort_d = d;
    qsort(d->stacks, d->n, sizeof *d->stacks, cmp_names);
    for (int k = 0; k < 2; k++) {
        d->total[k] = sd[k].sp.total;
        d->cmds[k] = sd[k].sp.cmd ? cu_strdup(sd[k].sp.cmd) : NULL;
        d->deterministic[k] = sd[k].sp.deterministic
                                  ? cu_strdup(sd[k].sp.deterministic)
                                  : NULL;
    }
    cu_escape_strings_for_terminal(d->cmds, 2);
out:
    for (int k = 0; k < 2; k++)
        free_side(&sd[k]);
    return rc;
}

void sd_free(stack_diff_t *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->stacks[i].label);
        free(d->stacks[i].base_label);
    }
    for (size_t i = 0; i < d->keys.n; i++)
        free(d->name[i]);
    free(d->name);
    intern_free(&d->keys);
    free(d->frames);
    free(d->stacks);
    free(d->unit);
    for (int k = 0; k < 2; k++) {
        free(d->cmds[k]);
        free(d->deterministic[k]);
    }
    memset(d, 0, sizeof *d);
}
