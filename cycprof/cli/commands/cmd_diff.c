/* `cycprof diff BASE NEW`: how the exact counts changed between two runs,
 * per function (or file, line, object), largest change first. Because the
 * counts are exact, any change is real, which makes --fail-above a usable
 * CI gate. */
#define _POSIX_C_SOURCE 200809L
#include "commands/commands.h"
#include "util/cmdutil.h"
#include "analyse/cost_rank.h"
#include "analyse/diff_match.h"
#include "write/diff_json.h"
#include "read/profile_kind.h"
#include "analyse/region_diff.h"
#include "commands/report_common.h"
#include "analyse/stack_diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exit status when --fail-above trips: distinct from usage (2) and
 * unreadable input (1), so CI scripts can tell a regression apart. */
#define EXIT_GREW 3

static const char *const usage =
    "usage: cycprof diff [options] BASE NEW\n"
    "\n"
    "Compare two profiles (cycprof.out.<pid> or callgrind.out.<pid>, or pprof\n"
    "profiles: cycprof's .pb.gz, Go CPU profiles, RISC Zero guest profiles,\n"
    "or the tool's stacks dumps, read as 'cycprof pprof' converts them):\n"
    "the change of the total and of each function, largest change first.\n"
    "\n"
    "options:\n"
    "  -n, --top=N          show the N largest changes (default 20, 0 = all)\n"
    "  --event=EV, --sort=EV  compare this event (default: BASE's first one,\n"
    "                       or NEW's first if BASE has it); for a pprof\n"
    "                       profile, a sample type such as cycles; Zk,\n"
    "                       zkvm_cycles and cycles (RISC Zero's) name one\n"
    "                       event, Ir and instructions too\n"
    "  --inclusive          compare inclusive costs (self + calls)\n"
    "  --by=KIND            function (default), file, line or object; files\n"
    "                       and lines are keyed by (object, file), a line\n"
    "                       sums all functions whose code is on it; or\n"
    "                       stack: the exact count of each whole call stack\n"
    "                       (from the pprof files: FILE.pb.gz next to a\n"
    "                       cycprof.out), each frame matched as a function\n"
    "  --threshold=PCT      hide changes smaller than PCT% of the base total\n"
    "                       (default 0: every change is shown)\n"
    "  --fail-above=PCT     exit with status 3 if the total, any listed\n"
    "                       row or any named region grew by more than PCT%\n"
    "                       (a row that is new in NEW counts as infinite\n"
    "                       growth) and by at least --min-change instructions\n"
    "  --min-change=N       the gate ignores changes smaller than N events\n"
    "                       (default 100; 0 or 1: every change counts)\n"
    "  --mod-filename=EXPR  rewrite file and object names before matching:\n"
    "                       EXPR is s/REGEX/REPLACEMENT/ with flags g (every\n"
    "                       match) and i (ignore case); REGEX is POSIX\n"
    "                       extended, \\1 or $1 in REPLACEMENT is a group, \\/\n"
    "                       is a '/'; may be given more than once (in order)\n"
    "  --mod-funcname=EXPR  the same for function names, e.g.\n"
    "                       s/17h[0-9a-f]{16}E$/E/ drops the hash of Rust's\n"
    "                       mangled names (--demangle=no)\n"
    "  --common-root=auto|no  auto (default): when the two builds were made\n"
    "                       in different folders, match files by their path\n"
    "                       below the source root found on each side; no:\n"
    "                       compare file names as they are (after --mod-*)\n"
    "  --format=text|json   json: the same rows as one JSON document, whose\n"
    "                       member \"schema\" names its type and version\n"
    "  -h, --help           show this help\n"
    "\n"
    "exit status: 0 ok, 1 unreadable input, 2 bad usage, 3 --fail-above hit\n";

typedef struct opts {
    uint64_t top;
    const char *sort;
    const char *event;
    int inclusive;
    rank_by_t by;
    double threshold;
    double fail_above;
    int have_fail;
    uint64_t min_change;
    int json;
    dm_opts_t match;        /* --mod-filename, --mod-funcname, --common-root */
    char *files[2];
    int nfiles;
} opts_t;

