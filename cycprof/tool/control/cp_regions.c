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
#include "cp_chunks.h"
#include "cp_cold.h"
#include "cp_collect.h"
#include "cp_context.h"
#include "cp_heap.h"
#include "cp_outfile.h"
#include "cp_regions.h"
#include "cp_strtab.h"

#define MAX_NAME 256
#define LOG_ROWS 20      /* the log's table: the costliest regions */
#define FIRST_NAMED 3    /* a folded warning names its first few */

typedef struct {
   ULong calls, inclusive, self;
} RegionCosts;

typedef struct {
   RegionCosts whole;   /* the whole run's: since the last dump, less
                         * at_dump's */
   /* Its open instances in one thread, here rather than in open_counts:
    * a program with a region per transaction has each open in one thread
    * at a time, and a map entry per name would outlive it. */
   ThreadId open_tid;    /* 0: none here */
   UInt   open_n;
   /* Its first set, here rather than in set_ids: most regions are opened
    * inside one set (a region per transaction: each once). */
   UInt   first_set;     /* 0: none yet */
   UInt   first_set_parent;
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
   /* The first graft of the set's tree, here rather than in grafts: most
    * sets are opened in one place. */
   UInt graft_from;      /* the context it hangs from; 0: none yet */
   UInt graft_id;
} RegionSet;

/* Misuse that a program can repeat once per transaction: each kind is
 * one line at exit, with its count and the first regions it named. */
typedef enum { NotOpen, ClosedInside, OpenAtExit, N_WARNINGS } Warning;
typedef struct {
   ULong count;
   UInt  region[FIRST_NAMED];
   UInt  ended[FIRST_NAMED];   /* ClosedInside: the region whose END it was */
} Folded;

/* A program may name a region per transaction (hundreds of thousands):
 * names, sets and open regions are found by hashing, never by a scan. */
static StrTab*  names;        /* region r is name r + 1; NULL: no region yet */
static ChunkArray regions;    /* Region */
/* RegionCosts by region: the whole run's at the last dump that started a
 * part (cp_regions_zero_part); a region past its end had none then.  A
 * run without such dumps keeps none. */
static ChunkArray at_dump;
static ChunkArray sets;       /* RegionSet; set s is at index s - 1 */
static AddrMap  set_ids;      /* (parent << 32 | region + 1) -> set, but a
                                 region's first set (Region) */
static AddrMap  open_counts;  /* (tid << 32 | region + 1) -> instances open,
                                 for a thread other than the region's open_tid */
static XArray** open_stacks;  /* [VG_N_THREADS] of OpenRegion */
static AddrMap  grafts;       /* (context id << 32 | set) -> its graft
                                 Context*, but a set's first (RegionSet) */
static Folded   folded[N_WARNINGS];

static Context* graft_base(ThreadId tid, Context* below);

static void init(void)
{
   if (names) return;
   names = cp_strtab_new();
   regions.size = sizeof(Region);
   at_dump.size = sizeof(RegionCosts);
   sets.size = sizeof(RegionSet);
   open_stacks = cp_heap_calloc("cp.regions.open", VG_N_THREADS,
                             sizeof(XArray*));
   cp_addrmap_init(&set_ids, 64);
   cp_addrmap_init(&open_counts, 64);
   cp_addrmap_init(&grafts, 64);
   cp_callstack_set_grafter(graft_base);
}

static Region* region_at(UInt region)
{
   return cp_chunks_at(&regions, region);
}

static RegionSet* set_at(UInt set)
{
   return cp_chunks_at(&sets, set - 1);
}

static const HChar* region_name(UInt region)
{
   return cp_strtab_get(names, region + 1);
}

static void warn(Warning w, UInt region, UInt ended)
{
   Folded* f = &folded[w];
   if (f->count < FIRST_NAMED) {
      f->region[f->count] = region;
      f->ended[f->count] = ended;
   }
   f->count++;
}

/* The name a region is kept under. */
static const HChar* stored_name(const HChar* name)
{
   return name[0] ? name : "(unnamed)";
}

