/* cycprof: the stacks dump, handed to the helper that writes pprof. */
#ifndef CP_WRITE_STACKS_H
#define CP_WRITE_STACKS_H

#include "pub_tool_basics.h"
#include "cp_costs.h"

/* Called at most once, when the dump's samples are known to be per
 * function, with the file being written, complete up to its samples: a
 * reader may follow it from there while the samples are written. */
typedef void (*StacksFollow)(const HChar* writing_path, void* opaque);

/* Writes the stacks dump of process pid at path, at most max_bytes long
 * and stopping at deadline_ms (cp_sys_now_ms clock); False (with no file,
 * see cp_outfile_error) when it cannot.  runs: the superblocks' counters
 * summed over all contexts. */
Bool cp_write_stacks_dump(const HChar* path, const SuperblockRuns* runs,
                          ULong total, const HChar* cmd, Int pid,
                          ULong max_bytes, ULong deadline_ms,
                          StacksFollow follow, void* opaque);

#endif
