/* cycprof: addresses of frames that are no code.
 *
 * A signal handler's frame has a function of its own, <signal N>, named
 * by a synthetic "address" below CP_PSEUDO_LIMIT; no code is ever mapped
 * there.  The call stacks hold them as functions, and the symbol layer
 * names them rather than asking Valgrind's debug info. */
#ifndef CP_PSEUDO_H
#define CP_PSEUDO_H

#include "pub_tool_basics.h"

#define CP_PSEUDO_LIMIT      0x1000
#define CP_SIGNAL_PSEUDO(n)  ((Addr)(0x100 + (n)))
#define CP_IS_PSEUDO(a)      ((a) != 0 && (a) < CP_PSEUDO_LIMIT)

#endif
