/* cycprof: the stacks dump and the helper that turns it into pprof. */
#ifndef CP_WRITE_STACKS_H
#define CP_WRITE_STACKS_H

#include "pub_tool_basics.h"

/* Writes the pprof profile of process pid at path through the userland
 * 'cycprof pprof'; on failure says so in one line and leaves no file
 * behind. */
void cp_write_pprof(const HChar* path, ULong total, const HChar* cmd,
                    Int pid);

#endif
