/* cycprof: the calling-context tree and its cost centers. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "cp_addrmap.h"
#include "cp_array.h"
#include "cp_arena.h"
#include "cp_children.h"
#include "cp_cold.h"
#include "cp_collect_state.h"
#include "cp_context.h"
#include "cp_counters.h"
#include "cp_heap.h"
#include "cp_keymap.h"
#include "cp_options.h"
#include "cp_owners.h"
#include "cp_packed.h"
#include "cp_sbinfo.h"
#include "cp_stats.h"

CpStats cp_stats;

/* docs/internals/memory.md counts on it. */
STATIC_ASSERT(sizeof(Context) == 12);

/* (parent, edge) -> context, in two tables.  Almost every key leads to
 * the context made for it, whose own fields are the key: those are found
 * through cp_children.h.  With folding, some keys lead to an earlier
 * context instead: those few are Folds in a chained table. */
typedef struct Fold {
   struct Fold* next;
   Context* parent;
   UInt     edge;
   Context* to;
} Fold;

typedef struct {
   void** buckets;
   UWord  n_buckets;
   UWord  n_items;
} ChainTable;

static ChainTable folds;
/* A few thousand functions, call sites and roots serve millions of
 * contexts: each context names its (call site, function) pair by a
 * 32-bit index, and the pair holds their indexes. */
Interner          cp_context_fns, cp_context_sites, cp_context_edges;
static AddrMap    calls_above_32_bits;   /* context -> calls >> 32 */
ContextTree*      cp_context_trees;
static UInt       n_trees, trees_capacity;
/* [fn_id]: the owner every frame of that function counts with, fixed by
 * its first frame (cp_owner_of_frame); 0 until then.  Any owner counts
 * exactly (cp_owners.h), and one per function saves 4 bytes a context.
 * [edge]: the same, copied for each edge by its first context, so that
 * publishing a context reads one word. */
static UInt*      fn_owners;
static UInt       fn_owners_capacity;
UInt*             cp_context_edge_owners;
static UInt       edge_owners_capacity;
static void     (*new_context_step)(Context* c);

static void table_init(ChainTable* t, UWord n)
{
   t->n_buckets = n;
   t->n_items = 0;
   t->buckets = cp_heap_calloc("cp.ctx.table", n, sizeof(void*));
}

static UWord fold_entry_hash(const void* entry)
{
   const Fold* e = entry;
   return cp_children_hash(e->parent, e->edge);
}

static void grow_folds(ChainTable* t)
{
   ChainTable bigger;
   UWord i;
   table_init(&bigger, t->n_buckets * 2);
   for (i = 0; i < t->n_buckets; i++) {
      Fold* e = t->buckets[i];
      while (e) {
         Fold* next = e->next;
         UWord b = fold_entry_hash(e) & (bigger.n_buckets - 1);
         e->next = bigger.buckets[b];
         bigger.buckets[b] = e;
         e = next;
      }
   }
   bigger.n_items = t->n_items;
   cp_heap_free(t->buckets);
   *t = bigger;
}

void cp_context_init(void (*on_new)(Context* c))
{
   new_context_step = on_new;
   table_init(&folds, 1 << 8);
   cp_children_init();
   cp_intern_init(&cp_context_fns);
   cp_intern_init(&cp_context_sites);
   cp_intern_init(&cp_context_edges);
   cp_context_edge(0, 0);   /* roots' and grafts': room for its owner */
   cp_addrmap_init(&calls_above_32_bits, 16);
}

void cp_context_calls_wrapped(const Context* c)
{
   UWord* high = cp_addrmap_find(&calls_above_32_bits, (UWord)c);
   if (high) (*high)++;
   else cp_addrmap_put(&calls_above_32_bits, (UWord)c, 1);
}

ULong cp_context_calls(const Context* c)
{
   UWord* high = cp_addrmap_find(&calls_above_32_bits, (UWord)c);
   return ((ULong)(high ? *high : 0) << 32) | cp_cold_calls(c);
}

