/* What Valgrind prints about cycprof at start-up: one definition for the
 * tool and for its x86-linux twin, which refuses 32-bit programs. */
#ifndef CP_DETAILS_H
#define CP_DETAILS_H
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

#ifndef CYCPROF_VERSION
#define CYCPROF_VERSION "0.1"
#endif

static inline void cp_details_describe_tool(void)
{
   VG_(details_name)("cycprof");
   VG_(details_version)(CYCPROF_VERSION);
   VG_(details_description)("exact instruction counts on exact call stacks");
   VG_(details_copyright_author)("Copyright (C) the cycprof developers.");
   VG_(details_bug_reports_to)("the cycprof issue tracker");
}

#endif
