/* cycprof: a context's dense counters, packed while its frame is on no
 * thread's stack.
 *
 * Most contexts of a big program run once or a few times and then only
 * wait for the dump (cc1plus: 4 M contexts, 148 bytes of dense counters
 * each, 63 of them nonzero, mostly small).  Packed, they take about a
 * tenth: the length, the context's calls and the number of nonzero
 * counters as LEB128 varints, then per nonzero counter the zeros before
 * it and its value, in one byte when both are small (cp_packed.c).  Contexts whose counts
 * are equal share one copy (cc1plus: 4.0 M packed contexts, 500,000
 * copies). */
#ifndef CP_PACKED_H
#define CP_PACKED_H

#include "pub_tool_basics.h"

/* A copy is named by a 32-bit handle, never 0, so that a context keeps
 * 4 bytes for it.  Copies are shared: contexts whose counters are equal
 * use one copy, which must not change while they do.  A context that
 * drops its copy (to unpack and pack again, or to zero it) says so
 * through old, and the last user's drop gives the copy's memory back for
 * copies of its size. */

/* A packed copy of dense[0 .. len) and calls, the one in use if there is
 * one; old (the copy it replaces, or 0) has one user fewer. */
UInt   cp_packed_encode(const ULong* dense, UInt len, UInt calls, UInt old);
/* The len it was packed from, and the calls. */
UInt   cp_packed_len(UInt packed);
UInt   cp_packed_calls(UInt packed);
/* How many of its counters are nonzero. */
UInt   cp_packed_nonzero(UInt packed);
/* Its bytes, to prefetch. */
const UChar* cp_packed_at(UInt packed);
/* Writes all cp_packed_len(packed) counters to dense. */
void   cp_packed_decode(UInt packed, ULong* dense);
/* A copy of packed's length with every counter and the calls zero, for
 * packed's user
 * (which it has no longer). */
UInt   cp_packed_zeroed(UInt packed);

/* Bytes taken by packed copies, and of those the released ones; how many
 * distinct copies are in use. */
SizeT  cp_packed_bytes(void);
SizeT  cp_packed_released_bytes(void);
SizeT  cp_packed_copies(void);

#endif
