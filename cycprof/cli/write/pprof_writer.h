/* pprof_writer: writes a pprof profile.proto as a stream of field records.
 *
 * protobuf lets a message's fields come in any order and a repeated field
 * come one element at a time, so a Profile can be written piece by piece:
 * each Mapping, Function, Location and Sample as its own length-delimited
 * record, as soon as it is known, then the scalar fields, then the string
 * table. Only the string table is kept in memory; samples cost nothing once
 * written, so memory does not grow with the number of samples.
 *
 * The writer knows nothing of the stacks dump; cmd_pprof feeds it. */
#ifndef CYCPROF_PPROF_WRITER_H
#define CYCPROF_PPROF_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "write/gzip_stream.h"

struct pprof_writer;

struct pw_line {
    uint64_t function_id;
    int64_t line;
};

/* Writes into `out` (owned by the caller). */
struct pprof_writer *pw_new(struct gzip_stream *out);
void pw_free(struct pprof_writer *w);

/* Each returns 0, or -1 after an error (see pw_error). Strings may be
 * reused by the caller once the call returns. */
int pw_mapping(struct pprof_writer *w, uint64_t id, uint64_t start,
               uint64_t limit, uint64_t file_offset, const char *filename,
               const char *build_id);
int pw_function(struct pprof_writer *w, uint64_t id, const char *name,
                const char *system_name, const char *filename,
                int64_t start_line);
/* `lines`: innermost (inlined) frame first, the outermost function last. */
int pw_location(struct pprof_writer *w, uint64_t id, uint64_t mapping_id,
                uint64_t address, const struct pw_line *lines, size_t nlines);
/* `locs`: leaf first. The sample gets value [instructions], the numeric
 * label thread = `thread`, and one string label region = NAME for each of
 * the named regions the sample ran in (docs/regions.md). */
int pw_sample_in_regions(struct pprof_writer *w, const uint64_t *locs,
                         size_t nlocs, int64_t instructions, int64_t thread,
                         const char *const *regions, size_t nregions);
/* The same in two steps, for a caller that writes many samples of one
 * region set: the names interned once (into `strs`, room for
 * PW_MAX_REGION_LABELS; returns how many), then each sample with them. */
#define PW_MAX_REGION_LABELS 64
size_t pw_region_strings(struct pprof_writer *w, const char *const *regions,
                         size_t nregions, int64_t *strs);
int pw_sample_with_regions(struct pprof_writer *w, const uint64_t *locs,
                           size_t nlocs, int64_t instructions, int64_t thread,
                           const int64_t *strs, size_t nstrs);
/* The second sample type of a profile with a zkVM model: its zkVM cycles
 * (docs/zkvm.md). */
#define PW_ZK_SAMPLE_TYPE "zkvm_cycles"
/* Turn it on before any sample: every sample then has the values
 * [instructions, zkvm_cycles], an instruction being one cycle, except
 * those whose leaf was marked by pw_zk_location ([PageIn], [PageOut],
 * [Segment] frames), which have [0, cycles]. */
void pw_zkvm(struct pprof_writer *w);
void pw_zk_location(struct pprof_writer *w, uint64_t id);
/* A comment after the command and deterministic ones (the segment
 * table's lines). */
void pw_comment(struct pprof_writer *w, const char *text);
/* Writes sample_type, period_type, period, duration_nanos, comment (the
 * command line, if not empty, then "cycprof deterministic: MODE" when the
 * dump recorded one), default_sample_type and the string table.
 * The gzip stream still has to be finished by the caller. */
int pw_finish(struct pprof_writer *w, const char *command_line,
              const char *deterministic,
              int64_t duration_ns);

const char *pw_error(const struct pprof_writer *w);

#endif
