/* cycprof: where the contexts' dense counter arrays live (cp_cold.c).
 *
 * Millions of small arrays are allocated and grown as contexts run, and
 * dropped when they are packed (cc1plus: about 10 M of each).  Valgrind's
 * allocator spent 2.8 s of a 39 s run on them.  Here they are carved from
 * big chunks by a bump pointer, and nothing is freed one by one: a
 * packing sweep, which visits every array anyway, copies the arrays it
 * keeps into fresh chunks and then recycles all the old ones at once.  A
 * grown array leaves its old copy behind until the next sweep, so the
 * sweep is due by the bytes carved (cp_densespace_bytes), not by the
 * arrays' lengths. */
#ifndef CP_DENSESPACE_H
#define CP_DENSESPACE_H

#include "pub_tool_basics.h"

/* n words, not zeroed.  Valid until the next sweep ends: that sweep must
 * keep (move) every array still in use. */
ULong* cp_densespace_alloc(UInt n);
/* Bytes carved since the last sweep ended, what it kept included. */
ULong  cp_densespace_bytes(void);

/* A sweep: between begin and end, cp_densespace_keep copies an array
 * into the new space; at the end every array not kept is gone. */
void   cp_densespace_begin_sweep(void);
ULong* cp_densespace_keep(const ULong* block, UInt n);
void   cp_densespace_end_sweep(void);

#endif