/* Trees are made in id order, each by its first context (a root or a
 * graft): a context's tree is the one with the greatest start at or
 * below its root's id. */
static void new_tree(UInt tid, UInt region, UInt start)
{
   cp_context_trees = cp_room_for_one("cp.ctx.trees", cp_context_trees,
                                      n_trees, &trees_capacity,
                                      sizeof(ContextTree), 16);
   cp_context_trees[n_trees].tid = tid;
   cp_context_trees[n_trees].region = region;
   cp_context_trees[n_trees].start = start;
   n_trees++;
}

/* The trees found last, by their root's or graft's address: a region's
 * requests ask for the thread's and the region's again and again. */
#define TREES_FOUND 64
static struct {
   const Context* start;
   UInt           tree;
} trees_found[TREES_FOUND];

UInt cp_context_tree(const Context* c)
{
   UInt lo = 0, hi = n_trees, id, slot;
   tl_assert(n_trees > 0);
   while (c->kind != CtxRoot) c = cp_context_at(c->parent_id);
   slot = (UInt)(((UWord)c / sizeof(Context)) % TREES_FOUND);
   if (trees_found[slot].start == c) return trees_found[slot].tree;
   id = cp_context_id(c);
   /* A harness that opens a region per transaction asks for the newest
    * tree, once per region: a search would miss all the way. */
   if (cp_context_trees[n_trees - 1].start == id) lo = n_trees - 1;
   while (hi - lo > 1) {
      UInt mid = lo + (hi - lo) / 2;
      if (cp_context_trees[mid].start <= id) lo = mid;
      else hi = mid;
   }
   trees_found[slot].start = c;
   trees_found[slot].tree = lo;
   return lo;
}

void cp_context_forget_trees(void)
{
   cp_heap_free(cp_context_trees);
   cp_context_trees = NULL;
   n_trees = trees_capacity = 0;
   VG_(memset)(trees_found, 0, sizeof trees_found);
}

UInt* cp_context_trees_by_id(void)
{
   UInt id, n = cp_context_count(), tree = 0;
   UInt* of = cp_heap_malloc("cp.ctx.treeof", (n + 1) * sizeof(UInt));
   of[0] = 0;
   for (id = 1; id <= n; id++) {
      const Context* c = cp_context_at(id);
      if (c->kind != CtxRoot) {
         of[id] = of[c->parent_id];   /* parents come first */
         continue;
      }
      while (tree + 1 < n_trees && cp_context_trees[tree + 1].start <= id)
         tree++;
      of[id] = tree;
   }
   return of;
}

/* *array, of *capacity words, grown to hold [index], zeroed. */
static void room_for_index(UInt** array, UInt* capacity, UInt index)
{
   UInt old = *capacity;
   if (index < old) return;
   *capacity = index < 512 ? 1024 : 2 * index;
   *array = cp_heap_realloc("cp.ctx.owners", *array, *capacity * sizeof(UInt));
   VG_(memset)(*array + old, 0, (*capacity - old) * sizeof(UInt));
}

UInt cp_context_edge(UInt site_id, UInt fn_id)
{
   UInt edge = cp_intern(&cp_context_edges,
                         ((ULong)site_id << 32) | fn_id);
   if (edge >> CP_CONTEXT_EDGE_BITS) {
      VG_(fmsg)("cycprof: more than %u distinct (call site, function) "
                "pairs, the most one run can hold\n",
                (1u << CP_CONTEXT_EDGE_BITS) - 1);
      VG_(exit)(1);
   }
   room_for_index(&cp_context_edge_owners, &edge_owners_capacity, edge);
   return edge;
}

/* The owner is fixed when a function's first context is made, as it was
 * when contexts kept the function itself. */
