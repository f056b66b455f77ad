/* cycprof: --deterministic=yes at the system calls (cp_det_syscalls.c):
 * clocks, entropy, the CPU number, and timeouts that ran out. */
#ifndef CP_DET_SYSCALLS_H
#define CP_DET_SYSCALLS_H

#include "pub_tool_basics.h"

void cp_det_pre_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nargs);
void cp_det_post_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nargs,
                         SysRes res);

#endif
