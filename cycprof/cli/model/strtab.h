/* strtab: the pprof string table — interns strings, hands out dense indices.
 *
 * Index 0 is always "" as profile.proto requires. Strings are copied into
 * an arena, so callers may pass pointers into buffers they reuse. */
#ifndef CYCPROF_STRTAB_H
#define CYCPROF_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct strtab;

struct strtab *strtab_new(void);
void strtab_free(struct strtab *t);

/* Index of the string s, adding it if new. -1 on out of memory. */
int64_t strtab_intern(struct strtab *t, const char *s);

size_t strtab_count(const struct strtab *t);

/* The i-th string (i < strtab_count) and its length. */
const char *strtab_get(const struct strtab *t, size_t i, size_t *len);

#endif
