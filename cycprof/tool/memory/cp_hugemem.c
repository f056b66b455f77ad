/* cycprof: memory for the tables the run reads at random (cp_hugemem.h). */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_hugemem.h"
#include "cp_sys.h"

#define HUGE_PAGE  CP_HUGE_PAGE_BYTES
#define SLAB_BYTES (32ul << 20)
#define CACHE_LINE 64ul

static UChar* slab_next;
static SizeT  slab_left;

static UWord align_up(UWord a, UWord to)
{
   return (a + to - 1) & ~(to - 1);
}

/* The unaligned head of the block is never touched past its malloc
 * header, so it costs address space, not memory. */
static void* aligned_block(const HChar* cost_centre, SizeT bytes, UWord to,
                           void** block)
{
   *block = VG_(malloc)(cost_centre, bytes + to);
   return (void*)align_up((UWord)*block, to);
}

/* A fresh mapping of Valgrind's own, or NULL. */
static UChar* map_fresh(SizeT bytes)
{
#if HAVE_VG_SHADOW_ALLOC_SYSRES
   SysRes r = VG_(am_shadow_alloc)(bytes);
   return sr_isError(r) ? NULL : (UChar*)sr_Res(r);
#else
   return VG_(am_shadow_alloc)(bytes);
#endif
}

/* A fresh mapping is zero and resident only where touched, so carving
 * touches nothing; its unaligned head is never touched at all.  Where
 * none is to be had, Valgrind's allocator says so, or gives memory that
 * must be zeroed here. */
static void new_slab(SizeT bytes)
{
   UChar* mapped = map_fresh(bytes + HUGE_PAGE);
   if (!mapped) {
      mapped = VG_(malloc)("cp.hugemem.slab", bytes + HUGE_PAGE);
      VG_(memset)(mapped, 0, bytes + HUGE_PAGE);
   }
   slab_next = (UChar*)align_up((UWord)mapped, HUGE_PAGE);
   slab_left = bytes;
   cp_sys_prefer_huge_pages(slab_next, bytes);
}

void* cp_hugemem_carve(SizeT bytes)
{
   void* p;
   bytes = align_up(bytes, 8);
   if (bytes > slab_left) {
      /* The old slab's tail stays unused: its huge page may be resident
       * whole, so give its pages back. */
      if (slab_left) cp_sys_release_pages(slab_next, slab_left);
      new_slab(bytes > SLAB_BYTES ? align_up(bytes, HUGE_PAGE) : SLAB_BYTES);
   }
   p = slab_next;
   slab_next += bytes;
   slab_left -= bytes;
   return p;
}

void* cp_hugemem_table(const HChar* cost_centre, SizeT bytes, void** block)
{
   Bool huge = bytes >= HUGE_PAGE;
   void* table = aligned_block(cost_centre, bytes,
                               huge ? HUGE_PAGE : CACHE_LINE, block);
   if (huge) cp_sys_prefer_huge_pages(table, bytes);
   VG_(memset)(table, 0, bytes);
   return table;
}
