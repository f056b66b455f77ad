/* cycprof: named regions, their table and their context trees. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xarray.h"
#include "cp_addrmap.h"
#include "cp_callstack.h"
#include "cp_collect.h"
#include "cp_context.h"
#include "cp_heap.h"
#include "cp_outfile.h"
#include "cp_regions.h"

#define MAX_NAME 256
#define MAX_WARNINGS 10

typedef struct {
   HChar* name;
   ULong  calls, inclusive, self;            /* whole run */
   ULong  part_calls, part_inclusive, part_self;   /* since the last dump */
} Region;

typedef struct {
   UInt  region;     /* index in regions */
   UInt  set;        /* the region set while it is open */
   ULong begin;      /* the thread's count at begin */
   ULong nested;     /* inclusive costs of regions closed inside it */
} OpenRegion;

typedef struct {
   UInt parent;
   UInt region;
} RegionSet;

static XArray*  regions;      /* Region */
static XArray*  sets;         /* RegionSet; set s is at index s - 1 */
static XArray** open_stacks;  /* [VG_N_THREADS] of OpenRegion */
static AddrMap  roots;        /* (serial << 32 | set) -> root Context* */
static UInt     warnings;

static void init(void)
{
   if (regions) return;
   regions = VG_(newXA)(cp_heap_malloc, "cp.regions", cp_heap_free, sizeof(Region));
   sets = VG_(newXA)(cp_heap_malloc, "cp.regions.sets", cp_heap_free,
                     sizeof(RegionSet));
   open_stacks = cp_heap_calloc("cp.regions.open", VG_N_THREADS,
                             sizeof(XArray*));
   cp_addrmap_init(&roots, 64);
}

static void warn(const HChar* what, const HChar* name, const HChar* other)
{
   if (++warnings > MAX_WARNINGS) return;
   VG_(umsg)("cycprof: warning: region '%s' %s%s%s\n", name, what,
             other ? other : "", other ? "'" : "");
   if (warnings == MAX_WARNINGS)
      VG_(umsg)("cycprof: warning: further region warnings not shown\n");
}

static UInt region_index(const HChar* name)
{
   Region r;
   Word i;
   if (!name[0]) name = "(unnamed)";
   for (i = 0; i < VG_(sizeXA)(regions); i++)
      if (VG_(strcmp)(((Region*)VG_(indexXA)(regions, i))->name, name) == 0)
         return i;
   VG_(memset)(&r, 0, sizeof r);
   r.name = cp_heap_strdup("cp.regions.name", name);
   return VG_(addToXA)(regions, &r);
}

static UInt set_of(UInt parent, UInt region)
{
   RegionSet s;
   Word i;
   for (i = 0; i < VG_(sizeXA)(sets); i++) {
      const RegionSet* k = VG_(indexXA)(sets, i);
      if (k->parent == parent && k->region == region) return i + 1;
   }
   s.parent = parent;
   s.region = region;
   return VG_(addToXA)(sets, &s) + 1;
}

static XArray* open_stack(ThreadId tid)
{
   if (!open_stacks[tid])
      open_stacks[tid] = VG_(newXA)(cp_heap_malloc, "cp.regions.stack",
                                    cp_heap_free, sizeof(OpenRegion));
   return open_stacks[tid];
}

static UInt top_set(XArray* stack)
{
   Word n = VG_(sizeXA)(stack);
   return n ? ((OpenRegion*)VG_(indexXA)(stack, n - 1))->set : 0;
}

/* The running thread's stack moves to the tree of region set `set`. */
static void enter_set(ThreadId tid, UInt set)
{
   UInt serial = cp_context_tid(cp_callstack_root(tid));
   UWord key = ((UWord)serial << 32) | set;
   UWord* known;
   Context* root;
   if (!cp_addrmap_find(&roots, ((UWord)serial << 32)))
      cp_addrmap_put(&roots, (UWord)serial << 32,
                     (UWord)cp_callstack_root(tid));
   known = cp_addrmap_find(&roots, key);
   if (known) {
      root = (Context*)*known;
   } else {
      root = cp_context_root(serial);
      cp_context_set_region(root, set);
      cp_addrmap_put(&roots, key, (UWord)root);
   }
   if (root != cp_callstack_root(tid)) cp_callstack_reroot(tid, root);
}

static ULong thread_count(ThreadId tid)
{
   return cp_running_thread(cp_context_tid(cp_callstack_root(tid)));
}

void cp_region_begin(ThreadId tid, const HChar* name)
{
   XArray* stack;
   OpenRegion o;
   init();
   stack = open_stack(tid);
   o.region = region_index(name);
   o.set = set_of(top_set(stack), o.region);
   o.nested = 0;
   o.begin = thread_count(tid);
   VG_(addToXA)(stack, &o);
   enter_set(tid, o.set);
}

static Bool open_below(XArray* stack, Word top, UInt region)
{
   Word i;
   for (i = 0; i < top; i++)
      if (((OpenRegion*)VG_(indexXA)(stack, i))->region == region)
         return True;
   return False;
}

/* Closes the top region of the stack at count now. */
static void close_top(XArray* stack, ULong now)
{
   Word top = VG_(sizeXA)(stack) - 1;
   OpenRegion* o = VG_(indexXA)(stack, top);
   OpenRegion* below = top > 0 ? VG_(indexXA)(stack, top - 1) : NULL;
   Region* r = VG_(indexXA)(regions, o->region);
   ULong incl = now - o->begin;
   r->calls++;
   r->part_calls++;
   if (open_below(stack, top, o->region)) {
      /* A region inside itself: the outer one has its cost. */
      if (below) below->nested += o->nested;
   } else {
      r->inclusive += incl;
      r->self += incl - o->nested;
      r->part_inclusive += incl;
      r->part_self += incl - o->nested;
      if (below) below->nested += incl;
   }
   VG_(dropTailXA)(stack, 1);
}

