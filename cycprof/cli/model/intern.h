/* String interning, the command's one interner: each distinct string gets
 * a small dense id, in the order they were first added, so the readers can
 * key costs by integers and merge several files by name, and the pprof
 * writer can number its string table (strtab.h).
 *
 * Strings are copied into blocks the table owns, so callers may pass
 * pointers into buffers they reuse, and str[id] stays where it is for the
 * table's life. Out of memory exits (util/README.md). */
#ifndef CYCPROF_INTERN_H
#define CYCPROF_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "model/hash_index.h"

struct intern_block;

typedef struct intern {
    char **str;       /* id -> string, '\0'-terminated */
    size_t n, cap;
    uint32_t *len;    /* id -> length */
    hash_index_t index;
    struct intern_block *blocks;
} intern_t;

void intern_init(intern_t *t);
void intern_free(intern_t *t);

/* Id of the string s[0..len), adding it if new. */
uint32_t intern_n(intern_t *t, const char *s, size_t len);
uint32_t intern(intern_t *t, const char *s);

/* Names from a profile may hold control characters: on a terminal every
 * string is shown with them as \xNN (cu_escape_strings_for_terminal).
 * For display only, once the table is complete: the ids stay, and a
 * string changed is not found by its old text any more. */
void intern_escape_for_terminal(intern_t *t);

#endif
