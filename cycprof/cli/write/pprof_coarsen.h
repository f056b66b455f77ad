/* pprof_coarsen: a smaller pprof profile for a dump too big for pprof.
 *
 * go tool pprof holds every sample's stack in memory, about 80 bytes per
 * frame: a compiler's line-level profile (7 M samples, 280 M frames) needs
 * more than 20 GB. Above a sample limit, cmd_pprof converts through here:
 *  1. function granularity: one location per (object, function and its
 *     inline chain) instead of per source line, and direct recursion
 *     folded into one frame;
 *  2. if that is still over the limit, calling contexts whose inclusive
 *     cost is below a threshold are merged into their nearest caller at
 *     or above it: such a sample keeps its leaf function, then a marker
 *     frame, then that caller's stack.
 * Totals and every function's self cost stay exact; what step 2 changes is
 * the cum of functions seen only inside merged contexts. */
#ifndef CYCPROF_PPROF_COARSEN_H
#define CYCPROF_PPROF_COARSEN_H

#include <stddef.h>
#include <stdint.h>

#include "write/inline_renamer.h"
#include "write/pprof_writer.h"
#include "read/stacks_reader.h"

struct pc_result {
    uint64_t samples_in;      /* line-level samples of the dump */
    int per_function;         /* the dump's samples were per function */
    uint64_t samples_out;     /* samples written */
    int merged;               /* step 2 was needed */
    int64_t threshold;        /* its threshold, in instructions */
};

/* Writes a map or fn record, and tells the renamer of it
 * (inline_renamer.h): the same in both conversions. */
int pc_put_definition(struct pprof_writer *w, struct inline_renamer *ren,
                      const struct sr_record *rec);

/* Writes the dump read from r (fresh from sr_open) into w, coarsened to
 * at most about max_samples samples. Returns 0, or -1 with one line
 * naming out_path or the dump in err. */
int pc_convert(struct stacks_reader *r, struct pprof_writer *w,
               uint64_t max_samples, const char *out_path,
               struct pc_result *res, char *err, size_t errlen);

#endif
