/* cycprof: bump allocation for records that live until the dump. */
#ifndef CP_ARENA_H
#define CP_ARENA_H

#include "pub_tool_basics.h"

/* Zeroed, 8-byte aligned memory that is never freed: contexts, edges and
 * cost centers are only dropped when the process exits, so a per-object
 * malloc header would be pure overhead. */
void* cp_arena_alloc(SizeT size);
SizeT cp_arena_bytes(void);

#endif
