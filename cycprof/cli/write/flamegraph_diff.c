/* See flamegraph_diff.h. Each view is built with the "flow" merge of
 * flamegraph_svg.c over the stacks sorted by name, with every stack of
 * both sides in the walk (a stack the view's side lacks is zero wide), so
 * each box sums BASE's and NEW's counts of all the stacks through it. */
#include "write/flamegraph_diff.h"
#include "util/cmdutil.h"
#include "analyse/diff_match.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct dbox {
    uint32_t key;           /* id in d->keys, UINT32_MAX for the root */
    uint32_t depth;
    uint64_t start, width;  /* in the view's counts */
    uint64_t base, new;     /* inclusive counts of both sides */
} dbox_t;

typedef struct view {
    dbox_t *v;
    size_t n, cap;
    uint32_t maxdepth;
} view_t;

/* The boxes open while walking: per depth, its start and sums. */
typedef struct open_box {
    uint64_t start, base, new;
} open_box_t;

static void close_box(view_t *fr, const stack_diff_t *d, const sd_stack_t *s,
                      uint32_t depth, const open_box_t *ob, uint64_t x)
{
    cu_grow(&fr->v, &fr->cap, fr->n + 1, sizeof *fr->v);
    fr->v[fr->n++] = (dbox_t){d->frames[s->off + depth], depth + 1, ob->start,
                              x - ob->start, ob->base, ob->new};
    if (depth + 1 > fr->maxdepth)
        fr->maxdepth = depth + 1;
}

/* side 0: BASE's shape, 1: NEW's. */
static void build_view(const stack_diff_t *d, int side, view_t *fr)
{
    open_box_t *open = NULL;
    size_t open_cap = 0;
    const sd_stack_t *prev = NULL;
    uint64_t x = 0, tb = 0, tn = 0;
    for (size_t i = 0; i <= d->n; i++) {
        const sd_stack_t *s = i < d->n ? &d->stacks[i] : NULL;
        uint32_t common = 0;
        if (prev && s)
            while (common < prev->depth && common < s->depth &&
                   d->frames[prev->off + common] == d->frames[s->off + common])
                common++;
        if (prev)
            for (uint32_t k = prev->depth; k-- > common;)
                close_box(fr, d, prev, k, &open[k], x);
        if (!s)
            break;
        cu_grow(&open, &open_cap, s->depth, sizeof *open);
        for (uint32_t k = common; k < s->depth; k++)
            open[k] = (open_box_t){x, 0, 0};
        for (uint32_t k = 0; k < s->depth; k++) {
            open[k].base += s->base;
            open[k].new += s->new;
        }
        tb += s->base;
        tn += s->new;
        x += side ? s->new : s->base;
        prev = s;
    }
    cu_grow(&fr->v, &fr->cap, fr->n + 1, sizeof *fr->v);
    fr->v[fr->n++] = (dbox_t){UINT32_MAX, 0, 0, x, tb, tn};
    free(open);
}

/* Red for growth, blue for shrinkage, scaled by the largest change of any
 * box below the root (flamegraph.pl's differential colours); pale grey
 * when unchanged (a shade no change has). */
static void diff_color(uint64_t base, uint64_t new, uint64_t maxchange,
                       int rgb[3])
{
    if (base == new || !maxchange) {
        rgb[0] = rgb[1] = rgb[2] = 222;
        return;
    }
    double r = (double)dm_magnitude(base, new) / (double)maxchange;
    if (r > 1)
        r = 1;
    int pale = 210 - (int)(190 * r);
    if (new > base)
        rgb[0] = 255, rgb[1] = pale, rgb[2] = pale;
    else
        rgb[0] = pale, rgb[1] = pale, rgb[2] = 255;
}

