/* `cycprof report`: a cg_annotate-style top-N table of where the exact
 * instruction counts went, by function, file, line, object or whole stack. */
#define _POSIX_C_SOURCE 200809L
#include "commands/commands.h"
#include "util/cmdutil.h"
#include "analyse/cost_rank.h"
#include "read/region_table.h"
#include "commands/report_common.h"
#include "write/report_json.h"
#include "read/stack_input.h"
#include "model/stack_profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage =
    "usage: cycprof report [options] [FILE...]\n"
    "\n"
    "Print the costliest functions (or files, lines, objects, stacks) of a\n"
    "profile. FILE is a cycprof.out.<pid> or callgrind.out.<pid> file, or a\n"
    "pprof profile, gzipped or not: cycprof's .pb.gz, a Go CPU profile,\n"
    "RISC Zero's guest profile (RISC0_PPROF_OUT); or the tool's stacks dump\n"
    "(--keep-stacks=yes), read as the profile 'cycprof pprof' makes of it.\n"
    "Default: the newest cycprof.out.* in the current directory. Several\n"
    "files are merged by name.\n"
    "\n"
    "options:\n"
    "  -n, --top=N          show the N costliest rows (default 20, 0 = all)\n"
    "  --sort=EV[,EV...]    rank by these events (default: file order); in a\n"
    "                       pprof profile the events are its sample types,\n"
    "                       e.g. cycles, cpu, samples (pprof's default first)\n"
    "  --event=EV           rank by this event (as --sort=EV); with --by=stack\n"
    "                       the pprof sample type to read; Zk, zkvm_cycles and\n"
    "                       cycles name one event, Ir and instructions too\n"
    "  --inclusive          rank functions by inclusive cost (self + calls),\n"
    "                       as callgrind_annotate --inclusive=yes; from a\n"
    "                       pprof profile, each function once per sample\n"
    "  --by=KIND            function (default), file, line, object, or stack:\n"
    "                       the heaviest exact call stacks, read from the\n"
    "                       pprof file FILE.pb.gz written next to FILE;\n"
    "                       files and lines are keyed by (object, file)\n"
    "  --regions            print the named regions' table instead\n"
    "                       (CYCPROF_REGION_BEGIN/END, SP1's markers)\n"
    "  --threshold=PCT      hide rows below PCT% of the total (default 0.1)\n"
    "  --show-percs[=yes|no] show percentages of the total (default yes)\n"
    "  --format=text|json   json: the same rows as one JSON document, whose\n"
    "                       member \"schema\" names its type and version\n"
    "  -h, --help           show this help\n";

typedef struct opts {
    uint64_t top;
    const char *sort;
    const char *event;
    int inclusive;
    int by_stack;
    int regions;
    rank_by_t by;
    double threshold;
    int percs;
    int json;
    char **files;
    int nfiles;
} opts_t;

