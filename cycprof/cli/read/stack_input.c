/* See stack_input.h. */
#define _POSIX_C_SOURCE 200809L
#include "read/stack_input.h"
#include "util/cmdutil.h"
#include "read/pprof_stacks.h"
#include "read/profile_kind.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *si_pprof_path(const char *cmd, const char *file)
{
    char *def = NULL, *pf = NULL;
    if (!file) {
        file = def = cu_newest_profile();
        if (!file) {
            cu_err(cmd, "no cycprof.out.* file in the current directory "
                   "(give a FILE)");
            return NULL;
        }
    }
    struct stat st;
    if (stat(file, &st) != 0) {
        cu_err(cmd, "%s: %s", file, strerror(errno));
        goto out;
    }
    if (S_ISDIR(st.st_mode)) {
        cu_err(cmd, "%s: is a directory, not a profile", file);
        goto out;
    }
    char err[CU_ERRLEN];
    int kind = pk_kind(file, err, sizeof err);
    if (kind < 0) {
        cu_err(cmd, "%s", err);
    } else if (kind == PK_PPROF) {
        pf = cu_strdup(file);
    } else {
        size_t n = strlen(file) + 7;
        pf = cu_malloc(n);
        snprintf(pf, n, "%s.pb.gz", file);
        if (access(pf, F_OK) != 0) {
            /* Say why, not just "no such file": plain callgrind files
             * have no exact stacks at all. */
            cu_err(cmd, "%s: exact stacks need the pprof file %s, which does "
                   "not exist (callgrind files have no stacks)", file, pf);
            free(pf);
            pf = NULL;
        }
    }
out:
    free(def);
    return pf;
}

int si_load(const char *cmd, const char *file, stack_profile_t *sp)
{
    char err[CU_ERRLEN];
    char *pf = si_pprof_path(cmd, file);
    if (!pf)
        return -1;
    if (pprof_stacks_read(sp, pf, err, sizeof err) < 0) {
        cu_err(cmd, "%s", err);
        free(pf);
        return -1;
    }
    free(pf);
    /* Names with their origin are split, then escaped, by their reader. */
    if (!sp->with_origin)
        intern_escape_for_terminal(&sp->names);
    cu_escape_strings_for_terminal(&sp->cmd, 1);
    cu_escape_strings_for_terminal(&sp->unit, 1);
    return 0;
}
