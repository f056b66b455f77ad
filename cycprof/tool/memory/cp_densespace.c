/* cycprof: dense counter arrays carved from chunks (cp_densespace.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "cp_densespace.h"
#include "cp_heap.h"
#include "cp_hugemem.h"
#include "cp_numbered.h"
#include "cp_sys.h"

#define CHUNK_WORDS CP_DENSE_CHUNK_WORDS
#define CHUNK_BYTES (CHUNK_WORDS * sizeof(ULong))

/* A chunk's record is before its words.  A block bigger than a standard
 * chunk gets a big chunk of its own, numbered as several standard ones in
 * a row so that a handle's word part stays below CHUNK_WORDS. */
typedef struct Chunk {
   struct Chunk* next;
   UInt          words;    /* usable words after the record */
   UInt          number;   /* its first number in cp_densespace_bases */
   ULong         data[];
} Chunk;

typedef struct {
   Chunk* chunks;   /* newest first; the first is carved from */
   UInt   used;     /* words carved from the first */
   ULong  bytes;    /* carved in all, for cp_densespace_bytes */
} Space;

UChar* cp_densespace_bases[CP_DENSE_MAX_CHUNKS];
static UInt numbered = 1;

void cp_densespace_fixed(ULong* words)
{
   cp_densespace_bases[0] = (UChar*)(words + CP_DENSE_HEADER_WORDS);
}

static Space  current, sweeping;
static Chunk* recycled;       /* whole standard chunks */
static Chunk* recycled_bare;  /* the same, their pages given back */
static Chunk* recycled_big;   /* big chunks, their pages given back */
/* Freed blocks by size class (cp_heap_size_class), linked through their
 * first words by handle. */
static UInt   freed[CP_HEAP_SIZE_CLASSES];

static UInt granules(UInt words)
{
   return (words + CHUNK_WORDS - 1) / CHUNK_WORDS;
}

static Chunk* new_chunk(UInt words)
{
   UInt n = granules(words);
   Chunk* c = cp_hugemem_carve(sizeof(Chunk) + (SizeT)n * CHUNK_WORDS
                                                  * sizeof(ULong));
   c->words = n * CHUNK_WORDS;
   c->number = cp_number_chunks(cp_densespace_bases, &numbered,
                                CP_DENSE_MAX_CHUNKS,
                                CHUNK_BYTES, (UChar*)c->data,
                                n, "cycprof: the dense counters took more "
                                   "than 32 GiB");
   return c;
}

/* A recycled big chunk of at least words and at most twice as many. */
static Chunk* reuse_big(UInt words)
{
   Chunk** link;
   for (link = &recycled_big; *link; link = &(*link)->next) {
      Chunk* c = *link;
      if (c->words >= words && c->words / 2 <= words) {
         *link = c->next;
         return c;
      }
   }
   return NULL;
}

static UInt handle_in(const Chunk* c, UInt word)
{
   return ((c->number + (word >> CP_DENSE_CHUNK_SHIFT)) << CP_DENSE_CHUNK_SHIFT)
          | (word & (CHUNK_WORDS - 1));
}

static Chunk* chunk_of_big(UInt handle)
{
   return (Chunk*)((UChar*)(cp_densespace_at(handle) - CP_DENSE_HEADER_WORDS)
                   - offsetof(Chunk, data));
}

/* Takes c out of list; False if it was not there. */
static Bool unlink_chunk(Chunk** list, Chunk* c)
{
   Chunk** link;
   for (link = list; *link; link = &(*link)->next) {
      if (*link != c) continue;
      *link = c->next;
      return True;
   }
   return False;
}

/* A big chunk no block uses any more: its pages go back, its numbers
 * stay with it for reuse_big. */
static void recycle_big(Chunk* c)
{
   cp_sys_release_pages(c->data, (SizeT)c->words * sizeof(ULong));
   c->next = recycled_big;
   recycled_big = c;
}

/* A big chunk holds one block: it goes after the chunk carved from. */
static void link_full(Space* s, Chunk* c)
{
   if (s->chunks) {
      c->next = s->chunks->next;
      s->chunks->next = c;
   } else {
      c->next = NULL;
      s->chunks = c;
      s->used = c->words;
   }
}