static void fix_owner(UInt edge)
{
   UInt fn_id;
   if (cp_context_edge_owners[edge]) return;
   fn_id = cp_context_edge_fn(edge);
   room_for_index(&fn_owners, &fn_owners_capacity, fn_id);
   if (!fn_owners[fn_id])
      fn_owners[fn_id] = cp_owner_of_frame(cp_interned(&cp_context_fns,
                                                       fn_id));
   cp_context_edge_owners[edge] = fn_owners[fn_id];
}

static Context* new_context(Context* parent, UInt edge, CtxKind kind)
{
   Context* c = cp_context_store_next();
   c->parent_id = parent ? cp_context_id(parent) : 0;
   c->edge = edge;
   c->kind = kind;
   c->in_region = parent ? parent->in_region : 0;
   fix_owner(edge);
   new_context_step(c);
   return c;
}

Context* cp_context_root(UInt tid)
{
   /* Interned index 0 is key 0: no call site, no function. */
   Context* r = new_context(NULL, 0, CtxRoot);
   new_tree(tid, 0, cp_context_count());
   return r;
}

Context* cp_context_graft(Context* from, UInt region)
{
   UInt tid = cp_context_tid(from);
   Context* g = new_context(from, 0, CtxRoot);
   /* A tree of its own, for its region set; it has no child yet. */
   new_tree(tid, region, cp_context_count());
   g->in_region = region != 0;
   return g;
}

/* The frames below a graft are as active as they were in a tree of the
 * set's own, which repeated them: recursion folds across it alike. */
Bool cp_context_active_in_chain(const Context* c, UInt fn_id)
{
   for (; c && (c->kind == CtxCall || cp_context_is_graft(c));
        c = cp_context_parent(c))
      if (cp_context_fn_id(c) == fn_id) return True;
   return False;
}

static Fold* find_fold(Context* parent, UInt edge, UWord hash)
{
   Fold* e;
   for (e = folds.buckets[hash & (folds.n_buckets - 1)]; e; e = e->next)
      if (e->parent == parent && e->edge == edge)
         return e;
   return NULL;
}

static void add_fold(Context* parent, UInt edge, UWord hash, Context* to)
{
   Fold* e = cp_arena_alloc(sizeof(Fold));
   UWord b = hash & (folds.n_buckets - 1);
   e->parent = parent;
   e->edge = edge;
   e->to = to;
   e->next = folds.buckets[b];
   folds.buckets[b] = e;
   if (++folds.n_items > 2 * folds.n_buckets) grow_folds(&folds);
}

/* Recursion keeps every active function on the context's chain: a call to
 * a function already in it does not cut back to the earlier frame (that
 * would drop the functions between the two activations), it enters a
 * re-entry node below the current one, so the callee's code counts with
 * its own counters and every profile shows it on top of the full chain.
 * The functions of a run of re-entry nodes are all active in the
 * ordinary chain above the run, so a call to a function of the run (or
 * of the ordinary node that ends it) may go back to that node without
 * losing one: runs never repeat a function, and the depth stays within
 * twice the number of distinct functions. */
static Context* folded_context(Context* parent, UInt edge)
{
   UInt fn_id = cp_context_edge_fn(edge);
   Context* c;
   for (c = parent; ; c = cp_context_parent(c)) {
      if (cp_context_fn_id(c) == fn_id) return c;
      if (!c->reentry) break;
   }
   c = new_context(parent, edge, CtxCall);
   c->reentry = True;
   return c;
}

