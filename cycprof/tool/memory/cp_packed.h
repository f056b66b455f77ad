/* cycprof: a context's dense counters, packed while its frame is on no
 * thread's stack.
 *
 * Most contexts of a big program run once or a few times and then only
 * wait for the dump (cc1plus: 4 M contexts, 148 bytes of dense counters
 * each, 63 of them nonzero, mostly small).  Packed, they take about a
 * tenth: the length and the number of nonzero counters as LEB128
 * varints, then per nonzero counter the zeros before it and its value,
 * in one byte when both are small (cp_packed.c). */
#ifndef CP_PACKED_H
#define CP_PACKED_H

#include "pub_tool_basics.h"

/* A packed copy of dense[0 .. len), in memory that lives until exit:
 * in place of old (a copy no longer used, or NULL) when it fits there,
 * else new (and old is released, for copies of its size to come). */
UChar* cp_packed_encode(const ULong* dense, UInt len, UChar* old);
/* The len it was packed from. */
UInt   cp_packed_len(const UChar* packed);
/* How many of its counters are nonzero. */
UInt   cp_packed_nonzero(const UChar* packed);
/* Writes all cp_packed_len(packed) counters to dense. */
void   cp_packed_decode(const UChar* packed, ULong* dense);
/* Makes every counter of a packed copy zero, in place. */
void   cp_packed_zero(UChar* packed);

/* Bytes taken by packed copies, and of those the released ones. */
SizeT  cp_packed_bytes(void);
SizeT  cp_packed_released_bytes(void);

#endif
