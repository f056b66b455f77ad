/* String interning: each distinct string gets a small dense id, so the
 * readers can key costs by integers and merge several files by name. */
#ifndef CYCPROF_INTERN_H
#define CYCPROF_INTERN_H

#include <stddef.h>
#include <stdint.h>

typedef struct intern {
    char **str;       /* id -> string (owned) */
    size_t n, cap;
    uint32_t *slot;   /* open addressing: id+1, 0 = empty */
    size_t nslot;
} intern_t;

void intern_init(intern_t *t);
void intern_free(intern_t *t);
/* Id of the string s[0..len), adding it if new. */
uint32_t intern_n(intern_t *t, const char *s, size_t len);
uint32_t intern(intern_t *t, const char *s);

#endif
