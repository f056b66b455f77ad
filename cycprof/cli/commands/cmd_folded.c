/* `cycprof folded`: the exact stacks as Brendan Gregg's collapsed-stack
 * lines ("root;caller;leaf COUNT"), the input of flamegraph.pl, inferno,
 * speedscope and friends. */
#define _POSIX_C_SOURCE 200809L
#include "commands/commands.h"
#include "util/cmdutil.h"
#include "commands/stack_cmd.h"
#include "read/stack_input.h"

#include <stdio.h>

static const char *const usage =
    "usage: cycprof folded [options] [FILE]\n"
    "\n"
    "Print the exact call stacks as collapsed-stack lines\n"
    "    root;caller;...;leaf COUNT\n"
    "one line per distinct stack (function names, inlined frames expanded,\n"
    "counts summed), sorted by stack. FILE is a pprof file (.pb.gz), a\n"
    "stacks dump (read as 'cycprof pprof' converts it) or a cycprof.out.<pid>\n"
    "whose FILE.pb.gz is next to it (default: the newest cycprof.out.* in the\n"
    "current directory). ';' in a function name is written as ':' so that\n"
    "lines stay parseable.\n"
    "\n"
    "options:\n"
    "  -o, --output=OUT     write to OUT instead of standard output\n"
    "  --event=EV           the sample type to count, e.g. zkvm_cycles (or Zk)\n"
    "                       (default: pprof's, instructions in cycprof's)\n"
    "  -h, --help           show this help\n";

/* Write the stacks of sp to f; returns -1 on a write error. */
static int write_folded(FILE *f, const void *ctx)
{
    const stack_profile_t *sp = ctx;
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
    stack_cmd_t c = {"folded", usage, NULL, NULL, NULL};
    for (int i = 1; i < argc; i++) {
        int r = sc_arg(&c, argc, argv, &i);
        if (r)
            return r > 0 ? 0 : 2;
    }

    stack_profile_t sp;
    sp_init(&sp);
    sp.event = c.event;
    int rc = 1;
    if (si_load("folded", c.file, &sp) == 0) {
        sp_sort_by_name(&sp);
        rc = sc_write(&c, write_folded, &sp) < 0;
    }
    sp_free(&sp);
    return rc;
}
