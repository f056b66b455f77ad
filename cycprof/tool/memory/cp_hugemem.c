/* cycprof: memory for the tables the run reads at random (cp_hugemem.h).
 *
 * Everything is carved from reservations: mappings of Valgrind's own,
 * address space that is resident only where it has been touched, each
 * twice the one before.  The kernel merges a reservation with Valgrind's
 * mapping beside it, so the program's /proc/self/maps gains no line for
 * the first, and at most one for each later one.
 *
 * Huge pages come from MADV_COLLAPSE, page by page as the carving passes
 * them, not from MADV_HUGEPAGE: that advice is a flag of the mapping, and
 * a range with a flag its neighbours lack is a line of its own; worse, a
 * mapping Valgrind makes later beside a flagged one stays a line of its own
 * where under --tool=none it would merge.  A table that is freed gives its
 * pages back; its address space is not used again. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "cp_hugemem.h"
#include "cp_sys.h"

#define HUGE_PAGE     CP_HUGE_PAGE_BYTES
#define CACHE_LINE    64ul
/* Address space, not memory: the first reservation, and the largest a
 * later one grows to, each twice the one before.  Not 4 GiB at once:
 * qemu-user keeps flags for every page of the address space a program maps
 * (arm64 under emulation: 23 MB more peak RSS for fib(27) with 4 GiB than
 * with 256 MiB).  A smaller one is tried where the kernel refuses (strict
 * overcommit, a small machine). */
#define FIRST_RESERVE (256ul << 20)
#define MAX_RESERVE   (4ul << 30)
#define MIN_RESERVE   (64ul << 20)
/* Huge pages pay once the tables far outgrow what the TLB reaches in small
 * pages (a few MiB), and the run lasts long enough to win back what
 * collapsing costs: the kernel zeroes and copies 2 MiB a page.  A
 * compiler's 370 MB of tables gain about 1 s of 45; python3's 20 MB
 * gained nothing and cost 0.18 s of system time and 4 MB; 100,000 region
 * sets' 120 MB, filled in under a second, cost 0.15 s of 1.2 s.  Timing
 * and resident memory only: no count depends on it. */
#define HUGE_AFTER_BYTES (64ul << 20)
#define HUGE_AFTER_MS    2000u
#define MAX_REGIONS   64
#define MAX_TABLES    64

typedef struct {
   UChar* start;
   SizeT  bytes;
} Range;

static Range  regions[MAX_REGIONS];  /* the reservations */
static UInt   n_regions;
static UChar* next;                  /* the current reservation's rest */
static SizeT  left;

static UChar* gap;                   /* carve_from_gap */
static SizeT  gap_left;

static Range  tables[MAX_TABLES];    /* carved tables not yet freed */
static UInt   n_tables;

static SizeT  bytes_taken;
static Bool   huge;                  /* huge pages pay: huge_pages_pay */
static Bool   kernel_collapses = True;
static UChar* collapsed_to;          /* the current reservation's huge
                                        pages below this are done */
static UChar* clock_read_at;         /* where huge_pages_pay last looked */
static Range  released[MAX_TABLES];  /* tables freed before huge pages */
static UInt   n_released;
static Bool   released_lost;         /* more than that: no catching up */

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

/* Whether a page lies in a table freed before huge pages began: its
 * memory was given back, and collapsing it would make it resident again. */
static Bool released_before(const UChar* page)
{
   UInt i;
   for (i = 0; i < n_released; i++)
      if (page >= released[i].start
          && page + HUGE_PAGE <= released[i].start + released[i].bytes)
         return True;
   return False;
}

/* Whether huge pages pay yet (HUGE_AFTER_BYTES, HUGE_AFTER_MS); the clock
 * is read at most once per huge page carved. */
static Bool huge_pages_pay(UChar* upto)
{
   if (huge) return True;
   if (bytes_taken < HUGE_AFTER_BYTES || upto <= clock_read_at) return False;
   clock_read_at = upto;
   if (VG_(read_millisecond_timer)() < HUGE_AFTER_MS) return False;
   huge = True;
   return True;
}

