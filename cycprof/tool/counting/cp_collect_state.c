/* cycprof: the state of collection the hot path reads
 * (cp_collect_state.h). */
#include "pub_tool_basics.h"
#include "cp_collect_state.h"

Bool   cp_instr_on = True;
UChar  cp_collect_base = 1;
Bool   cp_running_on;
ULong  cp_running;

SBInfo* cp_request_sb;
