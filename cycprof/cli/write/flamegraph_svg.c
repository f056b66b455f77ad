/* See flamegraph_svg.h. Frames come from the name-sorted stacks with the
 * "flow" merge of flamegraph.pl: walking the sorted stacks, a frame opens
 * where a stack starts to differ from the previous one and closes where
 * the next one stops sharing it, so each node of the call tree becomes one
 * rectangle spanning [start, end) in counts. */
#include "write/flamegraph_svg.h"
#include "util/cmdutil.h"
#include "write/flamegraph_js.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>


typedef struct frame {
    uint32_t name;   /* id in sp->names, or UINT32_MAX for the root */
    uint32_t depth;
    uint64_t start, count;
} frame_t;

typedef struct frames {
    frame_t *v;
    size_t n, cap;
    uint32_t maxdepth;
} frames_t;

/* Write s as XML character data, replacing invalid UTF-8 and control
 * characters by '?': names come from the profiled program's symbols and a
 * single bad byte would make the browser refuse the whole file. */
static void xml_escape(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        if (c < 0x80) {
            if (c == '&')
                fputs("&amp;", f);
            else if (c == '<')
                fputs("&lt;", f);
            else if (c == '>')
                fputs("&gt;", f);
            else if (c == '"')
                fputs("&quot;", f);
            else if (c < 0x20 || c == 0x7f)
                fputc('?', f);
            else
                fputc((int)c, f);
            p++;
            continue;
        }
        int len = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
        if (c > 0xf4)
            len = 0;
        int ok = len > 0;
        for (int i = 1; ok && i < len; i++)
            ok = (p[i] & 0xc0) == 0x80;
        /* Reject overlong, surrogate and out-of-range forms. */
        if (ok && len == 3 && ((c == 0xe0 && p[1] < 0xa0) ||
                               (c == 0xed && p[1] >= 0xa0)))
            ok = 0;
        if (ok && len == 4 && ((c == 0xf0 && p[1] < 0x90) ||
                               (c == 0xf4 && p[1] >= 0x90)))
            ok = 0;
        if (!ok) {
            fputc('?', f);
            p++;
            continue;
        }
        fwrite(p, 1, (size_t)len, f);
        p += len;
    }
}

static void push(frames_t *fr, uint32_t name, uint32_t depth, uint64_t start,
                 uint64_t end)
{
    cu_grow(&fr->v, &fr->cap, fr->n + 1, sizeof *fr->v);
    fr->v[fr->n++] = (frame_t){name, depth, start, end - start};
    if (depth > fr->maxdepth)
        fr->maxdepth = depth;
}

static void build_frames(const stack_profile_t *sp, frames_t *fr)
{
    /* open[d] = start of the frame open at depth d+1 (depth 0 is root). */
    uint64_t *open = NULL;
    size_t open_cap = 0;
    const sp_stack_t *prev = NULL;
    uint64_t x = 0;
    for (size_t i = 0; i <= sp->n; i++) {
        const sp_stack_t *s = i < sp->n ? &sp->stacks[i] : NULL;
        if (s && !s->count)
            continue;
        uint32_t common = 0;
        if (prev && s)
            while (common < prev->depth && common < s->depth &&
                   sp->frames[prev->off + common] == sp->frames[s->off + common])
                common++;
        if (prev)
            for (uint32_t d = prev->depth; d-- > common;)
                push(fr, sp->frames[prev->off + d], d + 1, open[d], x);
        if (!s)
            break;
        cu_grow(&open, &open_cap, s->depth, sizeof *open);
        for (uint32_t d = common; d < s->depth; d++)
            open[d] = x;
        x += s->count;
        prev = s;
    }
    push(fr, UINT32_MAX, 0, 0, x);
    free(open);
}

/* flamegraph.pl's "hot" palette, but seeded by the name so that a function
 * keeps its colour across graphs and zoom levels. */
static void color(const char *name, int *r, int *g, int *b)
{
    uint64_t h = 1469598103934665603ull;
    for (const char *p = name; *p; p++) {
        h ^= (unsigned char)*p;
        h *= 1099511628211ull;
    }
    double v1 = (double)(h & 0xff) / 255.0;
    double v2 = (double)((h >> 8) & 0xff) / 255.0;
    double v3 = (double)((h >> 16) & 0xff) / 255.0;
    *r = 205 + (int)(50 * v3);
    *g = (int)(230 * v1);
    *b = (int)(55 * v2);
}

