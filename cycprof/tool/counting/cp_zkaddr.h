/* cycprof: native 64-bit addresses as addresses of a 32-bit zkVM guest
 * (docs/zkvm.md, "Guest addresses").  Each native page gets a guest page
 * of its size when first touched: next to its native neighbour's if that
 * neighbour (in the same mapping) has one and the place is free, else at
 * the next free 64 KiB boundary.  So neighbouring pages of a mapping stay
 * neighbours, and the layout follows the order of first touches and the
 * mappings' sizes only: not ASLR, not the run. */
#ifndef CP_ZKADDR_H
#define CP_ZKADDR_H

#include "pub_tool_basics.h"

/* The guest range pages are placed in: [start, end), page aligned. */
void cp_zkaddr_init(Addr start, Addr end);

/* The guest address of native address a, placing its page if new. */
UInt cp_zkaddr_guest_slow(Addr a);

/* The last native page looked up, and its guest page: most accesses hit
 * it, and need no hash lookup. */
extern Addr cp_zkaddr_last_native;   /* native page base, 1 when none */
extern UInt cp_zkaddr_last_guest;    /* its guest page base */

static inline UInt cp_zkaddr_guest(Addr a)
{
   if ((a & ~(Addr)0xFFF) == cp_zkaddr_last_native)
      return cp_zkaddr_last_guest | (UInt)(a & 0xFFF);
   return cp_zkaddr_guest_slow(a);
}

#endif
