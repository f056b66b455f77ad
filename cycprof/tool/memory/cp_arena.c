/* cycprof: bump allocation for records that live until the dump. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_arena.h"
#include "cp_hugemem.h"

#define CHUNK_BYTES (1024 * 1024)

static UChar* chunk_next;
static SizeT  chunk_left;
static SizeT  total_bytes;

void* cp_arena_alloc(SizeT size)
{
   void* p;
   size = (size + 7) & ~(SizeT)7;
   if (size > chunk_left) {
      SizeT bytes = size > CHUNK_BYTES ? size : CHUNK_BYTES;
      chunk_next = cp_hugemem_carve(bytes);
      chunk_left = bytes;
      total_bytes += bytes;
   }
   p = chunk_next;
   chunk_next += size;
   chunk_left -= size;
   return p;
}

SizeT cp_arena_bytes(void)
{
   return total_bytes;
}
