/* `cycprof diff BASE NEW`: how the exact counts changed between two runs,
 * per function (or file, line, object), largest change first. Because the
 * counts are exact, any change is real, which makes --fail-above a usable
 * CI gate. */
#define _POSIX_C_SOURCE 200809L
#include "commands.h"
#include "cmdutil.h"
#include "cost_rank.h"
#include "region_table.h"
#include "report_common.h"

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
    "Compare two profiles (cycprof.out.<pid> or callgrind.out.<pid>): the\n"
    "change of the total and of each function, largest change first.\n"
    "\n"
    "options:\n"
    "  -n, --top=N          show the N largest changes (default 20, 0 = all)\n"
    "  --sort=EV            compare this event (default: the first one)\n"
    "  --inclusive          compare inclusive costs (self + calls)\n"
    "  --by=KIND            function (default), file, line or object\n"
    "  --threshold=PCT      hide changes smaller than PCT%% of the base total\n"
    "                       (default 0: every change is shown)\n"
    "  --fail-above=PCT     exit with status 3 if the total, any listed\n"
    "                       row or any named region grew by more than PCT%%\n"
    "                       (a row that is new in NEW counts as infinite\n"
    "                       growth)\n"
    "  -h, --help           show this help\n"
    "\n"
    "exit status: 0 ok, 1 unreadable input, 2 bad usage, 3 --fail-above hit\n";

typedef struct opts {
    uint64_t top;
    const char *sort;
    int inclusive;
    rank_by_t by;
    double threshold;
    double fail_above;
    int have_fail;
    char *files[2];
    int nfiles;
} opts_t;

static int parse(int argc, char **argv, opts_t *o)
{
    const char *v;
    int r;
    o->top = 20;
    o->by = BY_FUNCTION;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 1;
        } else if ((r = cu_opt_value(argc, argv, &i, "--top", "-n", &v))) {
            if (r < 0 || cu_parse_u64(v, &o->top) < 0) {
                cu_err("diff", "--top needs a number, got '%s'", r < 0 ? "" : v);
                return -1;
            }
        } else if ((r = cu_opt_value(argc, argv, &i, "--sort", NULL, &v))) {
            if (r < 0 || strchr(v, ',')) {
                cu_err("diff", "--sort needs one event name");
                return -1;
            }
            o->sort = v;
        } else if ((r = cu_opt_value(argc, argv, &i, "--by", NULL, &v))) {
            if (r < 0 || rank_by_parse(v, &o->by) < 0) {
                cu_err("diff", "--by must be function, file, line or object, "
                       "got '%s'", r < 0 ? "" : v);
                return -1;
            }
        } else if ((r = cu_opt_value(argc, argv, &i, "--threshold", NULL, &v))) {
            if (r < 0 || cu_parse_pct(v, &o->threshold) < 0) {
                cu_err("diff", "--threshold needs a percentage, got '%s'",
                       r < 0 ? "" : v);
                return -1;
            }
        } else if ((r = cu_opt_value(argc, argv, &i, "--fail-above", NULL, &v))) {
            if (r < 0 || cu_parse_pct(v, &o->fail_above) < 0) {
                cu_err("diff", "--fail-above needs a percentage, got '%s'",
                       r < 0 ? "" : v);
                return -1;
            }
            o->have_fail = 1;
        } else if (strcmp(a, "--inclusive") == 0 ||
                   strcmp(a, "--inclusive=yes") == 0) {
            o->inclusive = 1;
        } else if (strcmp(a, "--inclusive=no") == 0) {
            o->inclusive = 0;
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
    return 0;
}

typedef struct change {
    const char *label, *func, *object;
    uint64_t base, new;
} change_t;

static int64_t delta(const change_t *c)
{
    return (int64_t)(c->new - c->base);
}

static uint64_t magnitude(const change_t *c)
{
    return c->new > c->base ? c->new - c->base : c->base - c->new;
}

static int cmp_change(const void *a, const void *b)
{
    const change_t *x = a, *y = b;
    uint64_t mx = magnitude(x), my = magnitude(y);
    if (mx != my)
        return mx > my ? -1 : 1;
    int c = strcmp(x->label, y->label);
    if (!c && x->func && y->func)
        c = strcmp(x->func, y->func);
    return c;
}

/* Growth in percent of base; +inf for something new. */
static double growth(uint64_t base, uint64_t new)
{
    if (base == 0)
        return new ? INFINITY : 0.0;
    return ((double)new - (double)base) * 100.0 / (double)base;
}

