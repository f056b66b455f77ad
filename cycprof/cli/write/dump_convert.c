/* dump_convert: see dump_convert.h. */
#define _POSIX_C_SOURCE 200809L
#include "write/dump_convert.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cmdutil.h"
#include "analyse/stack_merge.h"
#include "write/gzip_stream.h"
#include "write/inline_renamer.h"
#include "write/pprof_writer.h"

/* zlib level 1, as `cycprof pprof` writes by default. */
#define LOAD_LEVEL 1

/* The cut stacks of deep recursions (see sr_stack) are merged in memory
 * up to this size; beyond it they are written one by one. */
#define MERGE_MAX_BYTES ((size_t)256 << 20)

/* Where sr_stack left frames out: one location of its own, defined on
 * first use with ids after the dump's. */
struct elision {
    uint64_t last_fn, last_loc;  /* the dump's highest ids */
    uint64_t loc;                /* 0 until defined */
};

static int elision_loc(struct pprof_writer *w, struct elision *el)
{
    if (el->loc)
        return 0;
    struct pw_line line = { el->last_fn + 1, 0 };
    if (pw_function(w, el->last_fn + 1, "(frames of a deep stack left out)",
                    "(frames of a deep stack left out)", "", 0) != 0 ||
        pw_location(w, el->last_loc + 1, 0, 0, &line, 1) != 0)
        return -1;
    el->loc = el->last_loc + 1;
    return 0;
}

/* A sample with a region label for each region of its set. */
static int write_sample(struct pprof_writer *w, const struct stacks_reader *r,
                        const uint64_t *stack, size_t n, int64_t count,
                        int64_t thread, uint64_t region)
{
    const char *regions[64];
    size_t nregions = sr_region_names(r, region, regions, 64);
    return pw_sample_in_regions(w, stack, n, count, thread, regions,
                                nregions);
}

/* A sample whose stack was cut goes to the merge table, others straight
 * to the writer. */
static int put_sample(struct pprof_writer *w, const struct stacks_reader *r,
                      struct stack_merge *m, struct elision *el,
                      uint64_t *stack, size_t n, int64_t count,
                      int64_t thread, uint64_t region)
{
    size_t cut = SR_MAX_FRAMES - SR_KEEP_OUTER - 1;
    if (n == SR_MAX_FRAMES && stack[cut] == 0) {
        if (elision_loc(w, el) != 0)
            return -1;
        stack[cut] = el->loc;
        if (sm_add(m, stack, n, count, thread, region))
            return 0;
    }
    return write_sample(w, r, stack, n, count, thread, region);
}

static int put_merged(struct pprof_writer *w, const struct stacks_reader *r,
                      const struct stack_merge *m)
{
    for (size_t i = 0; i < sm_count(m); i++) {
        const uint64_t *locs;
        size_t n;
        int64_t count, thread;
        uint64_t region;
        sm_get(m, i, &locs, &n, &count, &thread, &region);
        if (write_sample(w, r, locs, n, count, thread, region) != 0)
            return -1;
    }
    return 0;
}

/* Feeds every record of the dump to the writer, at line level. */
static int convert(struct stacks_reader *r, struct pprof_writer *w,
                   const char *out_name, char *err, size_t errlen)
{
    struct elision el = { 0, 0, 0 };
    struct stack_merge *merge = sm_new(MERGE_MAX_BYTES);
    struct sr_record rec;
    uint64_t *stack = NULL;
    size_t stack_cap = 0;
    struct pw_line *lines = NULL;
    size_t lines_cap = 0;
    int rc;

    struct inline_renamer *ren = ir_new();
    while ((rc = sr_next(r, &rec)) == 1) {
        int wr = 0;
        switch (rec.kind) {
        case SR_MAP:
        case SR_FN:
            if (rec.kind == SR_FN)
                el.last_fn = rec.fn.id;
            wr = pc_put_definition(w, ren, &rec);
            break;
        case SR_LOC:
            if (rec.loc.nlines > lines_cap) {
                lines = cu_realloc(lines, rec.loc.nlines * sizeof *lines);
                lines_cap = rec.loc.nlines;
            }
            for (size_t i = 0; i < rec.loc.nlines; i++) {
                lines[i].function_id = rec.loc.lines[i].fn;
                lines[i].line = rec.loc.lines[i].line;
            }
            el.last_loc = rec.loc.id;
            wr = ir_location(ren, w, &rec, lines);
            el.last_fn = ir_last_function(ren);
            if (wr == 0)
                wr = pw_location(w, rec.loc.id, rec.loc.map_id, rec.loc.address,
                             lines, rec.loc.nlines);
            if (wr == 0 && sr_header(r)->zk_first_loc &&
                rec.loc.id >= sr_header(r)->zk_first_loc)
                pw_zk_location(w, rec.loc.id);
            break;
        case SR_NODE:            /* kept by the reader for sr_stack */
            break;
        case SR_SAMPLE: {
            size_t n = sr_stack(r, rec.sample.node, rec.sample.loc, &stack,
                                &stack_cap);
            wr = put_sample(w, r, merge, &el, stack, n, rec.sample.count,
                            (int64_t)rec.sample.thread, rec.sample.region);
            break;
        }
        case SR_END:
            wr = put_merged(w, r, merge);
            break;
        }
        if (wr != 0)
            break;
    }
    free(stack);
    free(lines);
    sm_free(merge);
    ir_free(ren);
    if (rc < 0) {
        snprintf(err, errlen, "%s", sr_error(r));
        return -1;
    }
    if (rc != 0) {               /* the writer failed */
        snprintf(err, errlen, "%s: %s", out_name, pw_error(w));
        return -1;
    }
    return 0;
}

