/* `cycprof flamegraph`: the exact stacks as an interactive SVG flame graph
 * that any browser opens offline. */
#define _POSIX_C_SOURCE 200809L
#include "commands/commands.h"
#include "util/cmdutil.h"
#include "analyse/diff_match.h"
#include "write/flamegraph_diff.h"
#include "write/flamegraph_svg.h"
#include "commands/stack_cmd.h"
#include "read/stack_input.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Without -o, a terminal gets this file instead of raw SVG. */
#define TTY_DEFAULT_OUT "flamegraph.svg"

static const char *const usage =
    "usage: cycprof flamegraph [options] [FILE] -o OUT.svg\n"
    "       cycprof flamegraph [options] BASE NEW -o OUT.svg\n"
    "\n"
    "Draw the exact call stacks as a self-contained interactive SVG flame\n"
    "graph: hover a frame for its count and share, click to zoom, Search\n"
    "(or Ctrl-F) to highlight functions by regular expression. FILE is a\n"
    "pprof file (.pb.gz), a stacks dump (read as 'cycprof pprof' converts\n"
    "it) or a cycprof.out.<pid> whose FILE.pb.gz is next to it (default:\n"
    "the newest cycprof.out.* in the current directory).\n"
    "\n"
    "With two files, a differential flame graph: NEW's stacks, each frame\n"
    "coloured by how its count changed against BASE (red grew, blue\n"
    "shrank), hover for both counts and the change, and a control that\n"
    "shows BASE's shape instead (what only BASE ran). Frames are matched\n"
    "as `cycprof diff --by=stack` matches them.\n"
    "\n"
    "options:\n"
    "  -o, --output=OUT     write the SVG to OUT (default: standard output;\n"
    "                       when that is a terminal, " TTY_DEFAULT_OUT ",\n"
    "                       and the command says so)\n"
    "  --title=TEXT         heading (default: \"Flame Graph\"; with BASE and\n"
    "                       NEW, \"Differential Flame Graph\")\n"
    "  --width=PX           image width in pixels (default 1200)\n"
    "  --minwidth=PX        leave out frames narrower than PX (default 0.1)\n"
    "  --event=EV           the sample type to count, e.g. zkvm_cycles (or\n"
    "                       Zk) with --zk-model (default: pprof's,\n"
    "                       instructions in cycprof's; with BASE and NEW,\n"
    "                       BASE's, or the one both have)\n"
    "  --mod-filename=EXPR, --mod-funcname=EXPR, --common-root=auto|no\n"
    "                       with BASE and NEW: how frames are matched, as in\n"
    "                       cycprof diff (see cycprof diff --help)\n"
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

typedef struct diff_job {
    const stack_diff_t *d;
    const fg_opts_t *o;
} diff_job_t;

static int write_diff_svg(FILE *f, const void *ctx)
{
    const diff_job_t *j = ctx;
    return fg_write_diff_svg(f, j->d, j->o);
}

static void say_tty_default(const stack_cmd_t *c)
{
    fprintf(stderr, "cycprof flamegraph: wrote %s (standard output is a "
            "terminal; -o OUT.svg picks the name)\n", c->out);
}

/* BASE (c->file) against NEW: the differential flame graph. */
static int draw_diff(const stack_cmd_t *c, fg_opts_t *o, const char *newfile,
                     const dm_opts_t *match, int to_tty_default)
{
    stack_diff_t d;
    dm_rules_t rules;
    memset(&rules, 0, sizeof rules);
    dm_opts_rules(match, &rules);
    char *files[2] = {(char *)c->file, (char *)newfile};
    int rc = 1;
    if (sd_load(&d, "flamegraph", files, c->event, &rules) == 0) {
        o->unit = d.unit;
        o->subtitle = d.cmds[1];
        if (!o->title)
            o->title = "Differential Flame Graph";
        diff_job_t job = {&d, o};
        rc = sc_write(c, write_diff_svg, &job) < 0;
        if (!rc && to_tty_default)
            say_tty_default(c);
    }
    sd_free(&d);
    sr_free(rules.roots, rules.nroots);
    return rc;
}

