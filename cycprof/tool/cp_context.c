/* cycprof: the calling-context tree and its cost centers. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_addrmap.h"
#include "cp_arena.h"
#include "cp_collect.h"
#include "cp_context.h"
#include "cp_counters.h"
#include "cp_instrument.h"
#include "cp_options.h"
#include "cp_owners.h"
#include "cp_stats.h"

CpStats cp_stats;

/* (parent, callsite, fn) -> context.  Separate from Context because with
 * folding several keys lead to the same earlier context. */
typedef struct Edge {
   struct Edge* next;
   Context* parent;
   Addr     callsite;
   Addr     fn;
   Context* to;
} Edge;

typedef struct {
   void** buckets;
   UWord  n_buckets;
   UWord  n_items;
} ChainTable;

static ChainTable edges;
static Context**  all_contexts;     /* [1 .. n_contexts] */
static UInt       n_contexts;
static UInt       contexts_capacity;

static void table_init(ChainTable* t, UWord n)
{
   t->n_buckets = n;
   t->n_items = 0;
   t->buckets = VG_(calloc)("cp.ctx.table", n, sizeof(void*));
}

static UWord edge_hash(const Context* parent, Addr callsite, Addr fn)
{
   return cp_hash_word((UWord)parent ^ (callsite * 31) ^ (fn * 1000003));
}

static UWord edge_entry_hash(const void* entry)
{
   const Edge* e = entry;
   return edge_hash(e->parent, e->callsite, e->fn);
}

static void grow_edges(ChainTable* t)
{
   ChainTable bigger;
   UWord i;
   table_init(&bigger, t->n_buckets * 2);
   for (i = 0; i < t->n_buckets; i++) {
      Edge* e = t->buckets[i];
      while (e) {
         Edge* next = e->next;
         UWord b = edge_entry_hash(e) & (bigger.n_buckets - 1);
         e->next = bigger.buckets[b];
         bigger.buckets[b] = e;
         e = next;
      }
   }
   bigger.n_items = t->n_items;
   VG_(free)(t->buckets);
   *t = bigger;
}

void cp_context_init(void)
{
   table_init(&edges, 1 << 12);
   contexts_capacity = 1 << 12;
   all_contexts = VG_(malloc)("cp.ctx.all",
                              contexts_capacity * sizeof(Context*));
   n_contexts = 0;
}

static Context* new_context(Context* parent, Addr callsite, Addr fn,
                            CtxKind kind, UInt tid)
{
   Context* c = cp_arena_alloc(sizeof(Context));
   c->parent = parent;
   c->callsite = callsite;
   c->fn = fn;
   c->kind = kind;
   c->tid = tid;
   c->owner = cp_owner_of_frame(fn);
   cp_collect_new_context(c);
   if (n_contexts + 1 >= contexts_capacity) {
      contexts_capacity *= 2;
      all_contexts = VG_(realloc)("cp.ctx.all", all_contexts,
                                  contexts_capacity * sizeof(Context*));
   }
   c->id = ++n_contexts;
   all_contexts[c->id] = c;
   return c;
}

Context* cp_context_root(UInt tid)
{
   return new_context(NULL, 0, 0, CtxRoot, tid);
}

static Bool active_in_chain(const Context* c, Addr fn)
{
   for (; c && c->kind == CtxCall; c = c->parent)
      if (c->fn == fn) return True;
   return False;
}

static Edge* find_edge(Context* parent, Addr callsite, Addr fn, UWord* bucket)
{
   Edge* e;
   *bucket = edge_hash(parent, callsite, fn) & (edges.n_buckets - 1);
   for (e = edges.buckets[*bucket]; e; e = e->next)
      if (e->parent == parent && e->callsite == callsite && e->fn == fn)
         return e;
   return NULL;
}

