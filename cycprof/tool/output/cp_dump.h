/* cycprof: everything that happens at exit, and the dumps and zeroing
 * asked for during the run. */
#ifndef CP_DUMP_H
#define CP_DUMP_H

#include "pub_tool_basics.h"

void cp_dump_init(void);
void cp_dump_all(void);
void cp_dump_after_fork(void);
/* DUMP_STATS: writes the next part (cp_parts.h), trigger why, and starts
 * the following one from zero. */
void  cp_dump_part(const HChar* why);
/* ZERO_STATS: zeroes the counts of every context and region. */
void  cp_dump_zero(void);

#endif