static int parse(int argc, char **argv, opts_t *o)
{
    const char *v;
    int r;
    o->top = 20;
    o->by = BY_FUNCTION;
    o->min_change = 100;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 1;
        } else if ((r = cu_opt_u64(argc, argv, &i, "diff", "--top", "-n",
                                   "a number", &o->top))) {
            if (r < 0)
                return -1;
        } else if ((r = cu_opt_value(argc, argv, &i, "--sort", NULL, &v))) {
            if (r < 0 || strchr(v, ',')) {
                cu_err("diff", "--sort needs one event name");
                return -1;
            }
            o->sort = v;
        } else if ((r = cu_opt_value(argc, argv, &i, "--event", NULL, &v))) {
            if (r < 0 || !*v || strchr(v, ',')) {
                cu_err("diff", "--event needs one event name");
                return -1;
            }
            o->event = v;
        } else if ((r = cu_opt_value(argc, argv, &i, "--by", NULL, &v))) {
            if (r > 0 && strcmp(v, "stack") == 0) {
                o->by = BY_STACK;
            } else if (r < 0 || rank_by_parse(v, &o->by) < 0) {
                if (r < 0)
                    cu_err("diff", "--by needs function, file, line, object "
                           "or stack");
                else
                    cu_err("diff", "--by must be function, file, line, object "
                           "or stack, got '%s'", v);
                return -1;
            }
        } else if ((r = cu_opt_pct(argc, argv, &i, "diff", "--threshold",
                                   "a percentage", HUGE_VAL, &o->threshold))) {
            if (r < 0)
                return -1;
        } else if ((r = cu_opt_pct(argc, argv, &i, "diff", "--fail-above",
                                   "a percentage", HUGE_VAL, &o->fail_above))) {
            if (r < 0)
                return -1;
            o->have_fail = 1;
        } else if ((r = cu_opt_u64(argc, argv, &i, "diff", "--min-change", NULL,
                                   "a number of events", &o->min_change))) {
            if (r < 0)
                return -1;
        } else if ((r = dm_opt(argc, argv, &i, "diff", &o->match))) {
            if (r < 0)
                return -1;
        } else if ((r = cu_opt_value(argc, argv, &i, "--format", NULL, &v))) {
            if ((o->json = rc_parse_format("diff", r, v)) < 0)
                return -1;
        } else if (cu_opt_flag(a, "--inclusive", &o->inclusive)) {
        } else if (a[0] == '-' && a[1]) {
            cu_err("diff", "unknown option '%s' (see cycprof diff --help)", a);
            return -1;
        } else {
            if (o->nfiles == 2) {
                cu_err("diff", "too many files: give exactly BASE and NEW");
                return -1;
            }
            o->files[o->nfiles++] = argv[i];
        }
    }
    if (o->nfiles != 2) {
        cu_err("diff", "need two files, BASE and NEW (see cycprof diff --help)");
        return -1;
    }
    if (o->inclusive && o->by != BY_FUNCTION) {
        cu_err("diff", "--inclusive works with --by=function only");
        return -1;
    }
    if (o->sort && o->event) {
        cu_err("diff", "--event and --sort both choose the event: give one");
        return -1;
    }
    if (o->sort && o->by == BY_STACK) {
        cu_err("diff", "--by=stack compares the stacks' one count (pprof's "
               "default sample type); --sort does not apply");
        return -1;
    }
    return 0;
}

static void fmt_growth(char *buf, size_t len, uint64_t base, uint64_t new)
{
    if (base == 0 && new)
        snprintf(buf, len, "new");
    else if (new == 0 && base)
        snprintf(buf, len, "gone");
    else
        snprintf(buf, len, "%+.2f%%", dm_growth(base, new));
}

/* A root for the header: "" (relative names) is said in words. */
static const char *root_name(const char *r)
{
    return r[0] ? r : "(relative names)";
}

/* "Matched by:" lines: each rule that rewrote names, in the order they
 * apply. */
