/* Perl-style search-and-replace expressions on names, as cg_annotate's
 * and cg_diff's --mod-filename and --mod-funcname take them:
 *
 *   s/REGEX/REPLACEMENT/FLAGS
 *
 * REGEX is a POSIX extended regular expression (regex.h); a '/' inside
 * REGEX or REPLACEMENT is written '\/'. REPLACEMENT may refer to groups
 * with \0..\9 (Python's re.sub, which cg_annotate uses) or $0..$9 (Perl);
 * '\\' is a backslash. FLAGS: 'g' replaces every match instead of the
 * first, 'i' ignores case. */
#ifndef CYCPROF_NAME_SUBST_H
#define CYCPROF_NAME_SUBST_H

#include <regex.h>

typedef struct name_subst {
    const char *expr;   /* as given, for messages and the header */
    regex_t re;
    char *repl;         /* REPLACEMENT with '\/' unescaped */
    int global;         /* 'g' */
} name_subst_t;

/* Parse and compile EXPR. On error writes a one-line reason (at most len
 * bytes) to why and returns -1. */
int ns_parse(const char *expr, name_subst_t *s, char *why, size_t len);

/* NAME with the substitution applied; malloc'ed. */
char *ns_apply(const name_subst_t *s, const char *name);

void ns_free(name_subst_t *s);

#endif
