/* cmd_pprof.c: `cycprof pprof DUMP -o OUT` — turns the tool's stacks dump
 * (docs/internals/stacks-format.md) into a gzip-compressed pprof profile
 * (cycprof/proto/profile.proto) that `go tool pprof` reads.
 *
 * It streams: samples are converted and written as they are read, so memory
 * holds only the calling-context tree and the string table (and the cut
 * stacks of deep recursions, merged). OUT is written as out_file.h says:
 * a regular file is either the old one, or absent, or a whole profile. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands/commands.h"
#include "util/cmdutil.h"
#include "read/elf_buildid.h"
#include "write/gzip_stream.h"
#include "util/out_file.h"
#include "write/inline_renamer.h"
#include "write/pprof_coarsen.h"
#include "write/pprof_writer.h"
#include "analyse/stack_merge.h"
#include "read/stacks_reader.h"

/* zlib level 1: profiles are mostly small varints that compress well even
 * at the fastest level, and conversion time is paid at every tool exit. */
#define DEFAULT_LEVEL 1

/* go tool pprof needs about 80 bytes per frame of every sample: at 40
 * frames a sample, this many samples keep `go tool pprof -top` and its
 * flame graph within a few GB and a minute. */
#define DEFAULT_MAX_SAMPLES 250000

static const char usage_text[] =
    "usage: cycprof pprof [-z LEVEL] [--max-samples N] [--per-function]\n"
    "                     [--follow] DUMP -o OUT\n"
    "\n"
    "Convert a stacks dump, written by the cycprof Valgrind tool at exit\n"
    "(kept with --keep-stacks=yes), into a gzip-compressed pprof profile.\n"
    "Open the result with:  go tool pprof -http=127.0.0.1:8000 OUT\n"
    "\n"
    "options:\n"
    "  -o, --output OUT  the profile to write (a regular file is replaced\n"
    "                    atomically; a device or FIFO is written in place)\n"
    "  -z, --level N     gzip level, 1 (fastest, default) to 9 (smallest)\n"
    "  --max-samples N   when the line-level profile would have more than N\n"
    "                    samples (default 250000; 0: no limit), write it at\n"
    "                    function granularity, and if still too many, merge\n"
    "                    the smallest calling contexts into their callers;\n"
    "                    totals and self costs stay exact, a note says so;\n"
    "                    a dump the tool wrote per function is always\n"
    "                    converted at function granularity (0: no merging)\n"
    "  --per-function    DUMP's samples are per function (the tool says so\n"
    "                    in its last line; this says it before it is read)\n"
    "  --follow          DUMP is still being written: read it as it grows,\n"
    "                    until standard input, a pipe from its writer, is\n"
    "                    closed (the tool's exit does this; needs\n"
    "                    --per-function)\n"
    "  -h, --help        show this help\n"
    "\n"
    "On a malformed or truncated dump it prints one line\n"
    "'cycprof pprof: FILE:LINE: problem', leaves no output and exits 1.\n"
    "Exit status: 0 success, 1 conversion failed, 2 bad usage.\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("cycprof pprof: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs(" (see cycprof pprof --help)\n", stderr);
    return 2;
}

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

/* Feeds every record of the dump to the writer. Returns 0, or -1 after
 * printing the error. */
static int finish(struct stacks_reader *r, struct pprof_writer *w,
                  const char *out_path);

static int convert(struct stacks_reader *r, struct pprof_writer *w,
                   const char *out_path)
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
            ir_map(ren, &rec);
            wr = pc_put_definition(w, &rec);
            break;
        case SR_FN:
            el.last_fn = rec.fn.id;
            ir_function(ren, &rec);
            wr = pc_put_definition(w, &rec);
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
        fprintf(stderr, "cycprof pprof: %s\n", sr_error(r));
        return -1;
    }
    if (rc != 0) {               /* the writer failed */
        fprintf(stderr, "cycprof pprof: %s: %s\n", out_path, pw_error(w));
        return -1;
    }
    return finish(r, w, out_path);
}

