/* cycprof: --firefox-out-file, the Firefox Profiler profile written at exit
 * by 'cycprof firefox' from the pprof profile (docs/cli/firefox.md). */
#ifndef CP_FIREFOX_OUT_H
#define CP_FIREFOX_OUT_H

#include "pub_tool_basics.h"

/* With --firefox-out-file, runs 'helper firefox pb_path -o FILE' within
 * --pprof-time-limit and returns FILE (cp_heap_free it) for the log's "wrote"
 * line; NULL without the option, or after one "cycprof: no Firefox
 * profile FILE: why" line. */
HChar* cp_firefox_write(const HChar* pb_path);

#endif