static void box_details(char *buf, size_t len, const dbox_t *b,
                        const char *unit)
{
    char nb[32], nn[32], nd[32], pct[32];
    if (b->base == b->new)
        snprintf(pct, sizeof pct, "unchanged");
    else if (!b->base)
        snprintf(pct, sizeof pct, "new");
    else if (!b->new)
        snprintf(pct, sizeof pct, "gone");
    else
        snprintf(pct, sizeof pct, "%+.2f%%", dm_growth(b->base, b->new));
    snprintf(buf, len, "%s -> %s %s (%s, %s)", cu_commify(b->base, nb),
             cu_commify(b->new, nn), unit,
             cu_commify_signed(dm_delta(b->base, b->new), nd), pct);
}

static void write_view(FILE *f, const stack_diff_t *d, const fg_opts_t *o,
                       const view_t *fr, int side, int height,
                       uint64_t maxchange)
{
    static const char *const label[2] = {"BASE's shape", "NEW's shape"};
    uint64_t total = side ? d->total[1] : d->total[0];
    double scale = total ? (double)(o->width - 2 * FG_PAD) / (double)total : 0;
    /* The toggle names the other view. */
    fprintf(f, "<g class=\"view\" data-side=\"%s\" data-total=\"%llu\" "
               "data-label=\"Show %s\"%s>\n", side ? "new" : "base",
            (unsigned long long)total, label[side],
            side ? "" : " style=\"display:none\"");
    char details[512], attrs[96];
    for (size_t i = fr->n; i-- > 0;) { /* root first: drawn below */
        const dbox_t *bx = &fr->v[i];
        fg_box_t b = {0};
        b.w = (double)bx->width * scale;
        if ((!bx->width || b.w < o->minwidth) && bx->depth > 0)
            continue;
        b.name = bx->key == UINT32_MAX ? "all" : d->name[bx->key];
        b.x = FG_PAD + (double)bx->start * scale;
        b.y = height - FG_BOTTOM - (int)(bx->depth + 1) * FG_FRAME_H;
        diff_color(bx->base, bx->new, maxchange, b.rgb);
        box_details(details, sizeof details, bx, fg_unit(o));
        b.details = details;
        snprintf(attrs, sizeof attrs, " data-b=\"%llu\" data-w=\"%llu\"",
                 (unsigned long long)bx->base, (unsigned long long)bx->new);
        b.attrs = attrs;
        b.start = bx->start;
        b.count = bx->width;
        b.depth = bx->depth;
        fg_box(f, &b);
    }
    fputs("</g>\n", f);
}

int fg_write_diff_svg(FILE *f, const stack_diff_t *d, const fg_opts_t *o)
{
    view_t v[2];
    memset(v, 0, sizeof v);
    build_view(d, 0, &v[0]);
    build_view(d, 1, &v[1]);
    uint64_t maxchange = 0;
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < v[k].n; i++)
            if (v[k].v[i].depth > 0 &&
                dm_magnitude(v[k].v[i].base, v[k].v[i].new) > maxchange)
                maxchange = dm_magnitude(v[k].v[i].base, v[k].v[i].new);
    uint32_t maxdepth = v[0].maxdepth > v[1].maxdepth ? v[0].maxdepth
                                                      : v[1].maxdepth;
    int height = FG_TOP + (int)(maxdepth + 1) * FG_FRAME_H + FG_BOTTOM;
    fg_begin(f, o, height, d->total[1], "#toggle { cursor: pointer; }\n");
    /* The second control line: which shape is shown, and the legend. */
    fprintf(f, "<text id=\"toggle\" x=\"%d\" y=\"42\">Show BASE's shape</text>\n",
            FG_PAD);
    fprintf(f, "<text id=\"legend\" x=\"%d\" y=\"42\" style=\"text-anchor:end\">"
               "red: grew, blue: shrank (NEW - BASE)</text>\n",
            o->width - FG_PAD);
    write_view(f, d, o, &v[1], 1, height, maxchange);
    write_view(f, d, o, &v[0], 0, height, maxchange);
    free(v[0].v);
    free(v[1].v);
    return fg_end(f);
}
