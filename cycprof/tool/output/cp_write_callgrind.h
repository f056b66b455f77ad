/* cycprof: the callgrind-format output file. */
#ifndef CP_WRITE_CALLGRIND_H
#define CP_WRITE_CALLGRIND_H

#include "pub_tool_basics.h"
#include "cp_costs.h"

/* inclusive[id] is each context's inclusive cost (used up: the file's
 * call lines are worked out in it), runs the superblocks' counters
 * summed.  Returns False when the file could not be written (nothing is
 * left behind then). */
Bool cp_write_callgrind(const HChar* path, ULong* inclusive,
                        const SuperblockRuns* runs, ULong total,
                        const HChar* cmd);

#endif