Context* cp_context_enter_edge(Context* parent, UInt edge, CtxKind kind)
{
   Context* to;
   Fold* e;
   UInt made_before;
   /* A context just made, as each frame of a new region set's tree is,
    * has no child to find: a lookup would miss in the whole table. */
   if (parent->has_children) {
      UWord hash = cp_children_hash(parent, edge);
      to = cp_children_find(parent, edge, hash);
      if (to) return to;
      if (folds.n_items && (e = find_fold(parent, edge, hash)))
         return e->to;
   }
   parent->has_children = 1;
   cp_stats.edges++;
   made_before = cp_context_count();
   if (kind == CtxCall && cp_opts.fold_recursion
       && cp_context_active_in_chain(parent, cp_context_edge_fn(edge)))
      to = folded_context(parent, edge);
   else
      to = new_context(parent, edge, kind);
   /* A context just made has this key (a re-entry node too); one that
    * recursion folded into is an earlier one, with a key of its own. */
   if (cp_context_count() != made_before)
      cp_children_add(to, cp_context_count());
   else
      add_fold(parent, edge, cp_children_hash(parent, edge), to);
   return to;
}

UInt cp_context_edge_of(Addr callsite, Addr fn)
{
   return cp_context_edge(cp_intern(&cp_context_sites, callsite),
                          cp_intern(&cp_context_fns, fn));
}

Context* cp_context_enter(Context* parent, Addr callsite, Addr fn,
                          CtxKind kind)
{
   return cp_context_enter_edge(parent, cp_context_edge_of(callsite, fn),
                                kind);
}

/* The cost centers of superblocks a context's function does not own
 * (code run in another function's frame).  Few contexts have any, so
 * their tables are found through a map by context rather than
 * through 16 bytes in every context. */
typedef struct {
   CostCenter* ccs;        /* [capacity], a power of two */
   UInt        n_ccs;
   UInt        capacity;
} ForeignTable;

/* A key per context with a table (cc1plus: about 330,000): 32-bit
 * values, 3/4 full, 12 bytes a slot rather than an AddrMap's 16 at half. */
static KeyMap        foreign_index;   /* context -> foreign_tables[i] */
static ForeignTable* foreign_tables;
static UInt          n_foreign, foreign_capacity;

static ForeignTable* foreign_of(const Context* ctx)
{
   if (!ctx->has_foreign) return NULL;
   return &foreign_tables[*cp_keymap_find(&foreign_index, (UWord)ctx)];
}

static ForeignTable* new_foreign_table(Context* ctx)
{
   Bool added;
   if (!cp_keymap_ready(&foreign_index))
      cp_keymap_init(&foreign_index, 1024);
   foreign_tables = cp_room_for_one("cp.ctx.foreign", foreign_tables,
                                    n_foreign, &foreign_capacity,
                                    sizeof(ForeignTable), 1024);
   VG_(memset)(&foreign_tables[n_foreign], 0, sizeof(ForeignTable));
   *cp_keymap_slot(&foreign_index, (UWord)ctx, &added) = n_foreign;
   ctx->has_foreign = True;
   return &foreign_tables[n_foreign++];
}

static UWord slot_of(const ForeignTable* t, UInt sb_key)
{
   UWord mask = t->capacity - 1;
   UWord i = cp_hash_word(sb_key) & mask;
   while (t->ccs[i].sb_key && t->ccs[i].sb_key != sb_key) {
      cp_stats.probes++;
      i = (i + 1) & mask;
   }
   return i;
}

static void grow_cost_centers(ForeignTable* t)
{
   CostCenter* old = t->ccs;
   UInt k, n = t->capacity;
   t->capacity = n ? 2 * n : 4;
   t->ccs = cp_heap_calloc("cp.ctx.ccs", t->capacity, sizeof(CostCenter));
   for (k = 0; k < n; k++)
      if (old[k].sb_key) t->ccs[slot_of(t, old[k].sb_key)] = old[k];
   if (old) cp_heap_free(old);
}