static void add_edge(Context* parent, Addr callsite, Addr fn, UWord bucket,
                     Context* to)
{
   Edge* e = cp_arena_alloc(sizeof(Edge));
   cp_stats.edges++;
   e->parent = parent;
   e->callsite = callsite;
   e->fn = fn;
   e->to = to;
   e->next = edges.buckets[bucket];
   edges.buckets[bucket] = e;
   if (++edges.n_items > 2 * edges.n_buckets) grow_edges(&edges);
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
static Context* folded_context(Context* parent, Addr callsite, Addr fn)
{
   Context* c;
   for (c = parent; ; c = c->parent) {
      if (c->fn == fn) return c;
      if (!c->reentry) break;
   }
   c = new_context(parent, callsite, fn, CtxCall, parent->tid);
   c->reentry = True;
   return c;
}

Context* cp_context_enter(Context* parent, Addr callsite, Addr fn,
                          CtxKind kind)
{
   UWord b;
   Edge* e = find_edge(parent, callsite, fn, &b);
   Context* to;
   if (e) return e->to;
   if (kind == CtxCall && cp_opts.fold_recursion
       && active_in_chain(parent, fn))
      to = folded_context(parent, callsite, fn);
   else
      to = new_context(parent, callsite, fn, kind, parent->tid);
   add_edge(parent, callsite, fn, b, to);
   return to;
}

static UWord slot_of(const Context* ctx, UInt sb_key)
{
   UWord mask = ctx->ccs_capacity - 1;
   UWord i = cp_hash_word(sb_key) & mask;
   while (ctx->ccs[i].sb_key && ctx->ccs[i].sb_key != sb_key) {
      cp_stats.probes++;
      i = (i + 1) & mask;
   }
   return i;
}

static void grow_cost_centers(Context* ctx)
{
   CostCenter* old = ctx->ccs;
   UInt k, n = ctx->ccs_capacity;
   ctx->ccs_capacity = n ? 2 * n : 4;
   ctx->ccs = VG_(calloc)("cp.ctx.ccs", ctx->ccs_capacity, sizeof(CostCenter));
   for (k = 0; k < n; k++)
      if (old[k].sb_key) ctx->ccs[slot_of(ctx, old[k].sb_key)] = old[k];
   if (old) VG_(free)(old);
}

ULong* cp_counters(Context* ctx, SBInfo* sb)
{
   UInt key = sb->id + 1;
   UWord i;
   cp_stats.cost_center_lookups++;
   if (ctx->ccs) {
      i = slot_of(ctx, key);
      if (ctx->ccs[i].sb_key) return cp_counters_at(ctx->ccs[i].counters);
   }
   /* Up to 7/8 full: lookups are rare (most misses are served by the
    * superblock's recent contexts), memory is not. */
   if (8 * (ctx->n_ccs + 1) > 7 * ctx->ccs_capacity) grow_cost_centers(ctx);
   i = slot_of(ctx, key);
   cp_stats.cost_centers++;
   ctx->ccs[i].sb_key = key;
   ctx->ccs[i].counters = cp_counters_alloc(sb->n_exits);
   ctx->n_ccs++;
   return cp_counters_at(ctx->ccs[i].counters);
}

/* Owner 0 is nobody's: every superblock calls the helper. */
DenseCounters cp_dense = { 0, 0, 0, (UWord)&cp_running };

/* Geometric growth, bounded by the owner's counters so far: a context
 * that runs a function's blocks one by one reallocates O(log) times, and
 * one that runs a few early blocks of a big function stays small. */
void cp_context_cover(Context* ctx, const SBInfo* sb)
{
   UInt old = ctx->dense_len, needed = sb->local + sb->n_exits;
   UInt all = cp_owner(ctx->owner)->n_counters, len = needed;
   if (needed <= old) return;
   if (len < old + old / 2) len = old + old / 2;
   if (len < 8) len = 8;
   if (len > all) len = all;
   if (len < needed) len = needed;
   ctx->dense = VG_(realloc)("cp.ctx.dense", ctx->dense, len * sizeof(ULong));
   VG_(memset)(ctx->dense + old, 0, (len - old) * sizeof(ULong));
   ctx->dense_len = len;
}

void cp_context_lend(UWord base)
{
   cp_dense.owner = 0;
   cp_dense.base = base;
   cp_dense.limit = 0;
   cp_dense.running = (UWord)&cp_running;
}

Bool cp_context_ran_code(const Context* ctx)
{
   return ctx->n_ccs > 0 || ctx->dense_len > 0;
}

/* Positions: first the dense counters (scanned for nonzero words: most
 * of a context's owner's superblocks never ran in it), then the table's
 * slots. */
Bool cp_next_cost_center(const Context* ctx, UInt* pos, const SBInfo** sb,
                         const ULong** counts)
{
   const Owner* o = cp_owner(ctx->owner);
   UInt dense_end = ctx->dense_len < o->n_counters ? ctx->dense_len
                                                   : o->n_counters;
   for (; *pos < dense_end; (*pos)++) {
      const SBInfo* s;
      if (!ctx->dense[*pos]) continue;
      s = o->sbs[o->sb_at[*pos]];
      /* Counters past dense_len were never published for ctx: zero. */
      tl_assert(s->local + s->n_exits <= ctx->dense_len);
      *sb = s;
      *counts = ctx->dense + s->local;
      *pos = s->local + s->n_exits;
      return True;
   }
   for (; *pos - dense_end < ctx->ccs_capacity; (*pos)++) {
      const CostCenter* cc = &ctx->ccs[*pos - dense_end];
      if (!cc->sb_key) continue;
      *sb = cp_sbinfo_at(cc->sb_key - 1);
      *counts = cp_counters_at(cc->counters);
      (*pos)++;
      return True;
   }
   return False;
}

void cp_context_memory(ContextMemory* m)
{
   UInt id, k;
   VG_(memset)(m, 0, sizeof *m);
   for (id = 1; id <= n_contexts; id++) {
      const Context* c = all_contexts[id];
      m->dense_bytes += (ULong)c->dense_len * sizeof(ULong);
      for (k = 0; k < c->dense_len; k++)
         if (c->dense[k]) m->dense_used += sizeof(ULong);
      m->table_bytes += (ULong)c->ccs_capacity * sizeof(CostCenter);
   }
   m->edge_table_bytes = edges.n_buckets * sizeof(void*);
}

UInt cp_context_count(void)
{
   return n_contexts;
}

Context* cp_context_by_id(UInt id)
{
   tl_assert(id >= 1 && id <= n_contexts);
   return all_contexts[id];
}