static int finish(struct stacks_reader *r, struct pprof_writer *w,
                  const char *out_path)
{
    const struct sr_header *h = sr_header(r);
    if (pw_finish(w, h->cmd, h->deterministic, h->duration_ns) != 0) {
        fprintf(stderr, "cycprof pprof: %s: %s\n", out_path, pw_error(w));
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

/* max: the limit to merge down to; user_max: --max-samples (a dump
 * written per function is converted so whatever it says). */
static int convert_coarse(struct stacks_reader *r, struct pprof_writer *w,
                          uint64_t max, uint64_t user_max,
                          const char *out_path)
{
    struct pc_result res;
    if (pc_convert(r, w, max, out_path, &res) != 0 ||
        finish(r, w, out_path) != 0)
        return -1;
    if (user_max && res.samples_in > user_max)
        fprintf(stderr, "cycprof pprof: note: %llu line-level samples are "
                "more than --max-samples=%llu: written at function "
                "granularity", (unsigned long long)res.samples_in,
                (unsigned long long)user_max);
    else
        fprintf(stderr, "cycprof pprof: note: the dump's samples are per "
                "function (%llu at line level): written at function "
                "granularity", (unsigned long long)res.samples_in);
    if (res.merged)
        fprintf(stderr, ", calling contexts under %lld instructions merged "
                "into their callers", (long long)res.threshold);
    fprintf(stderr, " (%llu samples; totals and self costs exact)\n",
            (unsigned long long)res.samples_out);
    return 0;
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

/* Converts DUMP into the already-open temporary file `f`. */
static int write_profile(struct stacks_reader *r, FILE *f, int level,
                         uint64_t coarse_max, uint64_t user_max,
                         const char *out_path)
{
    struct gzip_stream *gz = gzs_open(f, level);
    struct pprof_writer *w = pw_new(gz);
    int rc = -1;
    start_zkvm(r, w);
    if ((coarse_max ? convert_coarse(r, w, coarse_max, user_max,
                                          out_path)
                         : convert(r, w, out_path)) == 0) {
        if (gzs_finish(gz) != 0)
            fprintf(stderr, "cycprof pprof: %s: %s\n", out_path,
                    gzs_error(gz));
        else
            rc = 0;
    }
    pw_free(w);
    gzs_free(gz);
    return rc;
}

int cmd_pprof(int argc, char **argv)
{
    const char *dump = NULL, *out = NULL;
    int level = DEFAULT_LEVEL;
    uint64_t max_samples = DEFAULT_MAX_SAMPLES;
    int follow = 0, per_function = 0;

    if (cli_wants_help(argc, argv)) {
        fputs(usage_text, stdout);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        int is_out = 0, is_level = 0, is_max = 0;
        if (strcmp(a, "--follow") == 0) {
            follow = 1;
            continue;
        }
        if (strcmp(a, "--per-function") == 0) {
            per_function = 1;
            continue;
        }
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0)
            is_out = 1;
        else if (strncmp(a, "--output=", 9) == 0)
            is_out = 1, val = a + 9;
        else if (strcmp(a, "-z") == 0 || strcmp(a, "--level") == 0)
            is_level = 1;
        else if (strncmp(a, "--level=", 8) == 0)
            is_level = 1, val = a + 8;
        else if (strcmp(a, "--max-samples") == 0)
            is_max = 1;
        else if (strncmp(a, "--max-samples=", 14) == 0)
            is_max = 1, val = a + 14;
        else if (strcmp(a, "--") == 0) {
            if (i + 1 < argc && !dump)
                dump = argv[++i];
            if (i + 1 < argc)
                return usage_error("unexpected argument '%s'", argv[i + 1]);
            break;
        } else if (a[0] == '-' && a[1] != '\0')
            return usage_error("unknown option '%s'", a);
        else if (!dump) {
            dump = a;
            continue;
        } else
            return usage_error("unexpected argument '%s'", a);
        if (!val) {
            if (i + 1 >= argc)
                return usage_error("%s", is_out ? "-o/--output needs a file name"
                                   : is_level ? "-z/--level needs a gzip level 1..9"
                                   : "--max-samples needs a number");
            val = argv[++i];
        }
        if (is_out)
            out = val;
        if (is_level) {
            if (val[0] < '1' || val[0] > '9' || val[1] != '\0')
                return usage_error("gzip level must be 1..9, not '%s'", val);
            level = val[0] - '0';
        }
        if (is_max) {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(val, &end, 10);
            if (!val[0] || *end || errno || val[0] == '-')
                return usage_error("--max-samples needs a number, not '%s'",
                                   val);
            max_samples = v;
        }
    }
    if (!dump)
        return usage_error("%s", "missing the DUMP argument");
#ifdef M_MMAP_THRESHOLD
    /* Big tables grow by doubling. glibc raises its mmap threshold as big
     * blocks are freed, and then grows them on the heap, copying each one
     * and faulting in new pages; mmapped blocks grow in place (mremap). */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    if (!out || !out[0])
        return usage_error("%s", "missing -o OUT");
    /* A line-level dump's sample count, which decides how it is converted,
     * is in its last line. */
    if (follow && !per_function)
        return usage_error("%s", "--follow needs --per-function");

    /* Read the header before creating anything: a dump that is not one
     * leaves no trace. */
    cu_oom_names("pprof", dump);
    struct stacks_reader *r = sr_open_following(dump, follow ? 0 : -1);
    if (sr_error(r)) {
        fprintf(stderr, "cycprof pprof: %s\n", sr_error(r));
        sr_close(r);
        return 1;
    }

    struct out_file o;
    char err[1200];
    if (of_open(&o, out, err, sizeof err) != 0) {
        fprintf(stderr, "cycprof pprof: cannot write %s\n", err);
        sr_close(r);
        return 1;
    }
    cu_oom_names("pprof", out);
    uint64_t line_samples = 0;
    uint64_t n = follow ? 0 : count_samples(dump, &line_samples);
    uint64_t coarse_max = per_function || line_samples
                              ? (max_samples ? max_samples : UINT64_MAX)
                          : max_samples && n > max_samples ? max_samples : 0;
    int ok = write_profile(r, o.f, level, coarse_max, max_samples, out) == 0;
    if (!ok)
        of_abort(&o);
    else if (of_commit(&o, err, sizeof err) != 0) {
        fprintf(stderr, "cycprof pprof: cannot write %s\n", err);
        ok = 0;
    }
    sr_close(r);
    return ok ? 0 : 1;
}