ULong* cp_counters(Context* ctx, SBInfo* sb)
{
   UInt key = sb->id + 1;
   UWord i;
   ForeignTable* t = foreign_of(ctx);
   cp_stats.cost_center_lookups++;
   if (t) {
      i = slot_of(t, key);
      if (t->ccs[i].sb_key) return cp_counters_at(t->ccs[i].counters);
   } else {
      t = new_foreign_table(ctx);
   }
   /* Up to 7/8 full: lookups are rare (most misses are served by the
    * superblock's recent contexts), memory is not. */
   if (8 * (t->n_ccs + 1) > 7 * t->capacity) grow_cost_centers(t);
   i = slot_of(t, key);
   cp_stats.cost_centers++;
   t->ccs[i].sb_key = key;
   t->ccs[i].counters = cp_counters_alloc(sb->n_exits);
   t->n_ccs++;
   return cp_counters_at(t->ccs[i].counters);
}

void cp_context_zero(Context* ctx)
{
   const ForeignTable* t = foreign_of(ctx);
   UInt k;
   UWord* calls_high = cp_addrmap_find(&calls_above_32_bits, (UWord)ctx);
   if (calls_high) *calls_high = 0;
   cp_cold_zero(ctx);
   for (k = 0; t && k < t->capacity; k++)
      if (t->ccs[k].sb_key)
         VG_(memset)(cp_counters_at(t->ccs[k].counters), 0,
                     cp_sbinfo_at(t->ccs[k].sb_key - 1)->n_exits
                        * sizeof(ULong));
}

/* Owner 0 is nobody's: every superblock calls the helper. */
DenseCounters cp_dense = { 0, 0, (UWord)&cp_running };

/* Geometric growth, bounded by the owner's counters so far: a context
 * that runs a function's blocks one by one reallocates O(log) times, and
 * one that runs a few early blocks of a big function stays small.  A new
 * array starts where its owner's packed contexts reached on average:
 * contexts of one function mostly run the same blocks, and most of the
 * steps are then spared (cc1plus: 2.2 M fewer allocations). */
static UInt grown_len(const Owner* o, UInt old, UInt needed)
{
   UInt len = needed;
   if (len < old + old / 2) len = old + old / 2;
   if (old == 0 && len < o->typical_len) len = o->typical_len;
   if (len < 8) len = 8;
   if (len > o->n_counters) len = o->n_counters;
   if (len < needed) len = needed;
   return len;
}

void cp_context_cover(Context* ctx, const SBInfo* sb)
{
   UInt old, needed = sb->local + sb->n_exits, len;
   if (ctx->is_packed) cp_cold_unpack(ctx);
   old = cp_context_dense_len(ctx);
   /* The usual case, on every entry of a function by a jump: the
    * counters reach this far already, and the owner is not read. */
   if (needed <= old) return;
   len = grown_len(cp_owner(cp_context_owner(ctx)), old, needed);
   /* A region set's tree repeats the frames of the set before it: where
    * one's array had to grow, the next one's starts (region-scale: one
    * array a frame rather than two). */
   if (old > 0 && ctx->in_region)
      cp_owner_note_len(cp_context_owner(ctx), len);
   cp_cold_grow(ctx, len);
}

/* A first call needs no array; a second one starts it as cover would for
 * a first block, and a packed context is unpacked, as its first block
 * would be. */
Bool cp_context_give_array(Context* ctx)
{
   if (!ctx->is_packed && ctx->counters == CP_NO_ARRAY) {
      /* Views stay good: neither handle of no array has counters. */
      ctx->counters = CP_NO_ARRAY_CALLED;
      return False;
   }
   if (ctx->is_packed)
      cp_cold_unpack(ctx);
   else
      cp_cold_grow(ctx, grown_len(cp_owner(cp_context_owner(ctx)), 0, 0));
   return True;
}

void cp_context_lend(UWord base)
{
   cp_dense.key = cp_dense_key(0, 0);
   cp_dense.base = base;
   cp_dense.running = (UWord)&cp_running;
}

/* Enough for any superblock's exits (n_exits <= n_instrs + 1). */
static ULong scratch_counters[CP_MAX_SB_INSTRS + 2];
static ULong running_scratch;

void cp_context_lend_scratch(const SBInfo* sb)
{
   cp_context_lend((UWord)scratch_counters - sb->local * sizeof(ULong));
   cp_dense.running = (UWord)&running_scratch;
}

