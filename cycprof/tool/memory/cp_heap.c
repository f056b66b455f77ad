/* cycprof: the tool's heap (cp_heap.h).
 *
 * Small blocks come in size classes a quarter of a power of two apart (at
 * most a quarter wasted), each with a list of the freed blocks of its
 * class; a freed block is kept for its class, never merged (from 64 KiB
 * up, with its pages given back).  Large blocks
 * are carved on their own, and freeing one gives its pages back and keeps
 * its address space on a list: a dump that asks again for the buffers of
 * the one before gets them (client requests can dump thousands of times),
 * and the arrays of hash maps and tables, which double as they grow, do
 * not take a block more than twice their size. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "cp_heap.h"
#include "cp_hugemem.h"
#include "cp_sys.h"

#define ALIGN        16ul
#define LARGE_BYTES  (1ul << 20)  /* above this, a block is large */
/* A freed block of at least this many bytes gives its pages back while it
 * waits on its class's list: the arrays that double as they grow leave one
 * of each size behind (cc1plus: 11 MB of them at the end of the run). */
#define RELEASE_BYTES (64ul << 10)
#define N_CLASSES    CP_HEAP_SIZE_CLASSES

/* Before every block; keeps the block ALIGN-aligned. */
typedef struct {
   SizeT usable;   /* bytes the block holds */
   SizeT klass;    /* its size class, or LARGE */
} Header;
#define LARGE ((SizeT)-1)

typedef struct FreeBlock { struct FreeBlock* next; } FreeBlock;

static FreeBlock* free_lists[N_CLASSES];

static void* block_of(Header* h) { return h + 1; }
static Header* header_of(void* block) { return (Header*)block - 1; }

static FreeBlock* free_large;  /* pages given back, address space kept */

/* A freed large block of at least bytes and at most twice as many, or
 * NULL. */
static void* reuse_large(SizeT bytes)
{
   FreeBlock** link;
   for (link = &free_large; *link; link = &(*link)->next) {
      SizeT usable = header_of(*link)->usable;
      if (usable >= bytes && usable / 2 <= bytes) {
         FreeBlock* f = *link;
         *link = f->next;
         return f;
      }
   }
   return NULL;
}

/* 16, 32, 48, 64, then 80, 96, 112, 128, 160, 192, 224, 256... */
UInt cp_heap_size_class(SizeT bytes, SizeT* usable)
{
   UInt msb = 0, quarter_index;
   SizeT base, quarter;
   if (bytes <= 64) {
      *usable = (bytes + ALIGN - 1) & ~(ALIGN - 1);
      return (UInt)(*usable / ALIGN) - 1;
   }
   while ((2ul << msb) <= bytes - 1) msb++;
   base = 1ul << msb;
   quarter = base / 4;
   quarter_index = (UInt)((bytes - 1 - base) / quarter);
   *usable = base + (quarter_index + 1) * quarter;
   return 4 + (msb - 6) * 4 + quarter_index;
}

/* Whether a freed block gave its pages back (cp_heap_free). */
static Bool releases(const Header* h)
{
   return h->klass == LARGE || h->usable >= RELEASE_BYTES;
}

/* *fresh: the block was carved now, so it is zero and none of its pages
 * was touched. */
static void* allocate(SizeT bytes, Bool* fresh)
{
   Header* h;
   SizeT usable;
   UInt klass;
   *fresh = False;
   if (bytes == 0) bytes = 1;
   if (bytes > LARGE_BYTES) {
      void* reused = reuse_large(bytes);
      if (reused) return reused;
      usable = (bytes + ALIGN - 1) & ~(ALIGN - 1);
      h = cp_hugemem_carve_at(sizeof(Header) + usable, ALIGN);
      h->usable = usable;
      h->klass = LARGE;
      *fresh = True;
      return block_of(h);
   }
   klass = cp_heap_size_class(bytes, &usable);
   tl_assert(klass < N_CLASSES);
   if (free_lists[klass]) {
      FreeBlock* f = free_lists[klass];
      free_lists[klass] = f->next;
      return f;
   }
   h = cp_hugemem_carve_at(sizeof(Header) + usable, ALIGN);
   h->usable = usable;
   h->klass = klass;
   *fresh = True;
   return block_of(h);
}

void* cp_heap_malloc(const HChar* cost_centre, SizeT bytes)
{
   Bool fresh;
   (void)cost_centre;
   return allocate(bytes, &fresh);
}

/* Zeroes bytes of a block taken from a free list.  The pages a freed
 * block gave back read as zero and are not resident: only the parts that
 * stayed, and the list's link in the first word, are written, so that a
 * table filled sparsely costs the pages written here too. */
static void zero_reused(void* block, SizeT bytes)
{
   const Header* h = header_of(block);
   Addr start = (Addr)block, end = start + bytes;
   Addr given_lo = VG_PGROUNDUP(start), given_hi = VG_PGROUNDDN(start + h->usable);
   if (!releases(h) || given_hi <= given_lo || end <= given_lo) {
      VG_(memset)(block, 0, bytes);
      return;
   }
   VG_(memset)(block, 0, given_lo - start);
   /* The link, where the block starts on a page that was given back. */
   *(FreeBlock*)block = (FreeBlock){ 0 };
   if (end > given_hi) VG_(memset)((void*)given_hi, 0, end - given_hi);
}

/* A block carved now is zero already: a big table that is filled sparsely
 * (the stacks dump's maps and per-context arrays) then costs only the
 * pages written, not all of them. */
void* cp_heap_calloc(const HChar* cost_centre, SizeT count, SizeT size)
{
   SizeT bytes = count * size;
   Bool fresh;
   void* block;
   (void)cost_centre;
   tl_assert(size == 0 || bytes / size == count);
   block = allocate(bytes, &fresh);
   if (!fresh) zero_reused(block, bytes);
   return block;
}

void cp_heap_free(void* block)
{
   Header* h;
   if (!block) return;
   if (!cp_hugemem_owns(block)) {
      VG_(free)(block);
      return;
   }
   h = header_of(block);
   /* The page that holds the header and the link stays (zero_reused
    * counts on which pages go). */
   if (releases(h)) cp_sys_release_pages(block, h->usable);
   if (h->klass == LARGE) {
      ((FreeBlock*)block)->next = free_large;
      free_large = block;
      return;
   }
   tl_assert(h->klass < N_CLASSES);
   ((FreeBlock*)block)->next = free_lists[h->klass];
   free_lists[h->klass] = block;
}

void* cp_heap_realloc(const HChar* cost_centre, void* block, SizeT bytes)
{
   SizeT had;
   void* moved;
   if (!block) return cp_heap_malloc(cost_centre, bytes);
   if (!cp_hugemem_owns(block)) return VG_(realloc)(cost_centre, block, bytes);
   had = header_of(block)->usable;
   if (bytes <= had) return block;
   moved = cp_heap_malloc(cost_centre, bytes);
   VG_(memcpy)(moved, block, had);
   cp_heap_free(block);
   return moved;
}

HChar* cp_heap_strdup(const HChar* cost_centre, const HChar* text)
{
   SizeT bytes = VG_(strlen)(text) + 1;
   HChar* copy = cp_heap_malloc(cost_centre, bytes);
   VG_(memcpy)(copy, text, bytes);
   return copy;
}
