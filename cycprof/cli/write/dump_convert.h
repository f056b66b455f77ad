/* dump_convert: the tool's stacks dump (docs/internals/stacks-format.md)
 * into the pprof profile that `cycprof pprof` writes, gzip-compressed.
 *
 * It streams: samples are converted and written as they are read, so
 * memory holds only the calling-context tree and the string table (and
 * the cut stacks of deep recursions, merged), or above the sample limit
 * what pprof_coarsen needs. `cycprof pprof` writes the result into a file;
 * the commands that read profiles read a dump as the profile this makes of
 * it (dc_load), through the one pprof decoder. */
#ifndef CYCPROF_DUMP_CONVERT_H
#define CYCPROF_DUMP_CONVERT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "write/pprof_coarsen.h"
#include "read/stacks_reader.h"

/* go tool pprof needs about 80 bytes per frame of every sample: at 40
 * frames a sample, this many samples keep `go tool pprof -top` and its
 * flame graph within a few GB and a minute. */
#define DC_DEFAULT_MAX_SAMPLES 250000

/* The limit pprof_coarsen merges a dump down to, 0 for a line-level
 * conversion: a dump whose samples are per function (per_function, or
 * its last line says so) is coarsened whatever max says (0: no merging);
 * a line-level one when it has more than max (0: no limit) samples. A
 * followed dump (still being written) must be per function. */
uint64_t dc_coarse_limit(const char *dump, uint64_t max, int per_function,
                         int follow);

/* Writes the dump read from r (fresh from sr_open) into f as a pprof
 * profile, gzip level `level`, coarsened when coarse_max is not 0 (then
 * *res says how). Returns 0, or -1 with "DUMP:LINE: problem" or
 * "OUT: problem" (out_name) in err. f is left for the caller to close. */
int dc_write(struct stacks_reader *r, FILE *f, int level,
             uint64_t coarse_max, const char *out_name,
             struct pc_result *res, char *err, size_t errlen);

/* The profile `cycprof pprof DUMP` writes with its defaults, in memory:
 * *buf (malloc'd, gzip data) and *len. Returns 0, or -1 with
 * "DUMP:LINE: problem" in err. */
int dc_load(const char *dump, unsigned char **buf, size_t *len, char *err,
            size_t errlen);

#endif
