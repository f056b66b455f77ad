/* `cycprof flamegraph`: the exact stacks as an interactive SVG flame graph
 * that any browser opens offline. */
#define _POSIX_C_SOURCE 200809L
#include "commands.h"
#include "cmdutil.h"
#include "flamegraph_svg.h"
#include "stack_input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    "  -o, --output=OUT     write the SVG to OUT (default: standard output)\n"
    "  --title=TEXT         heading (default: \"Flame Graph\")\n"
    "  --width=PX           image width in pixels (default 1200)\n"
    "  --minwidth=PX        leave out frames narrower than PX (default 0.1)\n"
    "  -h, --help           show this help\n";

int cmd_flamegraph(int argc, char **argv)
{
    const char *out = NULL, *file = NULL, *v;
    fg_opts_t o = {NULL, NULL, NULL, 1200, 0.1};
    uint64_t width;
    int r;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if ((r = cu_opt_value(argc, argv, &i, "--output", "-o", &v))) {
            if (r < 0) {
                cu_err("flamegraph", "-o needs a file name");
                return 2;
            }
            out = v;
        } else if ((r = cu_opt_value(argc, argv, &i, "--title", NULL, &v))) {
            if (r < 0) {
                cu_err("flamegraph", "--title needs a text");
                return 2;
            }
            o.title = v;
        } else if ((r = cu_opt_value(argc, argv, &i, "--width", NULL, &v))) {
            if (r < 0 || cu_parse_u64(v, &width) < 0 || width < 100 ||
                width > 100000) {
                cu_err("flamegraph", "--width needs a number of pixels "
                       "(100-100000), got '%s'", r < 0 ? "" : v);
                return 2;
            }
            o.width = (int)width;
        } else if ((r = cu_opt_value(argc, argv, &i, "--minwidth", NULL, &v))) {
            if (r < 0 || cu_parse_pct(v, &o.minwidth) < 0 || strchr(v, '%')) {
                cu_err("flamegraph", "--minwidth needs a number of pixels, "
                       "got '%s'", r < 0 ? "" : v);
                return 2;
            }
        } else if (a[0] == '-' && a[1]) {
            cu_err("flamegraph", "unknown option '%s' (see cycprof flamegraph "
                   "--help)", a);
            return 2;
        } else if (file) {
            cu_err("flamegraph", "only one FILE, please");
            return 2;
        } else {
            file = a;
        }
    }

    stack_profile_t sp;
    sp_init(&sp);
    int rc = 1;
    char unit[128];
    if (si_load("flamegraph", file, &sp) < 0)
        goto done;
    sp_sort_by_name(&sp);
    /* "instructions/count" -> "instructions" */
    snprintf(unit, sizeof unit, "%s", sp.unit ? sp.unit : "samples");
    if (strchr(unit, '/'))
        *strchr(unit, '/') = 0;
    o.unit = unit;
    o.subtitle = sp.cmd;
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        cu_err("flamegraph", "%s: %s", out, strerror(errno));
        goto done;
    }
    int bad = fg_write_svg(f, &sp, &o) < 0;
    bad |= out ? fclose(f) != 0 : fflush(f) != 0;
    if (bad) {
        cu_err("flamegraph", "%s: write error", out ? out : "standard output");
        goto done;
    }
    rc = 0;
done:
    sp_free(&sp);
    return rc;
}
