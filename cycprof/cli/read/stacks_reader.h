/* stacks_reader: parses and validates the stacks dump that the Valgrind tool
 * writes at exit (format: docs/internals/stacks-format.md).
 *
 * It is a pull parser: records come back one at a time, so a consumer can
 * stream samples without holding them. The reader keeps only what checking
 * needs (how many maps/fns/locs were defined, which ids are in use) plus the
 * calling-context tree (parent and callsite of every node), which every
 * consumer needs to turn a sample into a stack (sr_stack).
 *
 * Every rule of the format is checked here, so consumers can trust what they
 * get: ids are defined before use, numbers are well-formed and in range, the
 * sample counts add up to `total`, and the dump ends with `end`. */
#ifndef CYCPROF_STACKS_READER_H
#define CYCPROF_STACKS_READER_H

#include <stddef.h>
#include <stdint.h>

enum sr_kind { SR_MAP = 1, SR_FN, SR_LOC, SR_NODE, SR_SAMPLE, SR_END };

struct sr_line {
    uint64_t fn;                 /* fn id, >= 1 */
    int64_t line;                /* 0 when unknown */
};

/* One record. Strings and the line list point into the reader's buffers and
 * stay valid only until the next sr_next call. */
struct sr_record {
    enum sr_kind kind;
    union {
        struct {
            uint64_t id, start, limit, file_offset;
            const char *path;
        } map;
        struct {
            uint64_t id;
            int64_t start_line;
            const char *name, *system_name, *filename;
        } fn;
        struct {
            uint64_t id, map_id, address;   /* map_id 0: synthetic */
            size_t nlines;                  /* >= 1 */
            const struct sr_line *lines;    /* innermost first */
        } loc;
        struct {
            uint64_t id, parent, loc;       /* root: parent 0, loc 0; a graft:
                                             * a parent, loc 0 (no frame) */
        } node;
        struct {
            uint64_t node, loc, thread;
            int64_t count;               /* a `zk` record: its zkVM cycles */
            uint64_t region;             /* region set, 0: none */
            int zk;                      /* it was a `zk` record */
        } sample;
        struct {
            uint64_t nsamples;
            /* 0, or the line-level samples of a dump whose samples are
             * per function (stacks-format.md) */
            uint64_t line_samples;
        } end;
    };
};

/* The header records, all required but `deterministic`. */
struct sr_header {
    const char *cmd;
    const char *deterministic;   /* the tool's --deterministic, or NULL */
    uint64_t pid;
    int64_t duration_ns;
    int64_t total;
    /* The zkVM model's (`zkvm` record), else NULL, 0, 0: the profile's
     * zkVM cycles, and the first of the locations of its frames (the ids
     * from it up are [PageIn], [PageOut] and [Segment] frames). */
    const char *zk_model;
    int64_t zk_total;
    uint64_t zk_first_loc;
    /* The segment table (`zktable` records), one line each. */
    char **zk_table;
    size_t zk_table_lines;
};

struct stacks_reader;

/* Whether the first n bytes of a file are how a stacks dump starts
 * ("cycprof-stacks<TAB>"): n must be at least SR_MAGIC_LEN. */
#define SR_MAGIC_LEN 15
int sr_is_dump_start(const void *bytes, size_t n);

/* Opens `path` and reads the header; check sr_error() before going on. */
struct stacks_reader *sr_open(const char *path);
/* The same for a dump its writer is still writing (line_reader.h's
 * lr_follow): done_fd is closed once the dump is complete. */
struct stacks_reader *sr_open_following(const char *path, int done_fd);

/* `zk` records come back as SR_SAMPLE records whose count is their zkVM
 * cycles and whose leaf is a zk location (sample.zk set). */
/* Next record: 1 with *rec filled, 0 once the `end` record has been returned
 * and the dump checked complete, -1 on error (see sr_error). */
int sr_next(struct stacks_reader *r, struct sr_record *rec);

const struct sr_header *sr_header(const struct stacks_reader *r);

/* "FILE:LINE: what is wrong" (or "FILE: what" when not about a line) for the
 * first error, NULL while there is none. */
const char *sr_error(const struct stacks_reader *r);

/* Stacks longer than SR_MAX_FRAMES (deep recursion without folding) are
 * cut: the innermost frames, a 0 where frames were left out, and the
 * outermost SR_KEEP_OUTER. Cutting makes a sample's cost independent of
 * its depth, and the conversion linear in the size of the dump. */
#define SR_MAX_FRAMES 256
#define SR_KEEP_OUTER 128

/* The pprof stack of a sample, leaf first: leaf_loc, loc(node),
 * loc(parent(node)), ..., loc(child of the root), cut as said above. Both
 * ids must come from a sample record sr_next returned. Uses *buf (grown
 * as needed, *cap counts elements). Returns the number of ids, at least 1. */
size_t sr_stack(const struct stacks_reader *r, uint64_t node,
                uint64_t leaf_loc, uint64_t **buf, size_t *cap);

/* The names of the regions of region set `region` (a sample's), innermost
 * first, at most max of them; returns how many. */
size_t sr_region_names(const struct stacks_reader *r, uint64_t region,
                       const char **names, size_t max);

void sr_close(struct stacks_reader *r);

#endif