static void print_matched_by(const dm_rules_t *ru)
{
    const char *lead = "Matched by:       ";
    static const char *const what[2] = {"--mod-filename", "--mod-funcname"};
    const name_subst_t *subs[2] = {ru->mod_file, ru->mod_func};
    size_t n[2] = {ru->nmod_file, ru->nmod_func};
    int any = 0;
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < n[k]; i++, any = 1)
            printf("%s%s %s\n", any ? "                  " : lead, what[k],
                   subs[k][i].expr);
    for (size_t k = 0; k < ru->nroots; k++, any = 1) {
        const source_root_t *r = &ru->roots[k];
        printf("%scommon source root %s -> %s (%zu file%s)\n",
               any ? "                  " : lead, root_name(r->base),
               root_name(r->new), r->files, r->files == 1 ? "" : "s");
    }
    if (!any)
        printf("%snames as recorded\n", lead);
}

/* Two runs recorded with and without --deterministic=yes (or with other
 * seeds) may differ only because the program read other hash seeds,
 * clocks or entropy: say so above the numbers. */
static void print_recorded_differently(const char *const mode[2])
{
    const char *b = mode[0] ? mode[0] : "not recorded";
    const char *n = mode[1] ? mode[1] : "not recorded";
    if (strcmp(b, n) == 0)
        return;
    printf("Recorded:         differently: --deterministic=%s in BASE, %s "
           "in NEW; counts may differ for that alone (--deterministic in "
           "man cycprof)\n",
           b, n);
}

/* A changed stack as `report --by=stack` prints one: its leaf, then each
 * caller on a line of its own, indented to the name column; then BASE's
 * names (root first) when they differ. */
static void print_stack(const change_t *c, int indent)
{
    const char *label = c->row->label, *end = label + strlen(label);
    for (const char *e = end; e > label;) {
        const char *b = e;
        while (b > label && b[-1] != ';')
            b--;
        if (e == end)
            printf("%.*s\n", (int)(e - b), b);
        else
            printf("%*s  <- %.*s\n", indent, "", (int)(e - b), b);
        e = b > label ? b - 1 : label;
    }
    if (c->renamed)
        printf("%*s  (base: %s)\n", indent, "", c->base_row->label);
}

static void print_text(const opts_t *o, const diff_result_t *d)
{
    char b1[32], b2[32], b3[32], b4[32];
    uint64_t tb = d->total[0], tn = d->total[1];
    rc_rule(stdout);
    printf("Base:             %s (%s)\n", d->files[0],
           d->cmds[0] ? d->cmds[0] : "unknown command");
    printf("New:              %s (%s)\n", d->files[1],
           d->cmds[1] ? d->cmds[1] : "unknown command");
    print_recorded_differently(d->deterministic);
    if (d->new_event)
        printf("Event:            %s (NEW: %s)\n", d->event, d->new_event);
    else
        printf("Event:            %s\n", d->event);
    if (o->by == BY_STACK)
        printf("Ranking:          exact count of each stack, by size of "
               "change\n");
    else
        printf("Ranking:          %s cost by %s, by size of change\n",
               o->inclusive ? "inclusive" : "self", rank_by_name(o->by));
    print_matched_by(d->rules);
    if (d->by_name && o->by == BY_FUNCTION)
        printf("                  function names alone (a RISC Zero guest "
               "profile)\n");
    rc_rule(stdout);
    printf("\nTotal %s: %s -> %s  %s (", cg_event_long_name(d->event),
           cu_commify(tb, b1), cu_commify(tn, b2),
           cu_commify_signed(dm_delta(tb, tn), b3));
    fmt_growth(b4, sizeof b4, tb, tn);
    printf("%s)\n\n", tb == tn ? "unchanged" : b4);

    if (!d->nch) {
        printf("No %s differs.\n", rank_by_name(o->by));
        return;
    }
    size_t wd = 5, wb = 4, wn = 3;
    for (size_t k = 0; k < d->shown; k++) {
        const change_t *c = &d->ch[k];
        size_t l;
        if ((l = strlen(cu_commify_signed(dm_delta(c->base, c->new), b1))) > wd)
            wd = l;
        if ((l = strlen(cu_commify(c->base, b1))) > wb)
            wb = l;
        if ((l = strlen(cu_commify(c->new, b1))) > wn)
            wn = l;
    }
    static const char *const what[] = {"file:function", "file",
                                       "file:line function", "object",
                                       "stack (leaf first, then its "
                                       "callers)"};
    printf("%*s  %8s  %*s  %*s  %s\n", (int)wd, "delta", "change", (int)wb,
           "base", (int)wn, "new",
           o->by == BY_FUNCTION && d->by_name ? "function" : what[o->by]);
    for (size_t k = 0; k < d->shown; k++) {
        const change_t *c = &d->ch[k];
        fmt_growth(b4, sizeof b4, c->base, c->new);
        printf("%*s  %8s  %*s  %*s  ", (int)wd,
               cu_commify_signed(dm_delta(c->base, c->new), b1), b4, (int)wb,
               cu_commify(c->base, b2), (int)wn, cu_commify(c->new, b3));
        if (o->by == BY_STACK) {
            print_stack(c, (int)(wd + wb + wn + 16));
            continue;
        }
        rc_print_row_name(stdout, c->row);
        /* Unnamed code matched by position, or a function renamed by
         * --mod-funcname: say what BASE called it. */
        if (c->renamed)
            printf(" (base: %s)", c->base_row->label);
        putchar('\n');
    }
    if (d->nch > d->shown)
        printf("\n(%zu more changes not shown; -n 0 shows all)\n",
               d->nch - d->shown);
}