void fg_begin(FILE *f, const fg_opts_t *o, int height, uint64_t total,
              const char *extra_style)
{
    int width = o->width;
    fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
               "<svg version=\"1.1\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\" "
               "data-width=\"%d\" data-total=\"%llu\" data-unit=\"",
            width, height, width, height, width, (unsigned long long)total);
    xml_escape(f, fg_unit(o));
    fputs("\">\n<style>\n"
          "text { font-family: Verdana, sans-serif; font-size: 12px; fill: #000; }\n"
          "g.f:hover rect { stroke: #000; stroke-width: 0.5; cursor: pointer; }\n"
          "g.f text { pointer-events: none; }\n"
          "#title { font-size: 17px; text-anchor: middle; }\n"
          "#subtitle { fill: #555; text-anchor: middle; }\n"
          "#unzoom, #search { cursor: pointer; }\n"
          "#search, #matched { text-anchor: end; }\n", f);
    if (extra_style)
        fputs(extra_style, f);
    fputs("</style>\n", f);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f8f8ee\"/>\n",
            width, height);
    fprintf(f, "<text id=\"title\" x=\"%d\" y=\"24\">", width / 2);
    xml_escape(f, o->title ? o->title : "Flame Graph");
    fputs("</text>\n", f);
    fprintf(f, "<text id=\"subtitle\" x=\"%d\" y=\"42\">", width / 2);
    if (o->subtitle)
        xml_escape(f, o->subtitle);
    fputs("</text>\n", f);
    fprintf(f, "<text id=\"unzoom\" x=\"%d\" y=\"24\" style=\"opacity:0\">Reset Zoom</text>\n",
            FG_PAD);
    fprintf(f, "<text id=\"search\" x=\"%d\" y=\"24\">Search</text>\n", width - FG_PAD);
    fprintf(f, "<text id=\"matched\" x=\"%d\" y=\"%d\"></text>\n", width - FG_PAD,
            height - 10);
    fprintf(f, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n", FG_PAD,
            height - 10);
}

const char *fg_unit(const fg_opts_t *o)
{
    return o->unit ? o->unit : "samples";
}

void fg_box(FILE *f, const fg_box_t *b)
{
    fprintf(f, "<g class=\"f\" data-s=\"%llu\" data-n=\"%llu\" data-d=\"%u\"",
            (unsigned long long)b->start, (unsigned long long)b->count,
            b->depth);
    if (b->attrs)
        fputs(b->attrs, f);
    fputs("><title>", f);
    xml_escape(f, b->name);
    fputc('\n', f);
    xml_escape(f, b->details);
    fputs("</title>", f);
    fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
               "fill=\"rgb(%d,%d,%d)\" rx=\"2\" ry=\"2\"/>",
            b->x, b->y, b->w, FG_FRAME_H - 1, b->rgb[0], b->rgb[1], b->rgb[2]);
    /* The label is refitted by the script; this one is for viewers
     * without JavaScript. */
    size_t max = b->w > 6 ? (size_t)((b->w - 6) / 7) : 0;
    fprintf(f, "<text x=\"%.1f\" y=\"%d\">", b->x + 3, b->y + 11);
    if (max >= 3) {
        size_t n = strlen(b->name);
        if (n <= max) {
            xml_escape(f, b->name);
        } else {
            /* Cut at a UTF-8 character boundary. */
            size_t cut = max - 2;
            while (cut > 0 && ((unsigned char)b->name[cut] & 0xc0) == 0x80)
                cut--;
            char *t = cu_strndup(b->name, cut);
            xml_escape(f, t);
            free(t);
            fputs("..", f);
        }
    }
    fputs("</text></g>\n", f);
}

int fg_end(FILE *f)
{
    fputs("<script type=\"text/ecmascript\"><![CDATA[\n", f);
    fputs(flamegraph_js, f);
    fputs("]]></script>\n</svg>\n", f);
    return ferror(f) ? -1 : 0;
}

int fg_write_svg(FILE *f, const stack_profile_t *sp, const fg_opts_t *o)
{
    frames_t fr = {0};
    build_frames(sp, &fr);
    uint64_t total = sp->total;
    int width = o->width;
    double scale = total ? (double)(width - 2 * FG_PAD) / (double)total : 0;
    int height = FG_TOP + (int)(fr.maxdepth + 1) * FG_FRAME_H + FG_BOTTOM;
    const char *unit = fg_unit(o);

    fg_begin(f, o, height, total, NULL);
    char num[32], pct[32], details[256];
    for (size_t i = fr.n; i-- > 0;) { /* root first: drawn below its children */
        const frame_t *fm = &fr.v[i];
        fg_box_t b = {0};
        b.w = (double)fm->count * scale;
        if (b.w < o->minwidth && fm->depth > 0)
            continue;
        b.name = fm->name == UINT32_MAX ? "all" : sp->names.str[fm->name];
        b.x = FG_PAD + (double)fm->start * scale;
        b.y = height - FG_BOTTOM - (int)(fm->depth + 1) * FG_FRAME_H;
        if (fm->depth == 0) {
            b.rgb[0] = 235, b.rgb[1] = 145, b.rgb[2] = 60;
        } else {
            color(b.name, &b.rgb[0], &b.rgb[1], &b.rgb[2]);
        }
        snprintf(details, sizeof details, "%s %s, %s", cu_commify(fm->count, num),
                 unit, cu_pct(fm->count, total, pct, sizeof pct));
        b.details = details;
        b.start = fm->start;
        b.count = fm->count;
        b.depth = fm->depth;
        fg_box(f, &b);
    }
    free(fr.v);
    return fg_end(f);
}
