/* The source root of two builds of one program made in different folders:
 * /tmp/a/proj/src/x.c in BASE and /home/ci/b/proj/src/x.c in NEW are one
 * file whose root moved from /tmp/a/ to /home/ci/b/.
 *
 * Only the files whose names are not on both sides count. Each such BASE
 * file is paired with the NEW files of the same base name that share the
 * longest tail of whole path components with it; the tail is the file's
 * path below the root, and what comes before it on each side is a
 * candidate pair of roots. The pair named by the most files wins (a tie:
 * the shorter roots, which cover more); then the next one whose roots lie
 * outside the roots already taken on both sides, and so on, for builds
 * whose files come from several trees that moved (the project's checkout
 * and, say, a toolchain's folder). So files whose names differ below a
 * root (src/x.c and lib/x.c) never match when other files name the root,
 * and no file matches one of another base name. */
#ifndef CYCPROF_SOURCE_ROOT_H
#define CYCPROF_SOURCE_ROOT_H

#include <stddef.h>

typedef struct source_root {
    char *base, *new;   /* the roots, each "" or ending in '/' */
    size_t files;       /* BASE files that it maps onto NEW files */
} source_root_t;

/* From the sorted, distinct file names of each side: the root pairs, most
 * files first, in *out (malloc'ed). Returns how many (0: none). */
size_t sr_find(char *const *base, size_t nb, char *const *new, size_t nn,
               source_root_t **out);

/* FILE (a BASE name) moved to NEW's root of the pair whose BASE root it is
 * under; NULL when it is under none. malloc'ed. */
char *sr_rewrite(const source_root_t *r, size_t n, const char *file);

/* Is NAME one of the sorted, distinct names? */
int sr_has(char *const *names, size_t n, const char *name);

void sr_free(source_root_t *r, size_t n);

#endif
