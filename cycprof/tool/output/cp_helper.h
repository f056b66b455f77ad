/* cycprof: running the userland helper that turns the stacks dump into a
 * pprof profile, within a time limit. */
#ifndef CP_HELPER_H
#define CP_HELPER_H

#include "pub_tool_basics.h"

/* --cycprof-helper, else beside the tool (the build's vg-lib overlay),
 * else where 'make install' put it.  Free with cp_heap_free. */
HChar* cp_helper_path(void);

/* The first line a helper printed into err_path, "" when none. */
void cp_helper_first_line(const HChar* err_path, HChar* line, Int size);

/* A helper started, not yet waited for. */
typedef struct {
   Int    pid;
   Int    done_fd;    /* a follower's pipe, closed when the dump is done */
   HChar* err_path;   /* its stderr */
} HelperRun;

/* Starts 'helper pprof dump -o out'.  With follow, dump is still being
 * written, per function: the helper reads it as it grows, until
 * cp_helper_finish says it is complete.  False, after printing "cycprof:
 * no pprof profile TARGET: why", when it cannot be started. */
Bool cp_helper_start(const HChar* helper, const HChar* dump,
                     const HChar* out, const HChar* target, Bool follow,
                     HelperRun* run);
/* Waits for it until deadline_ms (cp_sys_now_ms() clock), then kills it;
 * the rest as cp_helper_convert. */
Bool cp_helper_finish(HelperRun* run, const HChar* helper, const HChar* out,
                      const HChar* target, ULong deadline_ms);
/* Stops it and removes what it left (the dump failed). */
void cp_helper_stop(HelperRun* run, const HChar* out);

/* Runs 'helper pprof dump -o out' and waits for it until deadline_ms
 * (cp_sys_now_ms() clock), then kills it.  True when it exited 0;
 * otherwise prints "cycprof: no pprof profile TARGET: why" (one line)
 * and removes what the helper left at out. */
Bool cp_helper_convert(const HChar* helper, const HChar* dump,
                       const HChar* out, const HChar* target,
                       ULong deadline_ms);

#endif
