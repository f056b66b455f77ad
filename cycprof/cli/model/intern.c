/* See intern.h. The bytes live in blocks of 1 MiB: a profile's hundreds of
 * thousands of names cost a few allocations, and malloc maps a block that
 * large on its own, so a table of ten region names touches one page of it.
 * No hash is kept per string: lengths and bytes decide, and a growing
 * table hashes the strings again (cheaper than 8 bytes a string). */
#include "model/intern.h"
#include "util/cmdutil.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE (1u << 20)

struct intern_block {
    struct intern_block *next;
    size_t used, size;
    char data[];
};

void intern_init(intern_t *t)
{
    memset(t, 0, sizeof *t);
}

void intern_free(intern_t *t)
{
    while (t->blocks) {
        struct intern_block *next = t->blocks->next;
        free(t->blocks);
        t->blocks = next;
    }
    free(t->str);
    free(t->len);
    hx_free(&t->index);
    memset(t, 0, sizeof *t);
}

static char *copy(intern_t *t, const char *s, size_t len)
{
    struct intern_block *b = t->blocks;
    if (!b || b->size - b->used < len + 1) {
        size_t size = len + 1 > BLOCK_SIZE ? len + 1 : BLOCK_SIZE;
        b = cu_malloc(sizeof *b + size);
        b->used = 0;
        b->size = size;
        b->next = t->blocks;
        t->blocks = b;
    }
    char *p = b->data + b->used;
    memcpy(p, s, len);
    p[len] = '\0';
    b->used += len + 1;
    return p;
}

uint32_t intern_n(intern_t *t, const char *s, size_t len)
{
    if (t->n >= UINT32_MAX - 1 || len > UINT32_MAX)
        cu_oom();               /* ids and lengths are 32 bits */
    hx_reserve(&t->index, t->n + 1, 6);
    uint64_t h = hx_hash_bytes(s, len);
    size_t i;
    uint64_t e;
    for (i = hx_home(&t->index, h); (e = t->index.slot[i]) != 0;
         i = hx_next(&t->index, i)) {
        size_t id = hx_entry(e);
        if (hx_tag_is(e, h) && t->len[id] == len && memcmp(t->str[id], s, len) == 0)
            return (uint32_t)id;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap;
        cu_grow(&t->str, &cap, t->n + 1, sizeof *t->str);
        t->len = cu_realloc(t->len, cap * sizeof *t->len);
        t->cap = cap;
    }
    t->str[t->n] = copy(t, s, len);
    t->len[t->n] = (uint32_t)len;
    hx_put(&t->index, i, h, t->n);
    return (uint32_t)t->n++;
}

uint32_t intern(intern_t *t, const char *s)
{
    return intern_n(t, s, strlen(s));
}

void intern_escape_for_terminal(intern_t *t)
{
    if (!cu_escaping_for_terminal())
        return;
    for (size_t id = 0; id < t->n; id++) {
        char *e = cu_escaped_for_terminal(t->str[id]);
        if (!e)
            continue;
        size_t len = strlen(e);
        t->str[id] = copy(t, e, len);
        t->len[id] = (uint32_t)len;
        free(e);
    }
}