static int parse(int argc, char **argv, opts_t *o)
{
    const char *v;
    int r;
    o->top = 20;
    o->threshold = 0.1;
    o->percs = 1;
    o->by = BY_FUNCTION;
    o->files = cu_calloc((size_t)argc, sizeof *o->files);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 1;
        } else if ((r = cu_opt_u64(argc, argv, &i, "report", "--top", "-n",
                                   "a number", &o->top))) {
            if (r < 0)
                return -1;
        } else if ((r = cu_opt_value(argc, argv, &i, "--sort", NULL, &v))) {
            if (r < 0) {
                cu_err("report", "--sort needs an event list");
                return -1;
            }
            o->sort = v;
        } else if ((r = cu_opt_value(argc, argv, &i, "--event", NULL, &v))) {
            if (r < 0 || !*v) {
                cu_err("report", "--event needs an event name");
                return -1;
            }
            o->event = v;
        } else if ((r = cu_opt_value(argc, argv, &i, "--by", NULL, &v))) {
            if (r > 0 && strcmp(v, "stack") == 0) {
                o->by_stack = 1;
            } else if (r < 0 || rank_by_parse(v, &o->by) < 0) {
                if (r < 0)
                    cu_err("report", "--by needs function, file, line, "
                           "object or stack");
                else
                    cu_err("report", "--by must be function, file, line, "
                           "object or stack, got '%s'", v);
                return -1;
            }
        } else if ((r = cu_opt_pct(argc, argv, &i, "report", "--threshold",
                                   "a percentage 0-100", 100,
                                   &o->threshold))) {
            if (r < 0)
                return -1;
        } else if ((r = cu_opt_value(argc, argv, &i, "--format", NULL, &v))) {
            if ((o->json = rc_parse_format("report", r, v)) < 0)
                return -1;
        } else if (cu_opt_flag(a, "--inclusive", &o->inclusive)) {
        } else if (strcmp(a, "--regions") == 0) {
            o->regions = 1;
        } else if (cu_opt_flag(a, "--show-percs", &o->percs)) {
        } else if (strcmp(a, "--") == 0) {
            while (++i < argc)
                o->files[o->nfiles++] = argv[i];
        } else if (a[0] == '-' && a[1]) {
            cu_err("report", "unknown option '%s' (see cycprof report --help)",
                   a);
            return -1;
        } else {
            o->files[o->nfiles++] = argv[i];
        }
    }
    if (o->sort && o->event) {
        cu_err("report", "--event and --sort both choose the ranking: give "
               "one");
        return -1;
    }
    if (o->by_stack && (o->inclusive || o->sort)) {
        cu_err("report", "--by=stack ranks stacks by their exact count; "
               "--inclusive and --sort do not apply");
        return -1;
    }
    if (o->inclusive && o->by != BY_FUNCTION) {
        cu_err("report", "--inclusive works with --by=function only");
        return -1;
    }
    if (o->regions && o->json) {
        cu_err("report", "--regions has no --format=json form (the region "
               "rows are in 'cycprof diff --format=json')");
        return -1;
    }
    return 0;
}

/* Formats "count (pct%)" for one cell. */
static void cell(char *buf, size_t len, uint64_t v, uint64_t total, int percs)
{
    char num[32], pct[32];
    cu_commify(v, num);
    if (percs)
        snprintf(buf, len, "%s (%s)", num, cu_pct(v, total, pct, sizeof pct));
    else
        snprintf(buf, len, "%s", num);
}

/* The zkVM segment tables of callgrind files made with --zk-model
 * ('# cycprof-zkvm' comment lines, docs/zkvm.md), as the tool printed them,
 * a blank line after each file's. */
static void print_zk_callgrind(const cg_profile_t *p)
{
    for (size_t i = 0; i < p->zk_callgrind_lines; i++) {
        fputs(p->zk_callgrind[i].text, stdout);
        if (p->zk_callgrind[i].file_end)
            putchar('\n');
    }
}

static void print_header(const opts_t *o, const char *cmd, char **files,
                         int nfiles, const char *events, const char *sort,
                         const char *ranking)
{
    rc_rule(stdout);
    printf("Command:          %s\n", cmd && *cmd ? cmd : "(unknown)");
    for (int i = 0; i < nfiles; i++)
        printf("%s%s\n", i ? "                  " : "Data file(s):     ",
               files[i]);
    printf("Events recorded:  %s\n", events);
    printf("Event sort order: %s\n", sort);
    printf("Threshold:        %g%%\n", o->threshold);
    if (o->top)
        printf("Ranking:          %s, top %llu\n", ranking,
               (unsigned long long)o->top);
    else
        printf("Ranking:          %s, all\n", ranking);
    rc_rule(stdout);
    putchar('\n');
}

/* Footer saying how many rows were left out and why. */
static void print_omitted(size_t omitted, const char *what)
{
    if (omitted)
        printf("\n(%zu more %s not shown: below the threshold or past the top "
               "N; -n 0 --threshold=0 shows all)\n", omitted, what);
}