/* The gate's one-line verdict on stderr. */
static void print_verdict(const opts_t *o, const diff_result_t *d)
{
    const char *who = NULL;
    double gw = 0;
    if (d->total_tripped) {
        who = "the total";
        gw = dm_growth(d->total[0], d->total[1]);
    }
    for (size_t k = 0; k < d->shown && !who; k++)
        if (d->tripped[k]) {
            who = d->ch[k].row->label;
            gw = dm_growth(d->ch[k].base, d->ch[k].new);
        }
    const char *kind = "";
    for (size_t k = 0; k < d->nrch && !who; k++)
        if (d->rch[k].tripped) {
            kind = "region ";
            who = d->rch[k].name;
            gw = dm_growth(d->rch[k].base, d->rch[k].new);
        }
    char gs[32];
    if (isinf(gw))
        snprintf(gs, sizeof gs, "new");
    else
        snprintf(gs, sizeof gs, "%+.2f%%", gw);
    char more[48] = "";
    if (d->ntripped > 1)
        snprintf(more, sizeof more, " and %zu more", d->ntripped - 1);
    cu_err("diff", "%s grew by more than --fail-above=%g%% (and by at least "
           "--min-change=%llu): %s%s (%s)%s", d->event, o->fail_above,
           (unsigned long long)o->min_change, kind, who, gs, more);
}


/* What the two ways of comparing (rows of rank tables, whole stacks) hold
 * until the end. */
typedef struct inputs {
    cg_profile_t p[2];
    rank_t r[2];
    stack_diff_t sd;
    rank_row_t *stack_rows;   /* per changed stack: NEW's row, BASE's row */
    region_table_t regions[2];
    change_t *ch;
} inputs_t;

/* The event compared on each side: --event (or --sort) by its name or
 * another name of it; by default BASE's first event, found in NEW, or
 * else NEW's first, found in BASE (a RISC Zero profile's cycles against a
 * cycprof zkVM profile's Zk). 0, 1 (no common event) or 2 (bad --event). */
static int pair_events(const opts_t *o, const cg_profile_t p[2], int ev[2])
{
    const char *want = o->event ? o->event : o->sort;
    char evs[256];
    if (want) {
        for (int k = 0; k < 2; k++)
            if ((ev[k] = cg_event_find(&p[k], want)) < 0) {
                cg_event_list(&p[k], evs, sizeof evs);
                cu_err("diff", "%s: unknown event '%s' in --%s (the profile "
                       "has: %s)", o->files[k], want,
                       o->event ? "event" : "sort", evs);
                return 2;
            }
        return 0;
    }
    ev[0] = 0;
    ev[1] = cg_event_find(&p[1], p[0].events[0]);
    if (ev[1] < 0) {
        ev[1] = 0;
        ev[0] = cg_event_find(&p[0], p[1].events[0]);
    }
    if (ev[0] < 0) {
        cu_err("diff", "%s: first event is '%s' but BASE's is '%s' (use "
               "--event=EVENT)", o->files[1], p[1].events[0], p[0].events[0]);
        return 1;
    }
    return 0;
}

