/* cycprof: contexts by id, in chunks (cp_context_store.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
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
typedef struct {
   Context* base;
   UInt     number;   /* its index in cp_context_chunks */
} ChunkAt;
static ChunkAt*   by_address;
static UInt       by_address_capacity;

static void add_chunk(void)
{
   Context* chunk = cp_hugemem_carve(CHUNK_BYTES);
   UInt i = n_chunks;
   cp_context_chunks = cp_room_for_one("cp.ctx.chunks", cp_context_chunks,
                                       n_chunks, &chunks_capacity,
                                       sizeof(Context*), 64);
   by_address = cp_room_for_one("cp.ctx.byaddr", by_address, n_chunks,
                                &by_address_capacity, sizeof(ChunkAt), 64);
   for (; i > 0 && by_address[i - 1].base > chunk; i--)
      by_address[i] = by_address[i - 1];
   by_address[i].base = chunk;
   by_address[i].number = n_chunks;
   cp_context_chunks[n_chunks++] = chunk;
}

Context* cp_context_store_next(void)
{
   UInt id = n_contexts + 1;
   if (id >> CP_CONTEXT_ID_BITS) {
      VG_(fmsg)("cycprof: more than %u calling contexts, the most one run "
                "can hold\n", (1u << CP_CONTEXT_ID_BITS) - 1);
      VG_(exit)(1);
   }
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
      if (by_address[mid].base <= c) lo = mid;
      else hi = mid;
   }
   tl_assert(c >= by_address[lo].base
             && c < by_address[lo].base + CHUNK_CONTEXTS);
   return (by_address[lo].number << CHUNK_SHIFT)
          + (UInt)(c - by_address[lo].base);
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
