/* cycprof: the numbering of dumps during the run (DUMP_STATS,
 * DUMP_STATS_AT), like callgrind's: parts .1, .2, ... and the final dump
 * at exit, unnumbered, is the last part.  Only the count: the dump itself
 * is cp_dump_part's (cp_dump.h). */
#ifndef CP_PARTS_H
#define CP_PARTS_H

#include "pub_tool_basics.h"

/* For the file being written: its part number and trigger. */
UInt         cp_parts_number(void);
const HChar* cp_parts_trigger(void);
/* Instructions written in the parts before the one being written. */
ULong        cp_parts_dumped_total(void);
/* Part cp_parts_number() is being written, for the reason why. */
void         cp_parts_begin(const HChar* why);
/* It is written and held total instructions: the next part begins. */
void         cp_parts_end(ULong total);
/* At exit: the last part is being written. */
void         cp_parts_final(void);

#endif
