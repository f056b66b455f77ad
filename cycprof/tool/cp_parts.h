/* cycprof: dumps during the run (DUMP_STATS, DUMP_STATS_AT) and zeroing
 * (ZERO_STATS), numbered like callgrind's: parts .1, .2, ... and the
 * final dump at exit, unnumbered, is the last part. */
#ifndef CP_PARTS_H
#define CP_PARTS_H

#include "pub_tool_basics.h"

void         cp_parts_dump(const HChar* trigger);
void         cp_parts_zero(void);
/* For the file being written: its part number and trigger. */
UInt         cp_parts_number(void);
const HChar* cp_parts_trigger(void);
/* Instructions written in the parts before the one being written. */
ULong        cp_parts_dumped_total(void);
/* At exit: the last part is being written. */
void         cp_parts_final(void);

#endif