Bool cp_context_ran_code(const Context* ctx)
{
   return ctx->has_foreign || cp_context_dense_len(ctx) > 0 || ctx->is_packed;
}

Bool cp_context_has_counts(const Context* ctx)
{
   UInt k, len;
   const ULong* dense;
   tl_assert(!ctx->has_foreign);
   if (ctx->is_packed) return cp_packed_nonzero(ctx->counters) > 0;
   dense = cp_context_dense(ctx);
   len = cp_context_dense_len(ctx);
   for (k = 0; k < len; k++)
      if (dense[k]) return True;
   return False;
}

/* Positions: first the dense counters (scanned for nonzero words: most
 * of a context's owner's superblocks never ran in it), then the table's
 * slots. */
Bool cp_next_cost_center(const Context* ctx, UInt* pos, const SBInfo** sb,
                         const ULong** counts)
{
   const Owner* o = cp_owner(cp_context_owner(ctx));
   const ForeignTable* t;
   UInt dense_len;
   const ULong* dense = cp_cold_view(ctx, &dense_len);
   UInt dense_end = dense_len < o->n_counters ? dense_len : o->n_counters;
   /* A local index: the tool is built without strict aliasing, so a
    * loop on *pos would store it at every one of the (mostly zero)
    * counters it skips. */
   UInt p = *pos;
   while (p < dense_end && !dense[p]) p++;
   if (p < dense_end) {
      UInt first, end;
      cp_owner_run(o, p, &first, &end);
      /* Counters past dense_len were never published for ctx: zero. */
      tl_assert(end <= dense_len);
      *sb = cp_sbinfo_at(o->sb_at[p]);
      __builtin_prefetch(*sb);
      *counts = dense + first;
      *pos = end;
      return True;
   }
   t = foreign_of(ctx);
   for (; t && p - dense_end < t->capacity; p++) {
      const CostCenter* cc = &t->ccs[p - dense_end];
      if (!cc->sb_key) continue;
      *sb = cp_sbinfo_at(cc->sb_key - 1);
      *counts = cp_counters_at(cc->counters);
      *pos = p + 1;
      return True;
   }
   *pos = p;
   return False;
}

void cp_context_gather(const Context* ctx, RanBlocks* r)
{
   UInt k;
   const SBInfo* sb;
   const ULong* counts;
   r->used = 0;
   for (k = 0; cp_next_cost_center(ctx, &k, &sb, &counts); ) {
      r->items = cp_room_for_one("cp.ctx.gather", r->items, r->used,
                                 &r->capacity, sizeof(RanBlock), 256);
      r->items[r->used].sb = sb;
      r->items[r->used++].counts = counts;
   }
}

void cp_context_memory(ContextMemory* m)
{
   UInt id, k, n = cp_context_count();
   VG_(memset)(m, 0, sizeof *m);
   for (id = 1; id <= n; id++) {
      const Context* c = cp_context_by_id(id);
      const ULong* dense = cp_context_dense(c);
      UInt len = cp_context_dense_len(c);
      m->dense_bytes += (ULong)len * sizeof(ULong);
      for (k = 0; k < len; k++)
         if (dense[k]) m->dense_used += sizeof(ULong);
   }
   for (k = 0; k < n_foreign; k++)
      m->table_bytes += (ULong)foreign_tables[k].capacity * sizeof(CostCenter);
   m->context_bytes = cp_context_bytes();
   m->edge_table_bytes = cp_children_bytes()
                         + folds.n_buckets * sizeof(void*);
}

/* The final dump looks nothing up and grows no array: the (parent, edge)
 * table and the spare chunks of dense counters go back to the system
 * before the exit's own allocations, which may set the peak.  Nothing may
 * enter a context after this. */
void cp_context_drop_run_only(void)
{
   cp_children_free();
   cp_cold_drop_spare();
}
