/* A pprof profile (gzip-compressed or plain profile.proto) read into the
 * cost model of `report` and `diff` (cg_profile_t, callgrind_reader.h), so
 * that cycprof's own pprof file, Go's CPU profiles and RISC Zero's guest
 * profiles get the same tables, diff and gate as callgrind-format files:
 * a view of the profile model (profile.h) that read/pprof_reader fills.
 *
 * What the model gets from a profile (docs/cli/report.md, "pprof input"):
 *   - events: the sample types whose values are counts (never negative),
 *     named by their type ("cycles", "instructions", "samples", "cpu");
 *     the one pprof shows by default (default_sample_type, else the last)
 *     comes first, the others follow in file order;
 *   - totals: the sum of every sample's values;
 *   - self cost: a sample's values go to its leaf frame, the innermost
 *     line of its first location: that line's function ("file:function",
 *     file "???" when the function has none), line number and object (the
 *     file name of the location's mapping);
 *   - inclusive cost: every function on a sample's stack (inlined frames
 *     included) gets the sample's values once, however often it appears
 *     (recursion), which is what `go tool pprof`'s cum column counts.
 * A location without lines is code without a symbol, named "0x<address>".
 *
 * A RISC Zero guest profile (its one sample type is cycles/count and it
 * has at most one mapping, the guest's, as risc0's profiler.rs writes it)
 * names its functions by name alone: its source file is "unknown" for
 * every symbol without DWARF, its mapping "unknown" when the binary's
 * name is not known, and go tool pprof shows neither. p->by_name is set
 * while every file read is one.
 */
#ifndef CYCPROF_PPROF_COSTS_H
#define CYCPROF_PPROF_COSTS_H

#include <stddef.h>

#include "read/callgrind_reader.h"

/* Add the profile in path to p (merged by name with what p holds). Returns
 * 0, or -1 with "PATH: what went wrong" in err. */
int pprof_costs_read(cg_profile_t *p, const char *path, char *err,
                     size_t errlen);
/* The same from a buffer (name is used in messages). */
int pprof_costs_read_mem(cg_profile_t *p, const char *name,
                         const unsigned char *buf, size_t len, char *err,
                         size_t errlen);

#endif
