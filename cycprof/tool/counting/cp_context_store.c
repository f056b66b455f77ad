/* cycprof: contexts by id, in chunks (cp_context_store.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "cp_array.h"
#include "cp_context_store.h"
#include "cp_hugemem.h"

#define CHUNK_SHIFT CP_CONTEXT_CHUNK_SHIFT
#define CHUNK_CONTEXTS (1u << CHUNK_SHIFT)
/* and the zero context after the last */
#define CHUNK_BYTES ((CHUNK_CONTEXTS + 1) * sizeof(Context))
Context**         cp_context_chunks;
static UInt       n_chunks, chunks_capacity;
static UInt       n_contexts;
/* The chunks by address, for address -> id: [i] is the i-th lowest. */
static Context**  chunks_by_address;
static UInt*      chunk_number;
static UInt       by_address_capacity, number_capacity;

static void add_chunk(void)
{
   Context* chunk = cp_hugemem_carve(CHUNK_BYTES);
   UInt i = n_chunks;
   cp_context_chunks = cp_room_for_one("cp.ctx.chunks", cp_context_chunks,
                                       n_chunks, &chunks_capacity,
                                       sizeof(Context*), 64);
   chunks_by_address = cp_room_for_one("cp.ctx.byaddr", chunks_by_address,
                                       n_chunks, &by_address_capacity,
                                       sizeof(Context*), 64);
   chunk_number = cp_room_for_one("cp.ctx.chunkno", chunk_number, n_chunks,
                                  &number_capacity, sizeof(UInt), 64);
   for (; i > 0 && chunks_by_address[i - 1] > chunk; i--) {
      chunks_by_address[i] = chunks_by_address[i - 1];
      chunk_number[i] = chunk_number[i - 1];
   }
   chunks_by_address[i] = chunk;
   chunk_number[i] = n_chunks;
   cp_context_chunks[n_chunks++] = chunk;
}

Context* cp_context_store_next(void)
{
   UInt id = n_contexts + 1;
   if ((id >> CHUNK_SHIFT) == n_chunks) add_chunk();
   n_contexts = id;
   return cp_context_at(id);
}

UInt cp_context_id(const Context* c)
{
   UInt lo = 0, hi = n_chunks;
   /* The last chunk at or below c. */
   while (hi - lo > 1) {
      UInt mid = lo + (hi - lo) / 2;
      if (chunks_by_address[mid] <= c) lo = mid;
      else hi = mid;
   }
   tl_assert(c >= chunks_by_address[lo]
             && c < chunks_by_address[lo] + CHUNK_CONTEXTS);
   return (chunk_number[lo] << CHUNK_SHIFT) + (UInt)(c - chunks_by_address[lo]);
}

ULong cp_context_bytes(void)
{
   return (ULong)n_chunks * CHUNK_BYTES;
}

UInt cp_context_count(void)
{
   return n_contexts;
}

Context* cp_context_by_id(UInt id)
{
   tl_assert(id >= 1 && id <= n_contexts);
   return cp_context_at(id);
}
