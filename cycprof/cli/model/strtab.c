/* strtab: see strtab.h. Open addressing over a power-of-two table of
 * indices; string bytes live in large arena blocks so that a profile with
 * many distinct names costs one allocation per block, not per string. */
#include "model/strtab.h"

#include <stdlib.h>
#include <string.h>

#define ARENA_BLOCK (1u << 20)

struct entry {
    const char *s;
    size_t len;
    uint64_t hash;
};

struct block {
    struct block *next;
    size_t used, size;
    char data[];
};

struct strtab {
    struct entry *ents;          /* by index */
    size_t n, cap;
    uint32_t *slots;             /* hash table: index + 1, 0 = empty */
    size_t nslots;               /* power of two */
    struct block *blocks;
};

static uint64_t hash_bytes(const char *s, size_t len)
{
    /* FNV-1a: short strings dominate, and it needs no alignment care. */
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h;
}

static char *arena_copy(struct strtab *t, const char *s, size_t len)
{
    struct block *b = t->blocks;
    if (!b || b->size - b->used < len + 1) {
        size_t size = len + 1 > ARENA_BLOCK ? len + 1 : ARENA_BLOCK;
        b = malloc(sizeof *b + size);
        if (!b)
            return NULL;
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

static int rehash(struct strtab *t, size_t nslots)
{
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < t->n; i++) {
        size_t j = t->ents[i].hash & (nslots - 1);
        while (slots[j])
            j = (j + 1) & (nslots - 1);
        slots[j] = (uint32_t)(i + 1);
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    return 0;
}

static int64_t strtab_intern_n(struct strtab *t, const char *s, size_t len);

struct strtab *strtab_new(void)
{
    struct strtab *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    if (rehash(t, 1024) != 0 || strtab_intern_n(t, "", 0) != 0) {
        strtab_free(t);
        return NULL;
    }
    return t;
}

void strtab_free(struct strtab *t)
{
    if (!t)
        return;
    while (t->blocks) {
        struct block *next = t->blocks->next;
        free(t->blocks);
        t->blocks = next;
    }
    free(t->ents);
    free(t->slots);
    free(t);
}

/* Index of the string (s, len), adding it if new. -1 on out of memory. */
static int64_t strtab_intern_n(struct strtab *t, const char *s, size_t len)
{
    uint64_t h = hash_bytes(s, len);
    size_t j = h & (t->nslots - 1);
    while (t->slots[j]) {
        const struct entry *e = &t->ents[t->slots[j] - 1];
        if (e->hash == h && e->len == len && memcmp(e->s, s, len) == 0)
            return (int64_t)t->slots[j] - 1;
        j = (j + 1) & (t->nslots - 1);
    }
    if (t->n >= UINT32_MAX - 1)
        return -1;               /* slots store index + 1 in 32 bits */
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        struct entry *e = realloc(t->ents, cap * sizeof *e);
        if (!e)
            return -1;
        t->ents = e;
        t->cap = cap;
    }
    char *copy = arena_copy(t, s, len);
    if (!copy)
        return -1;
    t->ents[t->n] = (struct entry){ copy, len, h };
    t->slots[j] = (uint32_t)(t->n + 1);
    t->n++;
    /* Keep the load factor under 1/2 so probe runs stay short. */
    if (t->n * 2 > t->nslots && rehash(t, t->nslots * 2) != 0)
        return -1;
    return (int64_t)t->n - 1;
}

int64_t strtab_intern(struct strtab *t, const char *s)
{
    return strtab_intern_n(t, s, strlen(s));
}

size_t strtab_count(const struct strtab *t)
{
    return t->n;
}

const char *strtab_get(const struct strtab *t, size_t i, size_t *len)
{
    if (len)
        *len = t->ents[i].len;
    return t->ents[i].s;
}
