/* cycprof: storage for the exit counters of all cost centers.
 *
 * Counters sit in fixed chunks that never move, because the inline code
 * keeps pointers to them; a cost center names its counters by a 32-bit
 * index, half the size of a pointer in every cost-center slot. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "cp_array.h"
#include "cp_counters.h"
#include "cp_hugemem.h"

#define CHUNK_SHIFT 16
#define CHUNK_COUNTERS (1u << CHUNK_SHIFT)

static ULong** chunks;
static UInt    n_chunks, chunks_capacity;
static UInt    next_free;    /* index of the next counter */
static UInt    chunk_end;    /* first index past the current chunk */

static void new_chunk(void)
{
   chunks = cp_room_for_one("cp.counters.chunks", chunks, n_chunks,
                            &chunks_capacity, sizeof(ULong*), 64);
   chunks[n_chunks] = cp_hugemem_carve(CHUNK_COUNTERS * sizeof(ULong));
   next_free = n_chunks << CHUNK_SHIFT;
   n_chunks++;
   chunk_end = n_chunks << CHUNK_SHIFT;
   tl_assert(n_chunks < (1u << (32 - CHUNK_SHIFT)));
}

UInt cp_counters_alloc(UInt n)
{
   UInt first;
   tl_assert(n > 0 && n <= CHUNK_COUNTERS);
   /* A cost center's counters never straddle two chunks. */
   if (n_chunks == 0 || next_free + n > chunk_end) new_chunk();
   first = next_free;
   next_free += n;
   return first;
}

ULong* cp_counters_at(UInt index)
{
   return chunks[index >> CHUNK_SHIFT] + (index & (CHUNK_COUNTERS - 1));
}

ULong cp_counters_bytes(void)
{
   return (ULong)n_chunks * CHUNK_COUNTERS * sizeof(ULong);
}
