/* cycprof: client requests: callgrind's, cachegrind's START/STOP, and
 * cycprof's own (cycprof/include/cycprof.h). */
#ifndef CP_REQUESTS_H
#define CP_REQUESTS_H

#include "pub_tool_basics.h"

Bool cp_handle_client_request(ThreadId tid, UWord* args, UWord* ret);

#endif
