/* cycprof: the output names checked at start-up, before the program runs
 * (docs/options.md, "Where the files go"). */
#ifndef CP_OUTCHECK_H
#define CP_OUTCHECK_H

#include "pub_tool_basics.h"

/* Every output the exit will write (the callgrind file, the pprof
 * profile, the Firefox profile), given their expanded names: one that
 * cannot be written stops the run now with one line naming its option and
 * path, and exit status 1.  Under --deterministic=yes, also one warning
 * line when an output goes into the program's working folder. */
void cp_outcheck_names(const HChar* callgrind_path, const HChar* pprof_path);

#endif