/* Load both profiles and their rank tables; the changed rows into in->ch,
 * d's counts and names. Returns 0, 1 (unreadable) or 2 (bad --sort). */
static int function_changes(const opts_t *o, dm_rules_t *rules, inputs_t *in,
                            diff_result_t *d)
{
    int ev[2];
    cg_profile_t *p = in->p;
    for (int k = 0; k < 2; k++) {
        p[k].rows = rank_rows(o->by);
        if (rc_load("diff", &p[k], (char **)&o->files[k], 1) < 0 ||
            rc_check_by("diff", &p[k], o->by) < 0)
            return 1;
    }
    int rc = pair_events(o, p, ev);
    if (rc)
        return rc;
    /* A RISC Zero profile's functions are matched by name alone. */
    p[0].by_name = p[1].by_name = p[0].by_name || p[1].by_name;
    for (int k = 0; k < 2; k++) {
        rank_build(&p[k], o->by, o->inclusive, &in->r[k]);
        if (in->r[k].overflow) {
            cu_err("diff", "%s: the costs of one row add up to more than "
                   "2^64-1", o->files[k]);
            return 1;
        }
        /* Named regions live in the callgrind file only. */
        if (!p[k].npprof &&
            region_table_load("diff", o->files[k], &in->regions[k]) < 0)
            return 1;
    }
    d->nch = dm_changes(&in->r[0], &in->r[1], o->by, ev, rules, &in->ch);
    d->event = p[0].events[ev[0]];
    if (strcmp(d->event, p[1].events[ev[1]]) != 0)
        d->new_event = p[1].events[ev[1]];
    d->by_name = p[0].by_name;
    for (int k = 0; k < 2; k++) {
        d->total[k] = p[k].totals[ev[k]];
        d->cmds[k] = p[k].cmd;
        d->deterministic[k] = p[k].deterministic;
    }
    return 0;
}

static int cmp_stack_change(const void *a, const void *b)
{
    const change_t *x = a, *y = b;
    uint64_t mx = dm_magnitude(x->base, x->new);
    uint64_t my = dm_magnitude(y->base, y->new);
    if (mx != my)
        return mx > my ? -1 : 1;
    return strcmp(x->row->label, y->row->label);
}

/* The same for --by=stack: each stack whose count changed is a row named
 * by its frames ("a;b;c", NEW's names; BASE's when they differ). */
static int stack_changes(const opts_t *o, dm_rules_t *rules, inputs_t *in,
                         diff_result_t *d)
{
    stack_diff_t *sd = &in->sd;
    if (sd_load(sd, "diff", o->files, o->event, rules) < 0)
        return 1;
    for (int k = 0; k < 2; k++) {
        char err[512];
        int kind = pk_kind(o->files[k], err, sizeof err);
        if (kind < 0) {
            cu_err("diff", "%s", err);
            return 1;
        }
        if (kind == PK_CALLGRIND &&
            region_table_load("diff", o->files[k], &in->regions[k]) < 0)
            return 1;
    }
    in->ch = cu_calloc(sd->n + 1, sizeof *in->ch);
    in->stack_rows = cu_calloc(2 * sd->n + 1, sizeof *in->stack_rows);
    for (size_t i = 0; i < sd->n; i++) {
        const sd_stack_t *s = &sd->stacks[i];
        if (s->base == s->new)
            continue;
        change_t *c = &in->ch[d->nch];
        rank_row_t *rows = &in->stack_rows[2 * d->nch++];
        rows[0] = (rank_row_t){.label = s->label, .object = ""};
        rows[1] = (rank_row_t){.label = s->base_label, .object = ""};
        c->new_row = s->new ? &rows[0] : NULL;
        c->base_row = s->base ? &rows[1] : NULL;
        c->row = &rows[0];
        c->base = s->base;
        c->new = s->new;
        c->renamed = c->base_row && strcmp(s->label, s->base_label) != 0;
    }
    qsort(in->ch, d->nch, sizeof *in->ch, cmp_stack_change);
    d->event = sd->unit;
    for (int k = 0; k < 2; k++) {
        d->total[k] = sd->total[k];
        d->cmds[k] = sd->cmds[k];
        d->deterministic[k] = sd->deterministic[k];
    }
    return 0;
}

