/* cycprof: contexts by id, in chunks (cp_context_store.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "cp_array.h"
#include "cp_context_store.h"
#include "cp_hugemem.h"

#define CHUNK_SHIFT CP_CONTEXT_CHUNK_SHIFT
#define CHUNK_CONTEXTS (1u << CHUNK_SHIFT)
Context**         cp_context_chunks;
static UInt       n_chunks, chunks_capacity;
static UInt       n_contexts;

Context* cp_context_store_next(void)
{
   UInt id = n_contexts + 1;
   Context* c;
   if ((id >> CHUNK_SHIFT) == n_chunks) {
      cp_context_chunks = cp_room_for_one("cp.ctx.chunks", cp_context_chunks,
                                          n_chunks, &chunks_capacity,
                                          sizeof(Context*), 64);
      /* On a cache line: no context straddles two. */
      cp_context_chunks[n_chunks++] =
         cp_hugemem_carve_at(CHUNK_CONTEXTS * sizeof(Context), 64);
   }
   c = &cp_context_chunks[id >> CHUNK_SHIFT][id & (CHUNK_CONTEXTS - 1)];
   c->id = ++n_contexts;
   return c;
}

ULong cp_context_bytes(void)
{
   return (ULong)n_chunks * CHUNK_CONTEXTS * sizeof(Context);
}

UInt cp_context_count(void)
{
   return n_contexts;
}

Context* cp_context_by_id(UInt id)
{
   tl_assert(id >= 1 && id <= n_contexts);
   return &cp_context_chunks[id >> CHUNK_SHIFT][id & (CHUNK_CONTEXTS - 1)];
}