/* The dump's last line, `end N`, says how many samples it has; the
 * conversion checks it again. A dump without it is not valid (the reader
 * requires it, and the tool has always written it): 0 here, and the
 * line-level conversion rejects it as truncated. `end N M` says its
 * samples are per function, M the line-level count: *line_samples = M,
 * else 0. */
static uint64_t count_samples(const char *dump, uint64_t *line_samples)
{
    char tail[96];
    uint64_t n = 0;
    *line_samples = 0;
    FILE *f = fopen(dump, "rb");
    if (f && fseek(f, -(long)(sizeof tail - 1), SEEK_END) != 0)
        rewind(f);
    size_t got = f ? fread(tail, 1, sizeof tail - 1, f) : 0;
    if (f)
        fclose(f);
    tail[got] = 0;
    char *end = strstr(tail, "\nend\t");
    if (end && sscanf(end, "\nend\t%" SCNu64 "\t%" SCNu64, &n,
                      line_samples) < 2)
        *line_samples = 0;
    return n;
}

uint64_t dc_coarse_limit(const char *dump, uint64_t max, int per_function,
                         int follow)
{
    uint64_t line_samples = 0;
    uint64_t n = follow ? 0 : count_samples(dump, &line_samples);
    if (per_function || line_samples)
        return max ? max : UINT64_MAX;
    return max && n > max ? max : 0;
}

/* With a zkVM model: the second sample type, and the model and its
 * segment table as comments (docs/zkvm.md). */
static void start_zkvm(struct stacks_reader *r, struct pprof_writer *w)
{
    const struct sr_header *h = sr_header(r);
    char line[512];
    if (!h->zk_model)
        return;
    pw_zkvm(w);
    for (size_t i = 0; i < h->zk_table_lines; i++) {
        snprintf(line, sizeof line, "cycprof-zkvm: %s", h->zk_table[i]);
        pw_comment(w, line);
    }
}

int dc_write(struct stacks_reader *r, FILE *f, int level,
             uint64_t coarse_max, const char *out_name,
             struct pc_result *res, char *err, size_t errlen)
{
    struct gzip_stream *gz = gzs_open(f, level);
    struct pprof_writer *w = pw_new(gz);
    const struct sr_header *h = sr_header(r);
    int rc = -1;
    memset(res, 0, sizeof *res);
    start_zkvm(r, w);
    if ((coarse_max ? pc_convert(r, w, coarse_max, out_name, res, err,
                                 errlen)
                    : convert(r, w, out_name, err, errlen)) != 0)
        goto out;
    if (pw_finish(w, h->cmd, h->deterministic, h->duration_ns) != 0) {
        snprintf(err, errlen, "%s: %s", out_name, pw_error(w));
        goto out;
    }
    if (gzs_finish(gz) != 0) {
        snprintf(err, errlen, "%s: %s", out_name, gzs_error(gz));
        goto out;
    }
    rc = 0;
out:
    pw_free(w);
    gzs_free(gz);
    return rc;
}

int dc_load(const char *dump, unsigned char **buf, size_t *len, char *err,
            size_t errlen)
{
    char *bytes = NULL;
    size_t n = 0;
    struct pc_result res;
    *buf = NULL;
    *len = 0;
    struct stacks_reader *r = sr_open(dump);
    if (sr_error(r)) {
        snprintf(err, errlen, "%s", sr_error(r));
        sr_close(r);
        return -1;
    }
    FILE *f = open_memstream(&bytes, &n);
    if (!f)
        cu_oom();
    int rc = dc_write(r, f, LOAD_LEVEL,
                      dc_coarse_limit(dump, DC_DEFAULT_MAX_SAMPLES, 0, 0),
                      dump, &res, err, errlen);
    sr_close(r);
    if (fclose(f) != 0 && rc == 0)
        cu_oom();
    if (rc != 0) {
        free(bytes);
        return -1;
    }
    *buf = (unsigned char *)bytes;
    *len = n;
    return 0;
}
