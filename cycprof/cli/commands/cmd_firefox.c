/* `cycprof firefox`: the exact stacks of a pprof profile as a Firefox
 * Profiler profile (processed format, firefox_profile.h), for
 * profiler.firefox.com and `samply load`. */
#define _POSIX_C_SOURCE 200809L
#include "commands/commands.h"
#include "util/cmdutil.h"
#include "read/firefox_profile.h"
#include "write/gzip_stream.h"
#include "commands/stack_cmd.h"
#include "read/stack_input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Without -o, a terminal gets this file instead of half a megabyte of
 * JSON, as flamegraph does. */
#define TTY_DEFAULT_OUT "firefox.json"

static const char *const usage =
    "usage: cycprof firefox [options] [FILE]\n"
    "\n"
    "Write the exact call stacks as a Firefox Profiler profile (its processed\n"
    "JSON format, preprocessedProfileVersion 66), to open with\n"
    "`samply load OUT` or at https://profiler.firefox.com (Load a profile\n"
    "from file). Every distinct stack of a thread is one sample whose weight\n"
    "is its exact instruction count; each thread of the run is a thread;\n"
    "inlined functions are frames with an inline depth; file and line are in\n"
    "the frame and function tables; the innermost named region of a sample\n"
    "is its category. FILE is a pprof file (.pb.gz), a stacks dump (read as\n"
    "'cycprof pprof' converts it) or a cycprof.out.<pid> whose FILE.pb.gz is\n"
    "next to it (default: the newest cycprof.out.* in the current\n"
    "directory).\n"
    "\n"
    "options:\n"
    "  -o, --output=OUT     write to OUT (gzip-compressed when OUT ends in\n"
    "                       .gz) instead of standard output; when that is\n"
    "                       a terminal, to " TTY_DEFAULT_OUT ", and the command\n"
    "                       says so\n"
    "  --inlines=yes|no     no: charge inlined code to the function that\n"
    "                       holds it, as the callgrind file and cycprof report\n"
    "                       do (default yes: inlined calls are frames)\n"
    "  --event=EV           the sample type to weigh samples by, e.g.\n"
    "                       zkvm_cycles (or Zk) with --zk-model (default:\n"
    "                       pprof's, instructions in cycprof's)\n"
    "  -h, --help           show this help\n";

/* The JSON, gzip-compressed when OUT ends in .gz. */
typedef struct ff_out {
    const ff_profile_t *p;
    int gzip;
} ff_out_t;

static int write_firefox(FILE *f, const void *ctx)
{
    const ff_out_t *o = ctx;
    if (!o->gzip)
        return ff_write_json(o->p, f);
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        cu_oom();
    int rc = ff_write_json(o->p, mem);
    if (fclose(mem) != 0)
        rc = -1;
    if (rc == 0) {
        struct gzip_stream *z = gzs_open(f, 6);
        if (gzs_write(z, buf, len) < 0 || gzs_finish(z) < 0)
            rc = -1;
        gzs_free(z);
    }
    free(buf);
    return rc;
}

int cmd_firefox(int argc, char **argv)
{
    stack_cmd_t c = {"firefox", usage, NULL, NULL, NULL};
    int inlines = 1;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--inlines", 9) == 0) {
            if (strcmp(argv[i], "--inlines=yes") == 0) {
                inlines = 1;
                continue;
            }
            if (strcmp(argv[i], "--inlines=no") == 0) {
                inlines = 0;
                continue;
            }
            cu_err("firefox", "--inlines takes yes or no, got '%s'", argv[i]);
            return 2;
        }
        int r = sc_arg(&c, argc, argv, &i);
        if (r)
            return r > 0 ? 0 : 2;
    }
    int to_tty_default = !c.out && isatty(STDOUT_FILENO);
    if (to_tty_default)
        c.out = TTY_DEFAULT_OUT;
    char *pf = si_pprof_path("firefox", c.file);
    if (!pf)
        return 1;
    ff_profile_t p;
    ff_init(&p);
    p.no_inlines = !inlines;
    p.event = c.event;
    char err[CU_ERRLEN];
    int rc = 1;
    if (ff_from_pprof(&p, pf, err, sizeof err) < 0) {
        cu_err("firefox", "%s", err);
    } else {
        ff_out_t o = {&p, c.out && cu_ends_with(c.out, ".gz")};
        rc = sc_write(&c, write_firefox, &o) < 0;
        if (!rc && to_tty_default)
            fprintf(stderr, "cycprof firefox: wrote %s (standard output is a "
                    "terminal; -o OUT.json picks the name): open it with "
                    "`samply load %s` or at https://profiler.firefox.com "
                    "(Load a profile from file)\n", c.out, c.out);
    }
    ff_free(&p);
    free(pf);
    return rc;
}