static int report_functions(const opts_t *o)
{
    cg_profile_t p;
    cg_init(&p);
    int rc = 1;
    int order[CG_MAX_EVENTS];
    size_t norder;
    rank_t r;
    memset(&r, 0, sizeof r);

    p.rows = rank_rows(o->by);
    if (rc_load("report", &p, o->files, o->nfiles) < 0)
        goto out;
    if (rc_check_by("report", &p, o->by) < 0)
        goto out;
    if (rc_sort_order("report", o->event ? "event" : "sort", &p,
                      o->event ? o->event : o->sort, order, &norder) < 0) {
        rc = 2;                  /* a bad --sort is a usage error */
        goto out;
    }
    rank_build(&p, o->by, o->inclusive, &r);
    if (r.overflow) {
        cu_err("report", "%s: the costs of one row add up to more than "
               "2^64-1", o->files[0]);
        goto out;
    }
    rank_sort(&r, order, norder);

    char events[512] = "", sort[512] = "", ranking[64];
    for (size_t e = 0; e < p.nev; e++) {
        strncat(events, e ? " " : "", sizeof events - strlen(events) - 1);
        strncat(events, p.events[e], sizeof events - strlen(events) - 1);
    }
    for (size_t i = 0; i < norder; i++) {
        strncat(sort, i ? " " : "", sizeof sort - strlen(sort) - 1);
        strncat(sort, p.events[order[i]], sizeof sort - strlen(sort) - 1);
    }
    snprintf(ranking, sizeof ranking, "%s cost by %s",
             o->inclusive ? "inclusive" : "self", rank_by_name(o->by));

    /* Rows to show: the top N that reach the threshold on the first sort
     * event; rows without any cost are never shown. */
    uint64_t prim_total = p.totals[order[0]];
    size_t shown = 0, nonzero = 0;
    rank_row_t **sel = cu_calloc(r.n, sizeof *sel);
    for (size_t i = 0; i < r.n; i++) {
        int any = 0;
        for (size_t e = 0; e < p.nev; e++)
            any |= r.rows[i].cost[e] != 0;
        if (!any)
            continue;
        nonzero++;
        uint64_t v = r.rows[i].cost[order[0]];
        if ((o->top && shown == o->top) ||
            (o->threshold > 0 &&
             (double)v * 100.0 < o->threshold * (double)prim_total))
            continue;
        sel[shown++] = &r.rows[i];
    }
    if (o->json) {
        rj_report(stdout, &p, o->files, o->nfiles, o->by, o->inclusive, order,
                  norder, sel, shown, nonzero - shown);
        free(sel);
        rc = 0;
        goto out;
    }
    print_header(o, p.cmd, o->files, o->nfiles, events, sort, ranking);
    int all[CG_MAX_EVENTS];
    for (size_t e = 0; e < p.nev; e++)
        all[e] = (int)e;
    rc_print_totals(stdout, &p, all, p.nev);
    putchar('\n');
    print_zk_callgrind(&p);
    /* A pprof file's, from its comments. */
    cu_escape_strings_for_terminal(p.zk_table, p.zk_table_lines);
    for (size_t i = 0; i < p.zk_table_lines; i++)
        printf("%s\n%s", p.zk_table[i],
               i + 1 == p.zk_table_lines ? "\n" : "");

    /* All events are shown, in file order, like callgrind_annotate; the
     * sort order only decides the ranking. */
    size_t width[CG_MAX_EVENTS];
    char buf[96];
    for (size_t e = 0; e < p.nev; e++) {
        width[e] = strlen(p.events[e]);
        for (size_t j = 0; j < shown; j++) {
            cell(buf, sizeof buf, sel[j]->cost[e], p.totals[e], o->percs);
            if (strlen(buf) > width[e])
                width[e] = strlen(buf);
        }
    }
    static const char *const what[] = {"file:function", "file",
                                       "file:line function", "object"};
    for (size_t e = 0; e < p.nev; e++)
        printf("%*s  ", (int)width[e], p.events[e]);
    printf("%s\n", o->by == BY_FUNCTION && p.by_name ? "function" : what[o->by]);
    for (size_t j = 0; j < shown; j++) {
        const rank_row_t *row = sel[j];
        for (size_t e = 0; e < p.nev; e++) {
            cell(buf, sizeof buf, row->cost[e], p.totals[e], o->percs);
            printf("%*s  ", (int)width[e], buf);
        }
        rc_print_row_name(stdout, row);
        putchar('\n');
    }
    static const char *const plural[] = {"functions", "files", "lines",
                                         "objects"};
    print_omitted(nonzero - shown, plural[o->by]);
    free(sel);
    rc = 0;
out:
    rank_free(&r);
    cg_free(&p);
    return rc;
}

