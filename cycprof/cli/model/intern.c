/* See intern.h. FNV-1a with linear probing: simple and fast enough for the
 * few hundred thousand names a large profile has. */
#include "model/intern.h"
#include "util/cmdutil.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h;
}

void intern_init(intern_t *t)
{
    memset(t, 0, sizeof *t);
}

void intern_free(intern_t *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->str[i]);
    free(t->str);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

static void rehash(intern_t *t)
{
    size_t ns = t->nslot ? t->nslot * 2 : 64;
    uint32_t *slot = cu_calloc(ns, sizeof *slot);
    for (size_t id = 0; id < t->n; id++) {
        size_t i = hash(t->str[id], strlen(t->str[id])) & (ns - 1);
        while (slot[i])
            i = (i + 1) & (ns - 1);
        slot[i] = (uint32_t)id + 1;
    }
    free(t->slot);
    t->slot = slot;
    t->nslot = ns;
}

static size_t lookup(const intern_t *t, const char *s, size_t len)
{
    size_t i = hash(s, len) & (t->nslot - 1);
    while (t->slot[i]) {
        const char *c = t->str[t->slot[i] - 1];
        if (strncmp(c, s, len) == 0 && c[len] == 0)
            break;
        i = (i + 1) & (t->nslot - 1);
    }
    return i;
}

uint32_t intern_n(intern_t *t, const char *s, size_t len)
{
    if ((t->n + 1) * 2 > t->nslot)
        rehash(t);
    size_t i = lookup(t, s, len);
    if (t->slot[i])
        return t->slot[i] - 1;
    cu_grow(&t->str, &t->cap, t->n + 1, sizeof *t->str);
    t->str[t->n] = cu_strndup(s, len);
    t->slot[i] = (uint32_t)++t->n;
    return (uint32_t)(t->n - 1);
}

uint32_t intern(intern_t *t, const char *s)
{
    return intern_n(t, s, strlen(s));
}
