/* See stack_profile.h. */
#include "model/stack_profile.h"
#include "util/cmdutil.h"

#include <stdlib.h>
#include <string.h>

void sp_init(stack_profile_t *sp)
{
    memset(sp, 0, sizeof *sp);
    intern_init(&sp->names);
}

void sp_free(stack_profile_t *sp)
{
    intern_free(&sp->names);
    free(sp->frames);
    free(sp->stacks);
    hx_free(&sp->index);
    free(sp->unit);
    free(sp->cmd);
    free(sp->deterministic);
    memset(sp, 0, sizeof *sp);
}

static uint64_t hash_frames(const uint32_t *f, size_t n)
{
    uint64_t h = 0x84222325cbf29ce4ull ^ n;
    for (size_t i = 0; i < n; i++) {
        h ^= f[i];
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}

static uint64_t stack_hash(const void *ctx, size_t i)
{
    const stack_profile_t *sp = ctx;
    return hash_frames(sp->frames + sp->stacks[i].off, sp->stacks[i].depth);
}

void sp_add(stack_profile_t *sp, const uint32_t *frames, size_t depth,
            uint64_t count)
{
    hx_reserve(&sp->index, sp->n + 1, 8);
    uint64_t h = hash_frames(frames, depth), e;
    size_t j;
    for (j = hx_home(&sp->index, h); (e = sp->index.slot[j]) != 0;
         j = hx_next(&sp->index, j)) {
        sp_stack_t *s = &sp->stacks[hx_entry(e)];
        if (hx_tag_is(e, h) && s->depth == depth &&
            memcmp(sp->frames + s->off, frames, depth * sizeof *frames) == 0) {
            s->count += count;
            sp->total += count;
            return;
        }
    }
    cu_grow(&sp->frames, &sp->frames_cap, sp->nframes + depth,
            sizeof *sp->frames);
    memcpy(sp->frames + sp->nframes, frames, depth * sizeof *frames);
    cu_grow(&sp->stacks, &sp->cap, sp->n + 1, sizeof *sp->stacks);
    sp->stacks[sp->n] = (sp_stack_t){sp->nframes, (uint32_t)depth, count};
    sp->nframes += depth;
    hx_put(&sp->index, j, h, sp->n++);
    sp->total += count;
}

/* qsort has no context pointer in C11; single-threaded tool. */
static const stack_profile_t *cmp_sp;

static int cmp_name(const void *a, const void *b)
{
    const sp_stack_t *x = a, *y = b;
    for (uint32_t i = 0; i < x->depth && i < y->depth; i++) {
        uint32_t fx = cmp_sp->frames[x->off + i], fy = cmp_sp->frames[y->off + i];
        if (fx != fy) {
            int c = strcmp(cmp_sp->names.str[fx], cmp_sp->names.str[fy]);
            if (c)
                return c;
        }
    }
    return x->depth < y->depth ? -1 : x->depth > y->depth;
}

static int cmp_count(const void *a, const void *b)
{
    const sp_stack_t *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return cmp_name(a, b);
}

static void sort_with(stack_profile_t *sp, int (*cmp)(const void *, const void *))
{
    cmp_sp = sp;
    if (sp->n) /* stacks is NULL when empty, and qsort must not see NULL */
        qsort(sp->stacks, sp->n, sizeof *sp->stacks, cmp);
    /* The index refers to positions; place the stacks again. */
    if (sp->index.nslot)
        hx_rebuild(&sp->index, sp->n, stack_hash, sp);
}

void sp_sort_by_name(stack_profile_t *sp)
{
    sort_with(sp, cmp_name);
}

void sp_sort_by_count(stack_profile_t *sp)
{
    sort_with(sp, cmp_count);
}
