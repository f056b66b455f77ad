/* cycprof: memory for the tables the run reads at random (cp_hugemem.h).
 *
 * Everything is carved from a reservation: one mapping of Valgrind's own,
 * RESERVE_BYTES of address space that is resident only where it has been
 * touched.  One mapping is one range however many tables the run grows
 * to, so the program's /proc/self/maps gains no line: the kernel merges it
 * with Valgrind's mapping beside it.  Advice for huge pages on the
 * reservation alone would split it off again, the range before it and
 * the range after it each a line of their own; so the advice covers the
 * whole of the merged mapping, Valgrind's memory beside the reservation
 * too.  A table that is freed gives its pages back; its address space is
 * not used again. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_hugemem.h"
#include "cp_sys.h"

#define HUGE_PAGE     CP_HUGE_PAGE_BYTES
#define CACHE_LINE    64ul
/* Address space, not memory.  A smaller one is tried where the kernel
 * refuses this much (strict overcommit, a small machine). */
#define RESERVE_BYTES (4ul << 30)
#define MIN_RESERVE   (64ul << 20)
/* A Rust hello world's tables take well under 1 MiB. */
#define ADVISE_AFTER_BYTES (8ul << 20)
#define MAX_REGIONS   64
#define MAX_TABLES    64

typedef struct {
   UChar* start;
   SizeT  bytes;
} Range;

static Range  regions[MAX_REGIONS];  /* the reservations, to advise */
static UInt   n_regions;
static UChar* next;                  /* the current reservation's rest */
static SizeT  left;

static Range  tables[MAX_TABLES];    /* carved tables not yet freed */
static UInt   n_tables;

static Bool   advising;
static SizeT  bytes_taken;

static UWord align_up(UWord a, UWord to)
{
   return (a + to - 1) & ~(to - 1);
}

static Bool inside(const Range* r, const void* p)
{
   return (const UChar*)p >= r->start && (const UChar*)p < r->start + r->bytes;
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

/* The whole of Valgrind's mapping that holds r, as its address-space
 * manager sees it (it merges neighbours as the kernel does); r alone where
 * that mapping is not an anonymous one of Valgrind's. */
static void advise(const Range* r)
{
   NSegment const* seg = VG_(am_find_nsegment)((Addr)r->start);
   if (seg && seg->kind == SkAnonV && seg->end >= (Addr)r->start + r->bytes - 1)
      cp_sys_prefer_huge_pages((void*)seg->start, seg->end - seg->start + 1);
   else
      cp_sys_prefer_huge_pages(r->start, r->bytes);
}

/* Past ADVISE_AFTER_BYTES the run is no longer starting up: from then on
 * the reservations are advised, the ones made before at once. */
static void took(SizeT bytes)
{
   UInt i;
   bytes_taken += bytes;
   if (advising || bytes_taken < ADVISE_AFTER_BYTES) return;
   advising = True;
   for (i = 0; i < n_regions; i++) advise(&regions[i]);
}

/* A fresh mapping is zero and resident only where touched, so carving
 * touches nothing.  Where no mapping is to be had, Valgrind's allocator
 * gives memory that must be zeroed here. */
static void new_region(SizeT at_least)
{
   SizeT want = at_least > RESERVE_BYTES ? at_least : RESERVE_BYTES;
   UChar* mapped = NULL;
   Range r;
   while (!(mapped = map_fresh(want)) && want / 2 >= at_least
          && want / 2 >= MIN_RESERVE)
      want /= 2;
   if (!mapped) {
      want = at_least;
      mapped = VG_(malloc)("cp.hugemem.region", want);
      VG_(memset)(mapped, 0, want);
   }
   /* cp_hugemem_owns must know every region the heap carves from. */
   if (n_regions == MAX_REGIONS)
      VG_(tool_panic)("cycprof: its tables took more than 64 reservations of address space");
   /* The rest of the old one stays unused: its huge page may be resident
    * whole, so give its pages back. */
   if (left) cp_sys_release_pages(next, left);
   next = mapped;
   left = want;
   r.start = mapped;
   r.bytes = want;
   if (advising) advise(&r);
   regions[n_regions++] = r;
}

static void* carve(SizeT bytes, UWord align)
{
   UWord skip = align_up((UWord)next, align) - (UWord)next;
   void* p;
   if (skip + bytes > left) {
      new_region(bytes + align);
      skip = align_up((UWord)next, align) - (UWord)next;
   }
   next += skip;
   p = next;
   next += bytes;
   left -= skip + bytes;
   took(bytes);
   return p;
}

void* cp_hugemem_carve(SizeT bytes)
{
   return carve(align_up(bytes, 8), 8);
}

void* cp_hugemem_carve_aligned(SizeT bytes)
{
   return carve(align_up(bytes, 8), HUGE_PAGE);
}

void* cp_hugemem_carve_at(SizeT bytes, UWord align)
{
   return carve(align_up(bytes, 8), align);
}

Bool cp_hugemem_owns(const void* p)
{
   UInt i;
   for (i = n_regions; i > 0; i--)
      if (inside(&regions[i - 1], p)) return True;
   return False;
}

void* cp_hugemem_table(const HChar* cost_centre, SizeT bytes, void** block)
{
   Bool huge = bytes >= HUGE_PAGE;
   void* table = carve(align_up(bytes, 8), huge ? HUGE_PAGE : CACHE_LINE);
   (void)cost_centre;
   tl_assert(n_tables < MAX_TABLES);
   tables[n_tables].start = table;
   tables[n_tables].bytes = bytes;
   n_tables++;
   *block = table;
   return table;
}

void cp_hugemem_table_free(void* block)
{
   UInt i;
   if (!block) return;
   for (i = 0; i < n_tables; i++) {
      if (!inside(&tables[i], block)) continue;
      cp_sys_release_pages(tables[i].start, tables[i].bytes);
      tables[i] = tables[--n_tables];
      return;
   }
   tl_assert2(0, "cp_hugemem_table_free: %p is no table", block);
}