/* A resident chunk before one whose pages went back. */
static Chunk* take_recycled(void)
{
   Chunk** list = recycled ? &recycled : &recycled_bare;
   Chunk* c = *list;
   if (c) *list = c->next;
   return c;
}

static UInt carve(Space* s, UInt n)
{
   UInt word;
   tl_assert(n > CP_DENSE_HEADER_WORDS);
   s->bytes += (ULong)n * sizeof(ULong);
   if (n > CHUNK_WORDS) {
      Chunk* c = reuse_big(n);
      if (!c) c = new_chunk(n);
      link_full(s, c);
      return handle_in(c, CP_DENSE_HEADER_WORDS);
   }
   if (!s->chunks || s->chunks->words - s->used < n) {
      /* The old chunk's tail (less than n words) stays unused. */
      Chunk* c = take_recycled();
      if (!c) c = new_chunk(CHUNK_WORDS);
      c->next = s->chunks;
      s->chunks = c;
      s->used = 0;
   }
   word = s->used;
   s->used += n;
   return handle_in(s->chunks, word + CP_DENSE_HEADER_WORDS);
}

UInt cp_densespace_alloc(UInt n)
{
   return carve(&current, n);
}

static UInt size_class(UInt n, UInt* words)
{
   SizeT usable;
   UInt k = cp_heap_size_class((SizeT)n * sizeof(ULong), &usable);
   *words = (UInt)(usable / sizeof(ULong));
   return k;
}

UInt cp_densespace_alloc_sized(UInt n)
{
   UInt words, k, block;
   if (n > CHUNK_WORDS) return carve(&current, n);
   k = size_class(n, &words);
   if (!freed[k]) return carve(&current, words);
   block = freed[k];
   freed[k] = (UInt)cp_densespace_at(block)[-1];
   return block;
}

void cp_densespace_free_sized(UInt handle, UInt n)
{
   UInt words, k;
   if (n > CHUNK_WORDS) {
      Chunk* c = chunk_of_big(handle);
      Bool was_current = unlink_chunk(&current.chunks, c);
      tl_assert(was_current);
      recycle_big(c);
      return;
   }
   k = size_class(n, &words);
   cp_densespace_at(handle)[-1] = freed[k];
   freed[k] = handle;
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

UInt cp_densespace_keep(UInt handle, UInt n)
{
   UInt copy;
   if (n > CHUNK_WORDS) {
      /* A big chunk's block stays where it is: its chunk moves to the
       * new space. */
      Chunk* c = chunk_of_big(handle);
      Bool was_sweeping = unlink_chunk(&sweeping.chunks, c);
      tl_assert(was_sweeping);
      link_full(&current, c);
      current.bytes += (ULong)n * sizeof(ULong);
      return handle;
   }
   copy = carve(&current, n);
   VG_(memcpy)(cp_densespace_at(copy) - CP_DENSE_HEADER_WORDS,
               cp_densespace_at(handle) - CP_DENSE_HEADER_WORDS,
               (SizeT)n * sizeof(ULong));
   return copy;
}

/* A standard chunk no block uses gives its pages back until it is
 * carved again. */
static void recycle_bare(Chunk* c)
{
   cp_sys_release_pages(c->data, CHUNK_BYTES);
   c->next = recycled_bare;
   recycled_bare = c;
}

void cp_densespace_release_spare(void)
{
   while (recycled) {
      Chunk* c = recycled;
      recycled = c->next;
      recycle_bare(c);
   }
}

/* A compiler's sweeps once left 30 chunks resident against 8 in use. */
void cp_densespace_end_sweep(ULong resident_bytes)
{
   Chunk* c;
   ULong resident = 0;
   for (c = recycled; c; c = c->next) resident += CHUNK_BYTES;
   c = sweeping.chunks;
   while (c) {
      Chunk* next = c->next;
      if (c->words == CHUNK_WORDS && resident < resident_bytes) {
         c->next = recycled;
         recycled = c;
         resident += CHUNK_BYTES;
      } else if (c->words == CHUNK_WORDS) {
         recycle_bare(c);
      } else {
         recycle_big(c);
      }
      c = next;
   }
   VG_(memset)(&sweeping, 0, sizeof sweeping);
}
