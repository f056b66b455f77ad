/* strtab: see strtab.h. */
#include "model/strtab.h"
#include "model/intern.h"
#include "util/cmdutil.h"

#include <stdlib.h>

struct strtab {
    intern_t strings;
};

struct strtab *strtab_new(void)
{
    struct strtab *t = cu_malloc(sizeof *t);
    intern_init(&t->strings);
    intern_n(&t->strings, "", 0);
    return t;
}

void strtab_free(struct strtab *t)
{
    if (!t)
        return;
    intern_free(&t->strings);
    free(t);
}

int64_t strtab_intern(struct strtab *t, const char *s)
{
    return intern(&t->strings, s);
}

size_t strtab_count(const struct strtab *t)
{
    return t->strings.n;
}

const char *strtab_get(const struct strtab *t, size_t i, size_t *len)
{
    if (len)
        *len = t->strings.len[i];
    return t->strings.str[i];
}
