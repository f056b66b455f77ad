/* cycprof: VEX IR instrumentation. */
#ifndef CP_INSTRUMENT_H
#define CP_INSTRUMENT_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

IRSB* cp_instrument(VgCallbackClosure* closure, IRSB* sb_in,
                    const VexGuestLayout* layout,
                    const VexGuestExtents* vge,
                    const VexArchInfo* archinfo_host,
                    IRType gWordTy, IRType hWordTy);

#endif
