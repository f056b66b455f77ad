/* Writes a stack_profile as a self-contained interactive SVG flame graph
 * (root at the bottom, width proportional to the exact count). */
#ifndef CYCPROF_FLAMEGRAPH_SVG_H
#define CYCPROF_FLAMEGRAPH_SVG_H

#include <stdint.h>
#include <stdio.h>

#include "model/stack_profile.h"

typedef struct fg_opts {
    const char *title;   /* heading; NULL: "Flame Graph" */
    const char *subtitle;/* second line, e.g. the command; may be NULL */
    const char *unit;    /* what counts are, e.g. "instructions" */
    int width;           /* pixels */
    double minwidth;     /* frames narrower than this (pixels) are left out */
} fg_opts_t;

/* sp must be sorted by name (sp_sort_by_name). Returns -1 on write error. */
int fg_write_svg(FILE *f, const stack_profile_t *sp, const fg_opts_t *o);

/* The parts every flame graph SVG is made of, for the writers of other
 * kinds (flamegraph_diff.h). Geometry in pixels: */
#define FG_FRAME_H 16
#define FG_PAD 10
#define FG_TOP 60    /* room for title, search, zoom controls */
#define FG_BOTTOM 30 /* room for the details line */

/* One box: <g class="f" data-s data-n data-d ATTRS> with a <title>
 * "NAME\nDETAILS", a <rect> and a <text>. */
typedef struct fg_box {
    const char *name, *details;
    const char *attrs;      /* more attributes (" data-x=\"1\""), or NULL */
    uint64_t start, count;  /* in counts: what the script lays out */
    uint32_t depth;
    double x, w;
    int y;
    int rgb[3];
} fg_box_t;

/* The document up to the boxes: the root <svg> (data-total TOTAL), the
 * style (plus EXTRA_STYLE, or NULL), title, subtitle and controls. */
void fg_begin(FILE *f, const fg_opts_t *o, int height, uint64_t total,
              const char *extra_style);
void fg_box(FILE *f, const fg_box_t *b);
/* The script and the end; -1 on write error. */
int fg_end(FILE *f);
/* o->unit, or "samples". */
const char *fg_unit(const fg_opts_t *o);

#endif