static void fmt_growth(char *buf, size_t len, uint64_t base, uint64_t new)
{
    if (base == 0 && new)
        snprintf(buf, len, "new");
    else if (new == 0 && base)
        snprintf(buf, len, "gone");
    else
        snprintf(buf, len, "%+.2f%%", growth(base, new));
}

/* Row identity across the two files: label plus, for lines, the function. */
static int same_row(const rank_row_t *a, const rank_row_t *b)
{
    return strcmp(a->label, b->label) == 0 &&
           (!a->func || strcmp(a->func, b->func) == 0);
}

static int cmp_row_name(const void *a, const void *b)
{
    const rank_row_t *x = a, *y = b;
    int c = strcmp(x->label, y->label);
    if (!c && x->func && y->func)
        c = strcmp(x->func, y->func);
    return c;
}

int cmd_diff(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    int rc = parse(argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? 2 : 0;

    cg_profile_t p[2];
    rank_t r[2];
    change_t *ch = NULL;
    int ev[2];
    cg_init(&p[0]);
    cg_init(&p[1]);
    memset(r, 0, sizeof r);
    rc = 1;
    for (int k = 0; k < 2; k++) {
        if (rc_load("diff", &p[k], &o.files[k], 1) < 0)
            goto out;
        ev[k] = o.sort ? cg_event_index(&p[k], o.sort) : 0;
        if (ev[k] < 0) {
            cu_err("diff", "%s: unknown event '%s' in --sort", o.files[k],
                   o.sort);
            rc = 2;
            goto out;
        }
        if (k == 1 && strcmp(p[0].events[ev[0]], p[1].events[ev[1]]) != 0) {
            cu_err("diff", "%s: first event is '%s' but BASE's is '%s' (use "
                   "--sort=EVENT)", o.files[1], p[1].events[ev[1]],
                   p[0].events[ev[0]]);
            goto out;
        }
        rank_build(&p[k], o.by, o.inclusive, &r[k]);
        qsort(r[k].rows, r[k].n, sizeof *r[k].rows, cmp_row_name);
    }

    /* Merge the two name-sorted row lists. */
    size_t nch = 0, i = 0, j = 0;
    ch = cu_calloc(r[0].n + r[1].n, sizeof *ch);
    while (i < r[0].n || j < r[1].n) {
        const rank_row_t *a = i < r[0].n ? &r[0].rows[i] : NULL;
        const rank_row_t *b = j < r[1].n ? &r[1].rows[j] : NULL;
        int c = !a ? 1 : !b ? -1 : cmp_row_name(a, b);
        change_t x;
        if (c == 0 || (a && b && same_row(a, b))) {
            x = (change_t){a->label, a->func, *a->object ? a->object : b->object,
                           a->cost[ev[0]], b->cost[ev[1]]};
            i++, j++;
        } else if (c < 0) {
            x = (change_t){a->label, a->func, a->object, a->cost[ev[0]], 0};
            i++;
        } else {
            x = (change_t){b->label, b->func, b->object, 0, b->cost[ev[1]]};
            j++;
        }
        if (x.base != x.new)
            ch[nch++] = x;
    }
    qsort(ch, nch, sizeof *ch, cmp_change);

    const char *evname = p[0].events[ev[0]];
    uint64_t tb = p[0].totals[ev[0]], tn = p[1].totals[ev[1]];
    char b1[32], b2[32], b3[32], b4[32];

    rc_rule(stdout);
    printf("Base:             %s (%s)\n", o.files[0],
           p[0].cmd ? p[0].cmd : "unknown command");
    printf("New:              %s (%s)\n", o.files[1],
           p[1].cmd ? p[1].cmd : "unknown command");
    printf("Event:            %s\n", evname);
    printf("Ranking:          %s cost by %s, by size of change\n",
           o.inclusive ? "inclusive" : "self", rank_by_name(o.by));
    rc_rule(stdout);
    printf("\nTotal %s: %s -> %s  %s (", cg_event_long_name(evname),
           cu_commify(tb, b1), cu_commify(tn, b2),
           cu_commify_signed((int64_t)(tn - tb), b3));
    fmt_growth(b4, sizeof b4, tb, tn);
    printf("%s)\n\n", tb == tn ? "unchanged" : b4);

    /* Rows to show. */
    size_t shown = 0;
    for (size_t k = 0; k < nch; k++) {
        if (o.top && shown == o.top)
            break;
        if (o.threshold > 0 &&
            (double)magnitude(&ch[k]) * 100.0 < o.threshold * (double)tb)
            break; /* sorted by magnitude: the rest are smaller */
        shown++;
    }
    if (!nch) {
        printf("No %s differs.\n", o.by == BY_FUNCTION ? "function"
                                   : o.by == BY_FILE   ? "file"
                                   : o.by == BY_LINE   ? "line"
                                                       : "object");
    } else {
        size_t wd = 5, wb = 4, wn = 3;
        for (size_t k = 0; k < shown; k++) {
            size_t l;
            if ((l = strlen(cu_commify_signed(delta(&ch[k]), b1))) > wd)
                wd = l;
            if ((l = strlen(cu_commify(ch[k].base, b1))) > wb)
                wb = l;
            if ((l = strlen(cu_commify(ch[k].new, b1))) > wn)
                wn = l;
        }
        static const char *const what[] = {"file:function", "file",
                                           "file:line function", "object"};
        printf("%*s  %8s  %*s  %*s  %s\n", (int)wd, "delta", "change",
               (int)wb, "base", (int)wn, "new", what[o.by]);
        for (size_t k = 0; k < shown; k++) {
            const change_t *c = &ch[k];
            fmt_growth(b4, sizeof b4, c->base, c->new);
            printf("%*s  %8s  %*s  %*s  %s", (int)wd,
                   cu_commify_signed(delta(c), b1), b4, (int)wb,
                   cu_commify(c->base, b2), (int)wn, cu_commify(c->new, b3),
                   c->label);
            if (c->func)
                printf(" %s", c->func);
            if (c->object && *c->object)
                printf(" [%s]", c->object);
            putchar('\n');
        }
        if (nch > shown)
            printf("\n(%zu more changes not shown; -n 0 shows all)\n",
                   nch - shown);
    }
    region_table_t regions[2];
    const char *region_worst = NULL;
    size_t regions_grown;
    if (region_table_load("diff", o.files[0], &regions[0]) < 0)
        goto out;
    if (region_table_load("diff", o.files[1], &regions[1]) < 0) {
        region_table_free(&regions[0]);
        goto out;
    }
    regions_grown = region_table_diff(stdout, &regions[0], &regions[1],
                                      o.have_fail ? o.fail_above : -1,
                                      &region_worst);
    if (fflush(stdout) != 0) {
        cu_err("diff", "error writing the output");
        region_table_free(&regions[0]);
        region_table_free(&regions[1]);
        goto out;
    }

    rc = 0;
    if (o.have_fail) {
        /* The gate: the total, then every listed row. */
        double g = growth(tb, tn);
        const char *who = NULL;
        double gw = 0;
        size_t count = 0;
        int by_region = 0;
        if (g > o.fail_above) {
            who = "the total";
            gw = g;
            count++;
        }
        for (size_t k = 0; k < shown; k++) {
            double gk = growth(ch[k].base, ch[k].new);
            if (gk > o.fail_above) {
                if (!who) {
                    who = ch[k].label;
                    gw = gk;
                }
                count++;
            }
        }
        if (regions_grown) {
            if (!who) {
                for (size_t k = 0; k < regions[1].n; k++)
                    if (strcmp(regions[1].rows[k].name, region_worst) == 0) {
                        const region_row_t *nr = &regions[1].rows[k];
                        uint64_t b = 0;
                        for (size_t m = 0; m < regions[0].n; m++)
                            if (strcmp(regions[0].rows[m].name,
                                       nr->name) == 0)
                                b = regions[0].rows[m].inclusive;
                        gw = growth(b, nr->inclusive);
                    }
                who = region_worst;
                by_region = 1;
            }
            count += regions_grown;
        }
        if (count) {
            char gs[32];
            if (isinf(gw))
                snprintf(gs, sizeof gs, "new");
            else
                snprintf(gs, sizeof gs, "%+.2f%%", gw);
            char more[48] = "";
            if (count > 1)
                snprintf(more, sizeof more, " and %zu more", count - 1);
            if (by_region)
                cu_err("diff", "%s grew by more than --fail-above=%g%%: "
                       "region %s (%s)%s", evname, o.fail_above,
                       region_worst, gs, more);
            else
                cu_err("diff", "%s grew by more than --fail-above=%g%%: "
                       "%s (%s)%s", evname, o.fail_above, who, gs, more);
            rc = EXIT_GREW;
        }
    }
    region_table_free(&regions[0]);
    region_table_free(&regions[1]);
out:
    free(ch);
    for (int k = 0; k < 2; k++) {
        rank_free(&r[k]);
        cg_free(&p[k]);
    }
    return rc;
}
