/* cycprof: the tool's heap, carved from the huge-page reservation.
 *
 * Valgrind's own allocator serves the tool from its core arena: once the
 * tool's blocks outgrow the superblock Valgrind starts with, the arena maps
 * another, wherever its address-space manager finds room, and the
 * program's /proc/self/maps gains a line that --tool=none does not show
 * (python3 after 30 M instructions: 64 lines against 63).  Blocks from
 * here live in the reservation (cp_hugemem.c), which is one line with
 * Valgrind's mapping beside it however much the tool takes.
 *
 * The same calls as VG_(malloc) and its kin, cost centre and all;
 * cp_heap_free also frees a block Valgrind's allocator gave. */
#ifndef CP_HEAP_H
#define CP_HEAP_H

#include "pub_tool_basics.h"

void*  cp_heap_malloc(const HChar* cost_centre, SizeT bytes);
void*  cp_heap_calloc(const HChar* cost_centre, SizeT count, SizeT size);
void*  cp_heap_realloc(const HChar* cost_centre, void* block, SizeT bytes);
HChar* cp_heap_strdup(const HChar* cost_centre, const HChar* text);
void   cp_heap_free(void* block);

/* The size class of a block of bytes (1 to 2^20): its number, below
 * CP_HEAP_SIZE_CLASSES, and the bytes a block of it holds (*usable), at
 * most a quarter more.  For allocators that keep lists by size too
 * (cp_densespace.c). */
#define CP_HEAP_SIZE_CLASSES 64
UInt   cp_heap_size_class(SizeT bytes, SizeT* usable);

#endif
