/* See diff_json.h. */
#include "write/diff_json.h"
#include "write/json_out.h"
#include "write/report_json.h"

#include "util/cmdutil.h"

#include <stdlib.h>
#include <string.h>

static const char *status(uint64_t base, uint64_t new)
{
    if (base == new)
        return "unchanged";
    if (base == 0)
        return "new";
    if (new == 0)
        return "gone";
    return new > base ? "grew" : "shrank";
}

/* base, new, delta, change_pct (null when new or gone), status. */
static void numbers(json_t *j, uint64_t base, uint64_t new)
{
    json_key(j, "base");
    json_u64(j, base);
    json_key(j, "new");
    json_u64(j, new);
    json_key(j, "delta");
    json_i64(j, dm_delta(base, new));
    json_key(j, "change_pct");
    if (base == 0)
        json_null(j);
    else
        json_num(j, dm_growth(base, new));
    json_key(j, "status");
    json_str(j, status(base, new));
}

/* A stack's frames, root first, from its label "a;b;c" (the readers keep
 * ';' out of frame names). */
static void frames(json_t *j, const char *label)
{
    json_open_arr(j);
    for (const char *p = label; p;) {
        const char *e = strchr(p, ';');
        char *f = cu_strndup(p, e ? (size_t)(e - p) : strlen(p));
        json_str(j, f);
        free(f);
        p = e ? e + 1 : NULL;
    }
    json_close_arr(j);
}

static void stack_change(json_t *j, const change_t *c)
{
    json_open_obj(j);
    json_key(j, "label");
    json_str(j, c->row->label);
    json_key(j, "frames");
    frames(j, c->row->label);
    if (c->renamed) {
        json_key(j, "base_frames");
        frames(j, c->base_row->label);
    }
    numbers(j, c->base, c->new);
    json_close_obj(j);
}

static void change(json_t *j, const diff_result_t *d, const change_t *c)
{
    if (d->by == BY_STACK) {
        stack_change(j, c);
        return;
    }
    json_open_obj(j);
    rj_row_name(j, c->row, d->by);
    if (c->renamed) {
        json_key(j, "base_label");
        json_str(j, c->base_row->label);
    }
    numbers(j, c->base, c->new);
    json_close_obj(j);
}

/* The rules that rewrote names before matching, in the order they apply:
 * {"rule":"mod-filename"|"mod-funcname","expr":...}, then
 * {"rule":"common-root","base":...,"new":...,"files":N} for each root. */
static void matched_by(json_t *j, const dm_rules_t *ru)
{
    static const char *const what[2] = {"mod-filename", "mod-funcname"};
    const name_subst_t *subs[2] = {ru->mod_file, ru->mod_func};
    size_t n[2] = {ru->nmod_file, ru->nmod_func};
    json_open_arr(j);
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < n[k]; i++) {
            json_open_obj(j);
            json_key(j, "rule");
            json_str(j, what[k]);
            json_key(j, "expr");
            json_str(j, subs[k][i].expr);
            json_close_obj(j);
        }
    for (size_t k = 0; k < ru->nroots; k++) {
        json_open_obj(j);
        json_key(j, "rule");
        json_str(j, "common-root");
        json_key(j, "base");
        json_str(j, ru->roots[k].base);
        json_key(j, "new");
        json_str(j, ru->roots[k].new);
        json_key(j, "files");
        json_u64(j, ru->roots[k].files);
        json_close_obj(j);
    }
    json_close_arr(j);
}

static void region(json_t *j, const region_change_t *r)
{
    json_open_obj(j);
    json_key(j, "region");
    json_str(j, r->name);
    numbers(j, r->base, r->new);
    json_close_obj(j);
}

void dj_write(FILE *out, const diff_result_t *d)
{
    json_t j;
    json_begin(&j, out);
    json_key(&j, "schema");
    json_str(&j, "cycprof-diff/1");
    static const char *const side[2] = {"base", "new"};
    for (int k = 0; k < 2; k++) {
        json_key(&j, side[k]);
        json_open_obj(&j);
        json_key(&j, "file");
        json_str(&j, d->files[k]);
        json_key(&j, "command");
        json_str(&j, d->cmds[k]);
        json_key(&j, "deterministic");
        json_str(&j, d->deterministic[k]);
        json_close_obj(&j);
    }
    json_key(&j, "event");
    json_str(&j, d->event);
    json_key(&j, "by");
    json_str(&j, rank_by_name(d->by));
    json_key(&j, "inclusive");
    json_bool(&j, d->inclusive);
    json_key(&j, "matched_by");
    matched_by(&j, d->rules);
    json_key(&j, "total");
    json_open_obj(&j);
    numbers(&j, d->total[0], d->total[1]);
    json_close_obj(&j);
    json_key(&j, "rows");
    json_open_arr(&j);
    for (size_t k = 0; k < d->shown; k++)
        change(&j, d, &d->ch[k]);
    json_close_arr(&j);
    json_key(&j, "omitted");
    json_u64(&j, d->nch - d->shown);
    json_key(&j, "regions");
    json_open_arr(&j);
    for (size_t k = 0; k < d->nrch; k++)
        region(&j, &d->rch[k]);
    json_close_arr(&j);

    json_key(&j, "gate");
    json_open_obj(&j);
    json_key(&j, "fail_above_pct");
    if (d->gate_on)
        json_num(&j, d->fail_above);
    else
        json_null(&j);
    json_key(&j, "min_change");
    json_u64(&j, d->min_change);
    json_key(&j, "verdict");
    json_str(&j, !d->gate_on ? "off" : d->ntripped ? "fail" : "pass");
    json_key(&j, "total_tripped");
    json_bool(&j, d->total_tripped);
    json_key(&j, "tripped");
    json_open_arr(&j);
    for (size_t k = 0; k < d->shown; k++)
        if (d->tripped[k])
            change(&j, d, &d->ch[k]);
    json_close_arr(&j);
    json_key(&j, "tripped_regions");
    json_open_arr(&j);
    for (size_t k = 0; k < d->nrch; k++)
        if (d->rch[k].tripped)
            region(&j, &d->rch[k]);
    json_close_arr(&j);
    json_close_obj(&j);
    json_end(&j);
}
