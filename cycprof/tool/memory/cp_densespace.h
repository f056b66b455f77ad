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
 * arrays' lengths.
 *
 * A block is named by a 32-bit handle (cp_numbered.h): the chunk's number
 * above, the word within it below.  Chunks are numbered once and
 * recycled with their numbers. */
#ifndef CP_DENSESPACE_H
#define CP_DENSESPACE_H

#include "pub_tool_basics.h"

#define CP_DENSE_CHUNK_SHIFT 17                  /* words: 1 MiB */
#define CP_DENSE_CHUNK_WORDS (1u << CP_DENSE_CHUNK_SHIFT)
#define CP_DENSE_MAX_CHUNKS  (1u << (32 - CP_DENSE_CHUNK_SHIFT))
/* Each block starts with a header of this many words, for the caller. */
#define CP_DENSE_HEADER_WORDS 2

/* The first word of each numbered chunk.  Number 0 is the user's, for
 * a few words that never move (cp_densespace_fixed). */
extern UChar* cp_densespace_bases[CP_DENSE_MAX_CHUNKS];
/* Handle k of number 0 names words + CP_DENSE_HEADER_WORDS + k, so that
 * the header before it starts at words[k]. */
void   cp_densespace_fixed(ULong* words);

static inline ULong* cp_densespace_at(UInt handle)
{
   return (ULong*)cp_densespace_bases[handle >> CP_DENSE_CHUNK_SHIFT]
          + (handle & (CP_DENSE_CHUNK_WORDS - 1));
}

/* A block of n words (more than the header), not zeroed; the handle of
 * the word after its header.  Valid until the next sweep
 * ends: that sweep must keep (move) every block still in use. */
UInt   cp_densespace_alloc(UInt n);
/* Bytes carved since the last sweep ended, what it kept included. */
ULong  cp_densespace_bytes(void);

/* Without sweeps (no packing): a block of n words or a few more, from a
 * list of freed blocks of its size if there is one, and back to it. */
UInt   cp_densespace_alloc_sized(UInt n);
void   cp_densespace_free_sized(UInt handle, UInt n);

/* A sweep: between begin and end, cp_densespace_keep moves a block (by
 * the handle alloc gave, n words in all) into the new space; at the end
 * every block not kept is gone.  Of the old space's chunks, those past
 * resident_bytes give their pages back until they are carved again. */
void   cp_densespace_begin_sweep(void);
UInt   cp_densespace_keep(UInt handle, UInt n);
void   cp_densespace_end_sweep(ULong resident_bytes);
/* The recycled chunks give their pages back (the run is over). */
void   cp_densespace_release_spare(void);

#endif
