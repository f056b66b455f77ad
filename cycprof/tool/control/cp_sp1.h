/* cycprof: SP1's cycle-tracker markers in the program's standard output
 * open and close named regions (--sp1-markers, docs/regions.md). */
#ifndef CP_SP1_H
#define CP_SP1_H

#include "pub_tool_basics.h"

Bool cp_sp1_option(const HChar* arg);

void cp_sp1_pre_syscall(ThreadId tid, UInt syscallno, UWord* args,
                        UInt nargs);
void cp_sp1_post_syscall(ThreadId tid, UInt syscallno, UWord* args,
                         UInt nargs, SysRes res);

#endif
