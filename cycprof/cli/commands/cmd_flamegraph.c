/* `cycprof flamegraph`: the exact stacks as an interactive SVG flame graph
 * that any browser opens offline. */
#define _POSIX_C_SOURCE 200809L
#include "commands.h"
#include "cmdutil.h"
#include "flamegraph_svg.h"
#include "stack_cmd.h"
#include "stack_input.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Without -o, a terminal gets this file instead of raw SVG. */
#define TTY_DEFAULT_OUT "flamegraph.svg"

static const char *const usage =
    "usage: cycprof flamegraph [options] [FILE] -o OUT.svg\n"
    "\n"
    "Draw the exact call stacks as a self-contained interactive SVG flame\n"
    "graph: hover a frame for its count and share, click to zoom, Search\n"
    "(or Ctrl-F) to highlight functions by regular expression. FILE is a\n"
    "pprof file (.pb.gz) or a cycprof.out.<pid> whose FILE.pb.gz is next\n"
    "to it (default: the newest cycprof.out.* in the current directory).\n"
    "\n"
    "options:\n"
    "  -o, --output=OUT     write the SVG to OUT (default: standard output;\n"
    "                       when that is a terminal, " TTY_DEFAULT_OUT ",\n"
    "                       and the command says so)\n"
    "  --title=TEXT         heading (default: \"Flame Graph\")\n"
    "  --width=PX           image width in pixels (default 1200)\n"
    "  --minwidth=PX        leave out frames narrower than PX (default 0.1)\n"
    "  -h, --help           show this help\n";

typedef struct svg_job {
    const stack_profile_t *sp;
    const fg_opts_t *o;
} svg_job_t;

static int write_svg(FILE *f, const void *ctx)
{
    const svg_job_t *j = ctx;
    return fg_write_svg(f, j->sp, j->o);
}

int cmd_flamegraph(int argc, char **argv)
{
    stack_cmd_t c = {"flamegraph", usage, NULL, NULL};
    const char *v;
    fg_opts_t o = {NULL, NULL, NULL, 1200, 0.1};
    uint64_t width;
    int r;
    for (int i = 1; i < argc; i++) {
        if ((r = cu_opt_value(argc, argv, &i, "--title", NULL, &v))) {
            if (r < 0) {
                cu_err("flamegraph", "--title needs a text");
                return 2;
            }
            o.title = v;
        } else if ((r = cu_opt_value(argc, argv, &i, "--width", NULL, &v))) {
            if (r < 0 || cu_parse_u64(v, &width) < 0 || width < 100 ||
                width > 100000) {
                cu_opt_err("flamegraph", "--width", NULL, "a number of pixels "
                           "(100-100000)", r, v);
                return 2;
            }
            o.width = (int)width;
        } else if ((r = cu_opt_value(argc, argv, &i, "--minwidth", NULL, &v))) {
            if (r < 0 || cu_parse_pct(v, &o.minwidth) < 0 || strchr(v, '%')) {
                cu_opt_err("flamegraph", "--minwidth", NULL, "a number of pixels",
                           r, v);
                return 2;
            }
        } else if ((r = sc_arg(&c, argc, argv, &i))) {
            return r > 0 ? 0 : 2;
        }
    }

    int to_tty_default = !c.out && isatty(STDOUT_FILENO);
    if (to_tty_default)
        c.out = TTY_DEFAULT_OUT;

    stack_profile_t sp;
    sp_init(&sp);
    int rc = 1;
    char unit[128];
    if (si_load("flamegraph", c.file, &sp) == 0) {
        sp_sort_by_name(&sp);
        /* "instructions/count" -> "instructions" */
        snprintf(unit, sizeof unit, "%s", sp.unit ? sp.unit : "samples");
        if (strchr(unit, '/'))
            *strchr(unit, '/') = 0;
        o.unit = unit;
        o.subtitle = sp.cmd;
        svg_job_t job = {&sp, &o};
        rc = sc_write(&c, write_svg, &job) < 0;
        if (!rc && to_tty_default)
            fprintf(stderr, "cycprof flamegraph: wrote %s (standard output is a "
                    "terminal; -o OUT.svg picks the name)\n", c.out);
    }
    sp_free(&sp);
    return rc;
}