static UInt region_index(const HChar* name)
{
   Region r;
   UInt id = cp_strtab_intern(names, stored_name(name));
   if (id <= regions.used) return id - 1;
   VG_(memset)(&r, 0, sizeof r);
   return cp_chunks_add(&regions, &r);
}

static UInt new_set(UInt parent, UInt region)
{
   RegionSet s;
   s.parent = parent;
   s.region = region;
   s.graft_from = s.graft_id = 0;
   return cp_chunks_add(&sets, &s) + 1;
}

static UInt set_of(UInt parent, UInt region)
{
   Region* r = region_at(region);
   Bool added;
   UWord* id;
   if (r->first_set == 0) {
      r->first_set = new_set(parent, region);
      r->first_set_parent = parent;
   }
   if (r->first_set_parent == parent) return r->first_set;
   id = cp_addrmap_slot(&set_ids, ((UWord)parent << 32) | (region + 1),
                        &added);
   if (added) *id = new_set(parent, region);
   return *id;
}

/* The instances of region open in thread tid: in the region while one
 * thread has it open, else in open_counts. */
static UInt open_count(ThreadId tid, UInt region)
{
   const Region* r = region_at(region);
   UWord* n;
   if (r->open_tid == tid) return r->open_n;
   n = cp_addrmap_find(&open_counts, ((UWord)tid << 32) | (region + 1));
   return n ? (UInt)*n : 0;
}

