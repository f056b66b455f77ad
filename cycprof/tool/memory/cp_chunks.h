/* cycprof: a growing array whose elements never move, in chunks of
 * 2^CP_CHUNK_SHIFT.  Growing copies nothing and leaves no freed block
 * behind: an array that grows by half (an XArray) of 100,000 regions
 * copied and touched 30 MB to hold 7 MB (region-scale). */
#ifndef CP_CHUNKS_H
#define CP_CHUNKS_H

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "cp_array.h"
#include "cp_heap.h"

#define CP_CHUNK_SHIFT 10

typedef struct {
   UChar** chunks;
   UInt    n_chunks, chunks_room;
   UInt    used;
   UInt    size;      /* of an element, in bytes */
} ChunkArray;

static inline void* cp_chunks_at(const ChunkArray* a, UInt i)
{
   return a->chunks[i >> CP_CHUNK_SHIFT]
          + (SizeT)(i & ((1u << CP_CHUNK_SHIFT) - 1)) * a->size;
}

/* A copy of *item at the end; returns its index. */
static inline UInt cp_chunks_add(ChunkArray* a, const void* item)
{
   if ((a->used >> CP_CHUNK_SHIFT) == a->n_chunks) {
      a->chunks = cp_room_for_one("cp.chunks", a->chunks, a->n_chunks,
                                  &a->chunks_room, sizeof(UChar*), 16);
      a->chunks[a->n_chunks++] =
         cp_heap_malloc("cp.chunks.items", (SizeT)a->size << CP_CHUNK_SHIFT);
   }
   VG_(memcpy)(cp_chunks_at(a, a->used), item, a->size);
   return a->used++;
}

#endif
