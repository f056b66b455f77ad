/* cycprof: the stacks dump and the helper that turns it into pprof. */
#include "pub_tool_basics.h"
#include "cp_write_stacks.h"

void cp_write_pprof(const HChar* path, ULong total, const HChar* cmd)
{
   (void)path; (void)total; (void)cmd;
}