static int report_regions(const opts_t *o)
{
    for (int i = 0; i < o->nfiles; i++) {
        region_table_t t;
        if (region_table_load("report", o->files[i], &t) < 0)
            return 1;
        if (o->nfiles > 1)
            printf("%s%s:\n", i ? "\n" : "", o->files[i]);
        region_table_print(stdout, &t);
        region_table_free(&t);
    }
    return 0;
}

static int report_stacks(const opts_t *o)
{
    stack_profile_t sp;
    sp_init(&sp);
    sp.event = o->event;
    int rc = 1;
    for (int i = 0; i < o->nfiles; i++)
        if (si_load("report", o->files[i], &sp) < 0)
            goto out;
    sp_sort_by_count(&sp);
    size_t shown = 0;
    for (size_t i = 0; i < sp.n; i++) {
        uint64_t v = sp.stacks[i].count;
        if ((o->top && shown == o->top) || v == 0 ||
            (double)v * 100.0 < o->threshold * (double)sp.total)
            break;
        shown++;
    }
    if (o->json) {
        rj_report_stacks(stdout, &sp, o->files, o->nfiles, shown);
        rc = 0;
        goto out;
    }

    /* The value is "type/unit", e.g. instructions/count: show the type. */
    char ev[128];
    snprintf(ev, sizeof ev, "%s", sp.unit ? sp.unit : "samples");
    char *slash = strchr(ev, '/');
    if (slash)
        *slash = 0;
    /* "instructions" -> "Instructions", as in the other totals lines. */
    char title[128];
    snprintf(title, sizeof title, "%s", ev);
    if (title[0] >= 'a' && title[0] <= 'z')
        title[0] = (char)(title[0] - 'a' + 'A');
    print_header(o, sp.cmd, o->files, o->nfiles, ev, ev, "exact stacks");
    char num[32], buf[96];
    printf("Total %s...%s\n\n", title, cu_commify(sp.total, num));

    size_t width = strlen(ev);
    for (size_t i = 0; i < shown; i++) {
        cell(buf, sizeof buf, sp.stacks[i].count, sp.total, o->percs);
        if (strlen(buf) > width)
            width = strlen(buf);
    }
    printf("%*s  stack (leaf first, then its callers)\n", (int)width, ev);
    for (size_t i = 0; i < shown; i++) {
        const sp_stack_t *s = &sp.stacks[i];
        cell(buf, sizeof buf, s->count, sp.total, o->percs);
        printf("%*s  %s\n", (int)width, buf, sp_frame(&sp, s, s->depth - 1));
        for (uint32_t d = s->depth - 1; d-- > 0;)
            printf("%*s    <- %s\n", (int)width, "", sp_frame(&sp, s, d));
    }
    print_omitted(sp.n - shown, "stacks");
    rc = 0;
out:
    sp_free(&sp);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    int rc = parse(argc, argv, &o);
    char *def = NULL;
    if (rc != 0) {
        free(o.files);
        return rc < 0 ? 2 : 0;
    }
    if (!o.nfiles) {
        def = cu_newest_profile();
        if (!def) {
            cu_err("report", "no cycprof.out.* file in the current directory "
                   "(give a FILE)");
            free(o.files);
            return 1;
        }
        o.files[o.nfiles++] = def;
    }
    rc = o.regions    ? report_regions(&o)
         : o.by_stack ? report_stacks(&o)
                      : report_functions(&o);
    free(def);
    free(o.files);
    if (fflush(stdout) != 0) {
        cu_err("report", "error writing the output");
        return 1;
    }
    return rc;
}
