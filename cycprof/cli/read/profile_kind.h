/* Which format a profile file is in, decided once for every command that
 * reads profiles (report, diff, folded, flamegraph, firefox): a pprof
 * profile, a callgrind-format file, or neither. */
#ifndef CYCPROF_PROFILE_KIND_H
#define CYCPROF_PROFILE_KIND_H

#include <stddef.h>

typedef enum { PK_CALLGRIND, PK_PPROF } profile_kind_t;

/* By name (.pb, .pb.gz) or by the first bytes: gzip data or binary bytes
 * make a pprof profile, and so does the tool's stacks dump, which is read
 * as the pprof profile it converts to (pprof_reader.h); a first line (after blank and '#' lines) that is a
 * callgrind header line ("version:", "events:", ...) makes a
 * callgrind-format file, whose reader then finds any error deeper in.
 * Anything else is neither: -1 with "NAME:LINE: not a callgrind-format
 * file or a pprof profile ('that line')" in err, as for an unreadable
 * file ("NAME: why"). An empty file is PK_CALLGRIND, for its reader to
 * say so. */
int pk_kind(const char *path, char *err, size_t errlen);

#endif
