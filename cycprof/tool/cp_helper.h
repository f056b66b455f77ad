/* cycprof: running the userland helper that turns the stacks dump into a
 * pprof profile, within a time limit. */
#ifndef CP_HELPER_H
#define CP_HELPER_H

#include "pub_tool_basics.h"

/* --cycprof-helper, else beside the tool (the build's vg-lib overlay),
 * else where 'make install' put it.  Free with VG_(free). */
HChar* cp_helper_path(void);

/* Runs 'helper pprof dump -o out' and waits for it until deadline_ms
 * (cp_sys_now_ms() clock), then kills it.  True when it exited 0;
 * otherwise prints "cycprof: no pprof profile TARGET: why" (one line)
 * and removes what the helper left at out. */
Bool cp_helper_convert(const HChar* helper, const HChar* dump,
                       const HChar* out, const HChar* target,
                       ULong deadline_ms);

#endif