/* Each huge page of the current reservation that the carving has passed
 * whole becomes a huge page now, once huge pages pay: the pages carved
 * before then all at once, but those of tables freed meanwhile.  Then a
 * table of 2 MiB or more starts on a huge page and is done as it is
 * carved; the bump arena's and the heap's pages as the carving leaves them. */
static void took(SizeT bytes)
{
   UChar* upto = (UChar*)((UWord)next & ~(HUGE_PAGE - 1));
   UChar* page;
   bytes_taken += bytes;
   if (upto <= collapsed_to || !huge_pages_pay(upto)) return;
   page = (UChar*)align_up((UWord)(released_lost ? upto : collapsed_to),
                           HUGE_PAGE);
   for (; page < upto && kernel_collapses; page += HUGE_PAGE) {
      if (released_before(page)) continue;
      {
         /* MADV_COLLAPSE wants a page present; the same byte back is no
          * change. */
         volatile UChar* first = page;
         *first = *first;
      }
      kernel_collapses = cp_sys_collapse_huge_page(page);
   }
   collapsed_to = upto;
   n_released = 0;
   released_lost = False;
}

/* A fresh mapping is zero and resident only where touched, so carving
 * touches nothing.  Where no mapping is to be had, Valgrind's allocator
 * gives memory that must be zeroed here. */
static void new_region(SizeT at_least)
{
   SizeT grown = n_regions == 0 ? FIRST_RESERVE
                 : regions[n_regions - 1].bytes * 2 > MAX_RESERVE ? MAX_RESERVE
                 : regions[n_regions - 1].bytes * 2;
   SizeT want = at_least > grown ? at_least : grown;
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
   collapsed_to = mapped;
   clock_read_at = mapped;
   n_released = 0;
   released_lost = False;
   r.start = mapped;
   r.bytes = want;
   regions[n_regions++] = r;
}

/* Carving from the largest gap an alignment left lately, in practice the
 * one below a table that starts on a huge page: once huge pages pay, that
 * page is resident whole anyway.  A compiler's growing tables leave about
 * 10 MB of such gaps. */
static void* carve_from_gap(SizeT bytes, UWord align)
{
   UWord skip = align_up((UWord)gap, align) - (UWord)gap;
   void* p;
   if (!gap || skip + bytes > gap_left) return NULL;
   p = gap + skip;
   gap += skip + bytes;
   gap_left -= skip + bytes;
   bytes_taken += bytes;
   return p;
}

static void* carve(SizeT bytes, UWord align)
{
   UWord skip;
   void* p;
   if (align < HUGE_PAGE && (p = carve_from_gap(bytes, align)))
      return p;
   skip = align_up((UWord)next, align) - (UWord)next;
   if (skip + bytes > left) {
      new_region(bytes + align);
      skip = align_up((UWord)next, align) - (UWord)next;
   }
   if (skip > gap_left) {
      gap = next;
      gap_left = skip;
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

void* cp_hugemem_table(const HChar* cost_centre, SizeT bytes)
{
   Bool spans_huge_page = bytes >= HUGE_PAGE;
   void* table = carve(align_up(bytes, 8),
                       spans_huge_page ? HUGE_PAGE : CACHE_LINE);
   (void)cost_centre;
   tl_assert(n_tables < MAX_TABLES);
   tables[n_tables].start = table;
   tables[n_tables].bytes = bytes;
   n_tables++;
   return table;
}

void cp_hugemem_table_free(void* table)
{
   UInt i;
   if (!table) return;
   for (i = 0; i < n_tables; i++) {
      if (!inside(&tables[i], table)) continue;
      cp_sys_release_pages(tables[i].start, tables[i].bytes);
      if (!huge && n_released < MAX_TABLES)
         released[n_released++] = tables[i];
      else if (!huge)
         released_lost = True;
      tables[i] = tables[--n_tables];
      return;
   }
   tl_assert2(0, "cp_hugemem_table_free: %p is no table", table);
}
