/* cycprof: storage for the exit counters of all cost centers. */
#ifndef CP_COUNTERS_H
#define CP_COUNTERS_H

#include "pub_tool_basics.h"

/* n zeroed counters, contiguous; returns the index of the first. */
UInt   cp_counters_alloc(UInt n);
ULong* cp_counters_at(UInt index);
ULong  cp_counters_bytes(void);

#endif