/* What the command line asks for. */
typedef struct fg_args {
    stack_cmd_t c;
    fg_opts_t o;
    const char *newfile;   /* NEW, when two files are given */
    dm_opts_t match;
    int matching;          /* a matching option was given */
} fg_args_t;

/* 0, 1 after --help, -1 after a one-line error. */
static int parse(int argc, char **argv, fg_args_t *a)
{
    const char *v;
    uint64_t width;
    int r;
    for (int i = 1; i < argc; i++) {
        if (a->c.file && argv[i][0] != '-') {
            if (a->newfile) {
                cu_err("flamegraph", "too many files: give FILE, or BASE "
                       "and NEW");
                return -1;
            }
            a->newfile = argv[i];
        } else if ((r = dm_opt(argc, argv, &i, "flamegraph", &a->match))) {
            if (r < 0)
                return -1;
            a->matching = 1;
        } else if ((r = cu_opt_value(argc, argv, &i, "--title", NULL, &v))) {
            if (r < 0) {
                cu_err("flamegraph", "--title needs a text");
                return -1;
            }
            a->o.title = v;
        } else if ((r = cu_opt_value(argc, argv, &i, "--width", NULL, &v))) {
            if (r < 0 || cu_parse_u64(v, &width) < 0 || width < 100 ||
                width > 100000) {
                cu_opt_err("flamegraph", "--width", NULL, "a number of pixels "
                           "(100-100000)", r, v);
                return -1;
            }
            a->o.width = (int)width;
        } else if ((r = cu_opt_value(argc, argv, &i, "--minwidth", NULL, &v))) {
            if (r < 0 || cu_parse_pct(v, &a->o.minwidth) < 0 ||
                strchr(v, '%')) {
                cu_opt_err("flamegraph", "--minwidth", NULL, "a number of pixels",
                           r, v);
                return -1;
            }
        } else if ((r = sc_arg(&a->c, argc, argv, &i))) {
            return r;
        }
    }
    if (a->matching && !a->newfile) {
        cu_err("flamegraph", "--mod-filename, --mod-funcname and "
               "--common-root match the frames of BASE and NEW: give both");
        return -1;
    }
    return 0;
}

/* One profile's flame graph. */
static int draw(const stack_cmd_t *c, fg_opts_t *o, int to_tty_default)
{
    stack_profile_t sp;
    sp_init(&sp);
    sp.event = c->event;
    int rc = 1;
    char unit[128];
    if (si_load("flamegraph", c->file, &sp) == 0) {
        sp_sort_by_name(&sp);
        /* "instructions/count" -> "instructions" */
        snprintf(unit, sizeof unit, "%s", sp.unit ? sp.unit : "samples");
        if (strchr(unit, '/'))
            *strchr(unit, '/') = 0;
        o->unit = unit;
        o->subtitle = sp.cmd;
        svg_job_t job = {&sp, o};
        rc = sc_write(c, write_svg, &job) < 0;
        if (!rc && to_tty_default)
            say_tty_default(c);
    }
    sp_free(&sp);
    return rc;
}

int cmd_flamegraph(int argc, char **argv)
{
    fg_args_t a;
    memset(&a, 0, sizeof a);
    a.c = (stack_cmd_t){"flamegraph", usage, NULL, NULL, NULL};
    a.o = (fg_opts_t){NULL, NULL, NULL, 1200, 0.1};
    int rc = parse(argc, argv, &a);
    if (rc) {
        dm_opts_free(&a.match);
        return rc > 0 ? 0 : 2;
    }
    int to_tty_default = !a.c.out && isatty(STDOUT_FILENO);
    if (to_tty_default)
        a.c.out = TTY_DEFAULT_OUT;
    rc = a.newfile ? draw_diff(&a.c, &a.o, a.newfile, &a.match, to_tty_default)
                   : draw(&a.c, &a.o, to_tty_default);
    dm_opts_free(&a.match);
    return rc;
}
