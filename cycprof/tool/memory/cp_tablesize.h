/* cycprof: the sizes an open-addressing table grows through, and where a
 * hash lands in a table of any such size.
 *
 * A table that doubles is, once grown, half as full as its limit allows
 * (cc1plus's (parent, edge) table: 3.1 M entries in room for 6.3 M).
 * Stepping through 2^k and 3 * 2^(k-1) instead keeps a grown table at
 * least two thirds as full as its limit, and it is never larger than the
 * doubling table would be. */
#ifndef CP_TABLESIZE_H
#define CP_TABLESIZE_H

#include "pub_tool_basics.h"

/* The size after n, itself such a size of at least 2: a power of two
 * grows by half, the size between two powers grows to the next. */
static inline UWord cp_tablesize_next(UWord n)
{
   return (n & (n - 1)) == 0 ? n + n / 2 : n / 3 * 4;
}

/* Where hash lands in a table of n slots (n < 2^32): the low 32 bits of
 * the hash scaled to n, one multiply instead of a mask. */
static inline UWord cp_tablesize_home(UWord hash, UWord n)
{
   return (UWord)(((ULong)(UInt)hash * n) >> 32);
}

/* The slot after i in a table of n slots, wrapping around. */
static inline UWord cp_tablesize_after(UWord i, UWord n)
{
   return i + 1 == n ? 0 : i + 1;
}

#endif
