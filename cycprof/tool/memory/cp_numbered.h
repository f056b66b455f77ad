/* cycprof: chunks numbered for 32-bit handles, so that a context names
 * its counters in 4 bytes rather than by an 8-byte pointer
 * (cp_densespace.h, cp_packed.c): a handle is a chunk's number above and
 * a place in the chunk below.  A block bigger than a chunk lies in
 * several chunks numbered in a row, so that the place stays below a
 * chunk's size and the handle of its start still reaches all of it. */
#ifndef CP_NUMBERED_H
#define CP_NUMBERED_H

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"

/* Numbers the n chunks of chunk_bytes from start in a row, from
 * *numbered (1 at first: 0 is no chunk) on, bases[k] being number k's
 * first byte; returns the first number.  Past max, a panic that says
 * what was full. */
static inline UInt cp_number_chunks(UChar** bases, UInt* numbered, UInt max,
                                    SizeT chunk_bytes, UChar* start, UInt n,
                                    const HChar* full)
{
   UInt k, first = *numbered;
   if (first + n > max) VG_(tool_panic)(full);
   for (k = 0; k < n; k++) bases[first + k] = start + (SizeT)k * chunk_bytes;
   *numbered = first + n;
   return first;
}

#endif