int cmd_diff(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    int rc = parse(argc, argv, &o);
    if (rc != 0) {
        dm_opts_free(&o.match);
        return rc < 0 ? 2 : 0;
    }

    inputs_t in;
    unsigned char *tripped = NULL;
    region_change_t *rch = NULL;
    dm_rules_t rules;
    diff_result_t d;
    memset(&rules, 0, sizeof rules);
    memset(&in, 0, sizeof in);
    memset(&d, 0, sizeof d);
    dm_opts_rules(&o.match, &rules);
    cg_init(&in.p[0]);
    cg_init(&in.p[1]);
    rc = o.by == BY_STACK ? stack_changes(&o, &rules, &in, &d)
                          : function_changes(&o, &rules, &in, &d);
    if (rc)
        goto out;
    rc = 1;
    change_t *ch = in.ch;
    d.rules = &rules;
    d.ch = ch;
    for (int k = 0; k < 2; k++)
        d.files[k] = o.files[k];
    d.by = o.by;
    d.inclusive = o.inclusive;

    {
        uint64_t tb = d.total[0], tn = d.total[1];
        int too_big = (tb > tn ? tb - tn : tn - tb) > INT64_MAX;
        for (size_t k = 0; k < d.nch; k++)
            too_big |= dm_magnitude(ch[k].base, ch[k].new) > INT64_MAX;
        if (too_big) {
            cu_err("diff", "a change of %s is larger than 2^63-1: it cannot "
                   "be shown as a signed number", d.event);
            goto out;
        }
    }
    /* Rows to show: sorted by magnitude, so the first small one ends it. */
    for (size_t k = 0; k < d.nch; k++) {
        if (o.top && d.shown == o.top)
            break;
        if (o.threshold > 0 &&
            (double)dm_magnitude(ch[k].base, ch[k].new) * 100.0 <
                o.threshold * (double)d.total[0])
            break;
        d.shown++;
    }

    /* The gate: the total, then every listed row. */
    tripped = cu_calloc(d.shown + 1, 1);
    d.tripped = tripped;
    d.gate_on = o.have_fail;
    d.fail_above = o.fail_above;
    d.min_change = o.min_change;
    if (o.have_fail) {
        d.total_tripped = dm_trips(d.total[0], d.total[1], o.fail_above,
                                   o.min_change);
        d.ntripped = (size_t)d.total_tripped;
        for (size_t k = 0; k < d.shown; k++)
            if ((tripped[k] = (unsigned char)dm_trips(ch[k].base, ch[k].new,
                                                      o.fail_above,
                                                      o.min_change)))
                d.ntripped++;
    }
    {
        size_t nt;
        d.nrch = region_changes(&in.regions[0], &in.regions[1], o.have_fail,
                                o.fail_above, o.min_change, &rch, &nt);
        d.rch = rch;
        d.ntripped += nt;
    }

    if (o.json) {
        dj_write(stdout, &d);
    } else {
        print_text(&o, &d);
        region_changes_print(stdout, &in.regions[0], &in.regions[1], rch,
                             d.nrch);
    }
    if (fflush(stdout) != 0) {
        cu_err("diff", "error writing the output");
        goto out;
    }
    rc = 0;
    if (d.ntripped) {
        print_verdict(&o, &d);
        rc = EXIT_GREW;
    }
out:
    free(rch);
    free(tripped);
    free(in.ch);
    free(in.stack_rows);
    sd_free(&in.sd);
    for (int k = 0; k < 2; k++) {
        rank_free(&in.r[k]);
        cg_free(&in.p[k]);
        region_table_free(&in.regions[k]);
    }
    sr_free(rules.roots, rules.nroots);
    dm_opts_free(&o.match);
    return rc;
}