static void add_open(ThreadId tid, UInt region, Int by)
{
   Region* r = region_at(region);
   Bool added;
   UWord* n;
   if (r->open_tid == 0 && by > 0) r->open_tid = tid;
   if (r->open_tid == tid) {
      r->open_n += by;
      if (r->open_n == 0) r->open_tid = 0;
      return;
   }
   n = cp_addrmap_slot(&open_counts, ((UWord)tid << 32) | (region + 1),
                       &added);
   *n += by;
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

/* The graft of region set `set` (0: outside every region) on context
 * below, made the first time. */
static Context* graft_of(UInt set, Context* below)
{
   RegionSet* s = set ? set_at(set) : NULL;
   UWord* known;
   Bool added;
   UInt below_id = cp_context_id(below);
   if (s && s->graft_from == below_id) return cp_context_at(s->graft_id);
   if (s && s->graft_from == 0) {
      Context* g = cp_context_graft(below, set);
      s->graft_from = below_id;
      s->graft_id = cp_context_count();
      return g;
   }
   known = cp_addrmap_slot(&grafts, ((UWord)below_id << 32) | set, &added);
   if (added) *known = (UWord)cp_context_graft(below, set);
   return (Context*)*known;
}

/* The context the frames above `below` run in, in the set of thread
 * tid's open regions: below itself when it is in that set's tree, else a
 * graft on it (on what a graft hangs from, rather than on the graft). */
static Context* graft_base(ThreadId tid, Context* below)
{
   UInt set = top_set(open_stack(tid));
   below = cp_context_frame(below);
   if (cp_context_region(below) == set) return below;
   return graft_of(set, below);
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
   add_open(tid, o.region, 1);
   cp_callstack_graft(tid);
}

/* Closes the top region of tid's stack at count now. */
static void close_top(ThreadId tid, XArray* stack, ULong now)
{
   Word top = VG_(sizeXA)(stack) - 1;
   OpenRegion* o = VG_(indexXA)(stack, top);
   OpenRegion* below = top > 0 ? VG_(indexXA)(stack, top - 1) : NULL;
   Region* r = region_at(o->region);
   ULong incl = now - o->begin;
   r->whole.calls++;
   add_open(tid, o->region, -1);
   if (open_count(tid, o->region) > 0) {
      /* A region inside itself: the outer one has its cost. */
      if (below) below->nested += o->nested;
   } else {
      r->whole.inclusive += incl;
      r->whole.self += incl - o->nested;
      if (below) below->nested += incl;
   }
   VG_(dropTailXA)(stack, 1);
}

/* The region named, when it is the innermost open one (the usual END):
 * found without hashing the name. */
static Bool is_top(XArray* stack, const HChar* name, UInt* region)
{
   Word n = VG_(sizeXA)(stack);
   const OpenRegion* top;
   if (n == 0) return False;
   top = VG_(indexXA)(stack, n - 1);
   if (VG_(strcmp)(region_name(top->region), stored_name(name)))
      return False;
   *region = top->region;
   return True;
}

void cp_region_end(ThreadId tid, const HChar* name)
{
   XArray* stack;
   Word i;
   UInt region;
   ULong now;
   init();
   stack = open_stack(tid);
   if (!is_top(stack, name, &region)) region = region_index(name);
   if (open_count(tid, region) == 0) {
      warn(NotOpen, region, 0);
      return;
   }
   /* Open: found, and near the top unless ENDs are mismatched. */
   for (i = VG_(sizeXA)(stack) - 1; i >= 0; i--)
      if (((OpenRegion*)VG_(indexXA)(stack, i))->region == region) break;
   tl_assert(i >= 0);
   now = thread_count(tid);
   while (VG_(sizeXA)(stack) - 1 > i) {
      OpenRegion* inner = VG_(indexXA)(stack, VG_(sizeXA)(stack) - 1);
      warn(ClosedInside, inner->region, region);
      close_top(tid, stack, now);
   }
   close_top(tid, stack, now);
   cp_callstack_graft(tid);
   cp_cold_region_closed();
}

void cp_regions_thread_created(ThreadId parent, ThreadId child)
{
   XArray* stack = open_stacks ? open_stacks[child] : NULL;
   /* The regions a finished thread left open in this slot go unreported. */
   while (stack && VG_(sizeXA)(stack) > 0) {
      OpenRegion* o = VG_(indexXA)(stack, VG_(sizeXA)(stack) - 1);
      add_open(child, o->region, -1);
      VG_(dropTailXA)(stack, 1);
   }
   cp_callstack_thread_created(parent, child);
}

UInt cp_region_set_count(void)
{
   return sets.used;
}

UInt cp_region_set_parent(UInt set)
{
   return set_at(set)->parent;
}

const HChar* cp_region_set_name(UInt set)
{
   return region_name(set_at(set)->region);
}

UInt cp_region_set_first_graft(UInt set)
{
   return set ? set_at(set)->graft_id : 0;
}

/* The table of regions, closed ones only: for the whole run (at exit, in
 * the log) or since the last dump (in the profile files). */
typedef struct {
   const HChar* name;
   ULong name_prefix;    /* its first 8 bytes, as a big-endian number */
   ULong calls, inclusive, self;
} RegionRow;

/* What sorts a row, and its region: the files' table sorts every region
 * (100,000 of them: 2.4 MB rather than a whole row's 4 MB). */
typedef struct {
   ULong inclusive;
   ULong name_prefix;
   UInt  region;
} RowKey;

/* Ordered as strcmp orders the names (bytes unsigned, the shorter name
 * zero-padded), so that sorting 100,000 names of one cost mostly
 * compares numbers. */
static ULong prefix_of(const HChar* name)
{
   ULong p = 0;
   UInt k;
   for (k = 0; k < 8; k++) {
      p = p << 8 | (UChar)name[k];
      if (!name[k]) return p << (8 * (7 - k));
   }
   return p;
}

/* The numbers' order, 0 when only the names can tell. */
static Int order_numbers(ULong inclusive_a, ULong prefix_a,
                         ULong inclusive_b, ULong prefix_b)
{
   if (inclusive_a != inclusive_b) return inclusive_a > inclusive_b ? -1 : 1;
   if (prefix_a != prefix_b) return prefix_a < prefix_b ? -1 : 1;
   return 0;
}

static Int by_inclusive_descending(const void* pa, const void* pb)
{
   const RegionRow* a = pa;
   const RegionRow* b = pb;
   Int o = order_numbers(a->inclusive, a->name_prefix,
                         b->inclusive, b->name_prefix);
   return o ? o : VG_(strcmp)(a->name, b->name);
}

static Int keys_by_inclusive_descending(const void* pa, const void* pb)
{
   const RowKey* a = pa;
   const RowKey* b = pb;
   Int o = order_numbers(a->inclusive, a->name_prefix,
                         b->inclusive, b->name_prefix);
   return o ? o : VG_(strcmp)(region_name(a->region), region_name(b->region));
}

static void row_of(UInt region, Bool since_dump, RegionRow* row)
{
   const Region* r = region_at(region);
   RegionCosts c = r->whole;
   if (since_dump && region < at_dump.used) {
      const RegionCosts* before = cp_chunks_at(&at_dump, region);
      c.calls -= before->calls;
      c.inclusive -= before->inclusive;
      c.self -= before->self;
   }
   row->name = region_name(region);
   row->name_prefix = prefix_of(row->name);
   row->calls = c.calls;
   row->inclusive = c.inclusive;
   row->self = c.self;
}

/* The closed regions, sorted as their rows; the caller frees *keys. */
static UInt regions_sorted(Bool since_dump, RowKey** keys)
{
   UInt n = regions.used, i, used = 0;
   *keys = cp_heap_malloc("cp.regions.rows", (n + 1) * sizeof(RowKey));
   for (i = 0; i < n; i++) {
      RegionRow row;
      row_of(i, since_dump, &row);
      if (!row.calls) continue;
      (*keys)[used].inclusive = row.inclusive;
      (*keys)[used].name_prefix = row.name_prefix;
      (*keys)[used].region = i;
      used++;
   }
   VG_(ssort)(*keys, used, sizeof(RowKey), keys_by_inclusive_descending);
   return used;
}

/* The first k rows of the whole run's table in top[], in its order,
 * without sorting it all; returns the number of rows. */
static UInt top_rows(RegionRow* top, UInt k)
{
   UInt n = regions.used, i, used = 0, kept = 0, at;
   for (i = 0; i < n; i++) {
      RegionRow row;
      row_of(i, False, &row);
      if (!row.calls) continue;
      used++;
      if (kept == k && by_inclusive_descending(&row, &top[k - 1]) >= 0)
         continue;
      at = kept < k ? kept++ : k - 1;
      for (; at > 0 && by_inclusive_descending(&row, &top[at - 1]) < 0; at--)
         top[at] = top[at - 1];
      top[at] = row;
   }
   return used;
}

void cp_regions_zero_part(void)
{
   UInt i;
   for (i = 0; i < regions.used; i++) {
      const RegionCosts* whole = &region_at(i)->whole;
      if (i < at_dump.used)
         *(RegionCosts*)cp_chunks_at(&at_dump, i) = *whole;
      else
         cp_chunks_add(&at_dump, whole);
   }
}

static void close_all_open(void)
{
   UInt tid;
   Word i;
   for (tid = 0; tid < VG_N_THREADS; tid++) {
      XArray* stack = open_stacks[tid];
      ULong now;
      if (!stack || VG_(sizeXA)(stack) == 0) continue;
      now = thread_count(tid);
      /* Named outermost first: the order they were opened in. */
      for (i = 0; i < VG_(sizeXA)(stack); i++)
         warn(OpenAtExit, ((OpenRegion*)VG_(indexXA)(stack, i))->region, 0);
      while (VG_(sizeXA)(stack) > 0) close_top(tid, stack, now);
   }
}

/* One line per kind: a sentence naming the region for one instance; a
 * count and the first regions for more. */
static const HChar* const one_warning[N_WARNINGS] = {
   "region '%.*s' ended but not open: end ignored",
   "region '%.*s' ended while this region inside it was open, closed too: '%.*s'",
   "region '%.*s' still open at exit: closed there",
};
static const HChar* const folded_warning[N_WARNINGS] = {
   "regions ended but not open: ends ignored",
   "regions inside a region that ended were closed with it",
   "regions still open at exit: closed there",
};

static void print_warning(Warning w)
{
   const Folded* f = &folded[w];
   /* Each region named takes at most two names of MAX_NAME and quotes. */
   HChar first[FIRST_NAMED * (2 * MAX_NAME + 16)];
   UInt i, at = 0;
   if (f->count == 0) return;
   if (f->count == 1) {
      /* ClosedInside names the ended region first, then the one inside. */
      VG_(snprintf)(first, sizeof first, one_warning[w], MAX_NAME,
                    region_name(w == ClosedInside ? f->ended[0] : f->region[0]),
                    MAX_NAME, region_name(f->region[0]));
      VG_(umsg)("cycprof: warning: %s\n", first);
      return;
   }
   for (i = 0; i < FIRST_NAMED && i < f->count; i++) {
      at += VG_(snprintf)(first + at, sizeof first - at, "%s'%.*s'",
                          i ? ", " : "", MAX_NAME, region_name(f->region[i]));
      if (w == ClosedInside)
         at += VG_(snprintf)(first + at, sizeof first - at, " in '%.*s'",
                             MAX_NAME, region_name(f->ended[i]));
   }
   VG_(umsg)("cycprof: warning: %llu %s (first: %s%s)\n", f->count,
             folded_warning[w], first, f->count > FIRST_NAMED ? ", ..." : "");
}

static void print_row(const RegionRow* row, ULong total)
{
   ULong tenths = total ? row->inclusive * 1000 / total : 0;
   VG_(umsg)("%-24s %8llu %16s %16s %14s %5llu.%llu\n", row->name,
             row->calls, cp_thousands(row->inclusive), cp_thousands(row->self),
             cp_thousands(row->inclusive / row->calls), tenths / 10,
             tenths % 10);
}

/* The costliest LOG_ROWS regions: the files keep them all. */
static void print_table(ULong total)
{
   RegionRow top[LOG_ROWS];
   UInt n = top_rows(top, LOG_ROWS), i;
   if (n == 0) return;
   VG_(umsg)("Regions (instructions; self leaves out nested regions):\n");
   VG_(umsg)("%-24s %8s %16s %16s %14s %7s\n", "region", "calls",
             "inclusive", "self", "per call", "%");
   for (i = 0; i < n && i < LOG_ROWS; i++) print_row(&top[i], total);
   if (n > LOG_ROWS)
      VG_(umsg)("(%u more regions not shown: the costliest %u are; "
                "'cycprof report --regions FILE' prints them all)\n",
                n - LOG_ROWS, LOG_ROWS);
}

void cp_regions_close_all(void)
{
   Warning w;
   if (!names) return;
   close_all_open();
   for (w = 0; w < N_WARNINGS; w++) print_warning(w);
}

void cp_regions_drop_run_only(void)
{
   if (names) cp_strtab_forget_lookups(names);
}

void cp_regions_print(ULong total)
{
   if (names) print_table(total);
}

/* Comment lines, which callgrind readers skip; 'cycprof report --regions'
 * reads them (docs/regions.md). */
void cp_regions_write_callgrind(OutFile* out)
{
   RowKey* keys;
   UInt n = regions_sorted(True, &keys), i;
   for (i = 0; i < n; i++) {
      HChar name[MAX_NAME];
      RegionRow row;
      UInt k;
      row_of(keys[i].region, True, &row);
      /* Not strncpy: it pads all MAX_NAME bytes, for each of 100,000 rows. */
      for (k = 0; k < sizeof name - 1 && row.name[k]; k++)
         name[k] = row.name[k] == '\t' || row.name[k] == '\n'
                   ? ' ' : row.name[k];
      name[k] = 0;
      /* Not printf: it formats each number a digit at a time. */
      cp_outfile_puts(out, "# cycprof-region\t");
      cp_outfile_put_u64(out, row.calls, '\t');
      cp_outfile_put_u64(out, row.inclusive, '\t');
      cp_outfile_put_u64(out, row.self, '\t');
      cp_outfile_puts(out, name);
      cp_outfile_puts(out, "\n");
   }
   cp_heap_free(keys);
}
