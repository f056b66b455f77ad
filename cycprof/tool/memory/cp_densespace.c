/* cycprof: dense counter arrays carved from chunks (cp_densespace.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_densespace.h"
#include "cp_heap.h"
#include "cp_hugemem.h"

#define CHUNK_WORDS (1u << 17)   /* 1 MiB */

/* A chunk holds its link in its first word; an array bigger than a chunk
 * gets a chunk of its own, which is given back to Valgrind rather than
 * recycled. */
typedef struct Chunk {
   struct Chunk* next;
   UInt          words;   /* usable words after the header */
   ULong         data[];
} Chunk;

typedef struct {
   Chunk* chunks;   /* newest first; the first is carved from */
   UInt   used;     /* words carved from the first */
   ULong  bytes;    /* carved in all, for cp_densespace_bytes */
} Space;

static Space  current, sweeping;
static Chunk* recycled;   /* whole, standard chunks */

static Chunk* new_chunk(UInt words)
{
   Chunk* c;
   if (words <= CHUNK_WORDS && recycled) {
      c = recycled;
      recycled = c->next;
      return c;
   }
   if (words <= CHUNK_WORDS) {
      /* Standard chunks are recycled, never freed. */
      c = cp_hugemem_carve(sizeof(Chunk) + CHUNK_WORDS * sizeof(ULong));
      c->words = CHUNK_WORDS;
      return c;
   }
   c = cp_heap_malloc("cp.densespace", sizeof(Chunk) + (SizeT)words * sizeof(ULong));
   c->words = words;
   return c;
}

static ULong* carve(Space* s, UInt n)
{
   ULong* block;
   if (!s->chunks || s->chunks->words - s->used < n) {
      /* The old chunk's tail (less than n words) stays unused. */
      Chunk* c = new_chunk(n);
      c->next = s->chunks;
      s->chunks = c;
      s->used = 0;
   }
   block = s->chunks->data + s->used;
   s->used += n;
   s->bytes += (ULong)n * sizeof(ULong);
   return block;
}

ULong* cp_densespace_alloc(UInt n)
{
   return carve(&current, n);
}

ULong cp_densespace_bytes(void)
{
   return current.bytes;
}

void cp_densespace_begin_sweep(void)
{
   tl_assert(sweeping.chunks == NULL);
   sweeping = current;
   VG_(memset)(&current, 0, sizeof current);
}

ULong* cp_densespace_keep(const ULong* block, UInt n)
{
   ULong* copy = carve(&current, n);
   VG_(memcpy)(copy, block, (SizeT)n * sizeof(ULong));
   return copy;
}

void cp_densespace_end_sweep(void)
{
   Chunk* c = sweeping.chunks;
   while (c) {
      Chunk* next = c->next;
      if (c->words == CHUNK_WORDS) {
         c->next = recycled;
         recycled = c;
      } else {
         cp_heap_free(c);
      }
      c = next;
   }
   VG_(memset)(&sweeping, 0, sizeof sweeping);
}
