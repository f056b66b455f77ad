/* cycprof: which objects Valgrind reads inline info for.
 *
 * Valgrind reads an object's inline info with the rest of its debug info,
 * and only when its global VG_(clo_read_inline_info) is set at that
 * moment.  By default cycprof sets it for objects that carry their own
 * DWARF (a program or library built with -g) and clears it for the rest:
 * for libc that means libc6-dbg's separate debug file, whose inline info
 * costs about 0.13 s on every run (docs/options.md). */
#ifndef CP_INLINE_INFO_H
#define CP_INLINE_INFO_H

#include "pub_tool_basics.h"

/* Before the options are parsed: inline info on, so that a user's
 * --read-inline-info overrides it (Valgrind sets it only for some tools). */
void cp_inline_info_before_options(void);
/* After the options: which objects get their inline info read.
 * instrumenting: the run instruments from its start (see options.md). */
void cp_inline_info_init(Bool instrumenting);
/* Before a system call: an mmap of a file decides for that file, since
 * Valgrind reads what it maps before the tool sees the call return. */
void cp_inline_info_pre_syscall(UInt sysno, UWord* args, UInt nargs);
/* Before asking the debug info about a: Valgrind 3.22 and later read an
 * object's debug info at the first question about it, not when mapped. */
void cp_inline_info_before_lookup(Addr a);
/* Before describing addresses with their inlined frames: Valgrind gives
 * inline frames only while the global is set. */
void cp_inline_info_before_describe(void);

#endif
