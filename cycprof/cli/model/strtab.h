/* strtab: the pprof string table, the interner (intern.h) with index 0
 * always "" as profile.proto requires. */
#ifndef CYCPROF_STRTAB_H
#define CYCPROF_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct strtab;

/* Out of memory exits (util/README.md), so these do not fail. */
struct strtab *strtab_new(void);
void strtab_free(struct strtab *t);

/* Index of the string s, adding it if new. */
int64_t strtab_intern(struct strtab *t, const char *s);
size_t strtab_count(const struct strtab *t);
/* The i-th string (i < strtab_count) and its length. */
const char *strtab_get(const struct strtab *t, size_t i, size_t *len);

#endif