void cp_region_end(ThreadId tid, const HChar* name)
{
   XArray* stack;
   Word i;
   UInt region;
   ULong now;
   init();
   stack = open_stack(tid);
   region = region_index(name);
   for (i = VG_(sizeXA)(stack) - 1; i >= 0; i--)
      if (((OpenRegion*)VG_(indexXA)(stack, i))->region == region) break;
   if (i < 0) {
      warn("ended but not open: end ignored", name, NULL);
      return;
   }
   now = thread_count(tid);
   while (VG_(sizeXA)(stack) - 1 > i) {
      OpenRegion* inner = VG_(indexXA)(stack, VG_(sizeXA)(stack) - 1);
      warn("ended while this region inside it was open, closed too: '",
           name, ((Region*)VG_(indexXA)(regions, inner->region))->name);
      close_top(stack, now);
   }
   close_top(stack, now);
   enter_set(tid, top_set(stack));
}

void cp_regions_thread_created(ThreadId parent, ThreadId child)
{
   if (open_stacks && open_stacks[child])
      VG_(dropTailXA)(open_stacks[child], VG_(sizeXA)(open_stacks[child]));
   cp_callstack_thread_created(parent, child);
}

UInt cp_region_set_count(void)
{
   return sets ? VG_(sizeXA)(sets) : 0;
}

UInt cp_region_set_parent(UInt set)
{
   return ((RegionSet*)VG_(indexXA)(sets, set - 1))->parent;
}

const HChar* cp_region_set_name(UInt set)
{
   UInt r = ((RegionSet*)VG_(indexXA)(sets, set - 1))->region;
   return ((Region*)VG_(indexXA)(regions, r))->name;
}

static Int by_inclusive_descending(const void* pa, const void* pb)
{
   const RegionRow* a = pa;
   const RegionRow* b = pb;
   if (a->inclusive != b->inclusive) return a->inclusive > b->inclusive ? -1 : 1;
   return VG_(strcmp)(a->name, b->name);
}

UInt cp_regions_rows(Bool since_dump, RegionRow** rows)
{
   UInt n = regions ? VG_(sizeXA)(regions) : 0, i, used = 0;
   *rows = cp_heap_malloc("cp.regions.rows", (n + 1) * sizeof(RegionRow));
   for (i = 0; i < n; i++) {
      const Region* r = VG_(indexXA)(regions, i);
      RegionRow* row = &(*rows)[used];
      row->name = r->name;
      row->calls = since_dump ? r->part_calls : r->calls;
      row->inclusive = since_dump ? r->part_inclusive : r->inclusive;
      row->self = since_dump ? r->part_self : r->self;
      if (row->calls) used++;
   }
   VG_(ssort)(*rows, used, sizeof(RegionRow), by_inclusive_descending);
   return used;
}

void cp_regions_zero_part(void)
{
   Word i;
   for (i = 0; regions && i < VG_(sizeXA)(regions); i++) {
      Region* r = VG_(indexXA)(regions, i);
      r->part_calls = r->part_inclusive = r->part_self = 0;
   }
}

static void close_all_open(void)
{
   UInt tid;
   for (tid = 0; tid < VG_N_THREADS; tid++) {
      XArray* stack = open_stacks[tid];
      ULong now;
      if (!stack || VG_(sizeXA)(stack) == 0) continue;
      now = thread_count(tid);
      while (VG_(sizeXA)(stack) > 0) {
         OpenRegion* o = VG_(indexXA)(stack, VG_(sizeXA)(stack) - 1);
         warn("still open at exit: closed there", 
              ((Region*)VG_(indexXA)(regions, o->region))->name, NULL);
         close_top(stack, now);
      }
   }
}

static void print_table(ULong total)
{
   RegionRow* rows;
   UInt n, i;
   n = cp_regions_rows(False, &rows);
   if (n > 0) {
      VG_(umsg)("Regions (instructions; self leaves out nested regions):\n");
      VG_(umsg)("%-24s %8s %16s %16s %14s %7s\n", "region", "calls",
                "inclusive", "self", "per call", "%");
   }
   for (i = 0; i < n; i++) {
      ULong tenths = total ? rows[i].inclusive * 1000 / total : 0;
      VG_(umsg)("%-24s %8llu %16s %16s %14s %5llu.%llu\n", rows[i].name,
                rows[i].calls, cp_thousands(rows[i].inclusive),
                cp_thousands(rows[i].self),
                cp_thousands(rows[i].inclusive / rows[i].calls),
                tenths / 10, tenths % 10);
   }
   cp_heap_free(rows);
}

void cp_regions_close_all(void)
{
   if (regions) close_all_open();
}

void cp_regions_print(ULong total)
{
   if (regions) print_table(total);
}

/* Comment lines, which callgrind readers skip; 'cycprof report --regions'
 * reads them (docs/regions.md). */
void cp_regions_write_callgrind(OutFile* out)
{
   RegionRow* rows;
   UInt n = cp_regions_rows(True, &rows), i;
   for (i = 0; i < n; i++) {
      HChar name[MAX_NAME];
      UInt k;
      VG_(strncpy)(name, rows[i].name, sizeof name - 1);
      name[sizeof name - 1] = 0;
      for (k = 0; name[k]; k++)
         if (name[k] == '\t' || name[k] == '\n') name[k] = ' ';
      cp_outfile_printf(out, "# cycprof-region\t%llu\t%llu\t%llu\t%s\n",
                        rows[i].calls, rows[i].inclusive, rows[i].self, name);
   }
   cp_heap_free(rows);
}
