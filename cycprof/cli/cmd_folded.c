/* `cycprof folded`: the exact stacks as Brendan Gregg's collapsed-stack
 * lines ("root;caller;leaf COUNT"), the input of flamegraph.pl, inferno,
 * speedscope and friends. */
#define _POSIX_C_SOURCE 200809L
#include "commands.h"
#include "cmdutil.h"
#include "stack_input.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const usage =
    "usage: cycprof folded [options] [FILE]\n"
    "\n"
    "Print the exact call stacks as collapsed-stack lines\n"
    "    root;caller;...;leaf COUNT\n"
    "one line per distinct stack (function names, inlined frames expanded,\n"
    "counts summed), sorted by stack. FILE is a pprof file (.pb.gz) or a\n"
    "cycprof.out.<pid> whose FILE.pb.gz is next to it (default: the newest\n"
    "cycprof.out.* in the current directory). ';' in a function name is\n"
    "written as ':' so that lines stay parseable.\n"
    "\n"
    "options:\n"
    "  -o, --output=OUT     write to OUT instead of standard output\n"
    "  -h, --help           show this help\n";

/* Write the stacks of sp to f; returns -1 on a write error. */
static int write_folded(FILE *f, const stack_profile_t *sp)
{
    for (size_t i = 0; i < sp->n; i++) {
        const sp_stack_t *s = &sp->stacks[i];
        if (!s->count)
            continue;
        for (uint32_t d = 0; d < s->depth; d++) {
            if (d)
                fputc(';', f);
            fputs(sp_frame(sp, s, d), f);
        }
        fprintf(f, " %llu\n", (unsigned long long)s->count);
    }
    return ferror(f) ? -1 : 0;
}

int cmd_folded(int argc, char **argv)
{
    const char *out = NULL, *file = NULL, *v;
    int r;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if ((r = cu_opt_value(argc, argv, &i, "--output", "-o", &v))) {
            if (r < 0) {
                cu_err("folded", "-o needs a file name");
                return 2;
            }
            out = v;
        } else if (a[0] == '-' && a[1]) {
            cu_err("folded", "unknown option '%s' (see cycprof folded --help)",
                   a);
            return 2;
        } else if (file) {
            cu_err("folded", "only one FILE, please");
            return 2;
        } else {
            file = a;
        }
    }

    stack_profile_t sp;
    sp_init(&sp);
    int rc = 1;
    if (si_load("folded", file, &sp) < 0)
        goto done;
    sp_sort_by_name(&sp);
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        cu_err("folded", "%s: %s", out, strerror(errno));
        goto done;
    }
    int bad = write_folded(f, &sp) < 0;
    bad |= out ? fclose(f) != 0 : fflush(f) != 0;
    if (bad) {
        cu_err("folded", "%s: write error", out ? out : "standard output");
        goto done;
    }
    rc = 0;
done:
    sp_free(&sp);
    return rc;
}
