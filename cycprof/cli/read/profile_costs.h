/* profile_costs: the cost tables of `report` and `diff` (cg_profile_t,
 * model/cost_tables.h) as a view of the profile model (profile.h), from
 * either reader: callgrind-format files (callgrind_reader.h) and pprof
 * profiles (pprof_reader.h: cycprof's own, Go's CPU profiles, RISC Zero's
 * guest profiles) get the same tables, diff and gate.
 *
 * What the tables get from a profile (docs/cli/report.md, "pprof input"):
 *   - events: a callgrind profile's sample types, in order; of a pprof
 *     profile, the sample types whose values are counts (never negative),
 *     named by their type ("cycles", "instructions", "samples", "cpu"):
 *     the one pprof shows by default (default_sample_type, else the last)
 *     comes first, the others follow in file order;
 *   - totals: a callgrind profile's (profile.h); of a pprof profile, the
 *     sum of every sample's values;
 *   - self cost: a callgrind profile's per location (it has no samples);
 *     a pprof sample's values go to its leaf frame, the innermost
 *     line of its first location: that line's function ("file:function"),
 *     line number and object (the file name of the location's mapping);
 *     a pprof function without a source file is in file "???", one
 *     without a name is "??", and a pprof sample of all zeros adds no row;
 *   - only what the tables' rows read (cost_tables.h, cg_rows_t): the
 *     function records for rows by function, the self costs keyed by
 *     the fields shown for rows by line, file or object;
 *   - function rows: a callgrind profile's functions, each with its
 *     object, in the order of the file (those without cost included);
 *     a pprof profile's as its samples reach them;
 *   - inclusive cost: of a callgrind profile, its call arcs: the calls'
 *     cost is the caller's "calls within" and the callee's "received";
 *     of a pprof profile, every function on a sample's stack (inlined
 *     frames included) gets the sample's values once, however often it
 *     appears (recursion), which is what `go tool pprof`'s cum column
 *     counts.
 * A pprof location without lines is code without a symbol, named
 * "0x<address>".
 *
 * A RISC Zero guest profile (its one sample type is cycles/count and it
 * has at most one mapping, the guest's, as risc0's profiler.rs writes it)
 * names its functions by name alone: its source file is "unknown" for
 * every symbol without DWARF, its mapping "unknown" when the binary's
 * name is not known, and go tool pprof shows neither. p->by_name is set
 * while every file added is one (a callgrind profile leaves it as it is).
 */
#ifndef CYCPROF_PROFILE_COSTS_H
#define CYCPROF_PROFILE_COSTS_H

#include <stddef.h>

#include "model/cost_tables.h"
#include "model/profile.h"

/* Add profile pr to p, merged by name with what p holds; pr is read only
 * to be added, so p takes it apart as it goes (when p holds nothing yet,
 * pr's strings move into it rather than being copied) and pr is then
 * only fit for pf_free. name is used in messages: the pprof file, or the
 * last of the callgrind files read into pr. Returns 0, or -1 with "NAME:
 * what went wrong" in err. */
int pc_add_taking(cg_profile_t *p, const char *name, profile_t *pr,
                  char *err, size_t errlen);

/* Read the pprof profile in path, or in buf (name is used in messages),
 * and add it to p. Returns 0, or -1 with "NAME: what went wrong" in err. */
int pc_add_pprof(cg_profile_t *p, const char *path, char *err, size_t errlen);
int pc_add_pprof_mem(cg_profile_t *p, const char *name,
                     const unsigned char *buf, size_t len, char *err,
                     size_t errlen);

#endif
