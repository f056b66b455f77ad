/* cycprof: the calling-context tree and its cost centers. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "cp_addrmap.h"
#include "cp_arena.h"
#include "cp_context.h"
#include "cp_options.h"

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
static ChainTable cost_centers;
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

static UWord cc_hash(const Context* ctx, const SBInfo* sb)
{
   return cp_hash_word((UWord)ctx ^ ((UWord)sb * 31));
}

static UWord edge_entry_hash(const void* entry)
{
   const Edge* e = entry;
   return edge_hash(e->parent, e->callsite, e->fn);
}

static UWord cc_entry_hash(const void* entry)
{
   const CostCenter* cc = entry;
   return cc_hash(cc->ctx, cc->sb);
}

/* Edge and CostCenter both start with their chain pointer, so one rehash
 * serves both tables. */
typedef struct Chained {
   struct Chained* next;
} Chained;

static void grow(ChainTable* t, UWord (*hash_of)(const void* entry))
{
   ChainTable bigger;
   UWord i;
   table_init(&bigger, t->n_buckets * 2);
   for (i = 0; i < t->n_buckets; i++) {
      Chained* e = t->buckets[i];
      while (e) {
         Chained* next = e->next;
         UWord b = hash_of(e) & (bigger.n_buckets - 1);
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
   table_init(&cost_centers, 1 << 14);
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

static Context* earlier_frame_context(Context* c, Addr fn)
{
   for (; c && c->kind == CtxCall; c = c->parent)
      if (c->fn == fn) return c;
   return NULL;
}

Context* cp_context_enter(Context* parent, Addr callsite, Addr fn,
                          CtxKind kind)
{
   UWord b = edge_hash(parent, callsite, fn) & (edges.n_buckets - 1);
   Edge* e;
   for (e = edges.buckets[b]; e; e = e->next)
      if (e->parent == parent && e->callsite == callsite && e->fn == fn)
         return e->to;

   e = cp_arena_alloc(sizeof(Edge));
   e->parent = parent;
   e->callsite = callsite;
   e->fn = fn;
   if (kind == CtxCall && cp_opts.fold_recursion)
      e->to = earlier_frame_context(parent, fn);
   if (!e->to)
      e->to = new_context(parent, callsite, fn, kind, parent->tid);
   e->next = edges.buckets[b];
   edges.buckets[b] = e;
   if (++edges.n_items > 2 * edges.n_buckets) grow(&edges, edge_entry_hash);
   return e->to;
}

CostCenter* cp_cost_center(Context* ctx, SBInfo* sb)
{
   UWord b = cc_hash(ctx, sb) & (cost_centers.n_buckets - 1);
   CostCenter* cc;
   for (cc = cost_centers.buckets[b]; cc; cc = cc->hash_next)
      if (cc->ctx == ctx && cc->sb == sb) return cc;

   cc = cp_arena_alloc(sizeof(CostCenter) + sb->n_exits * sizeof(ULong));
   cc->ctx = ctx;
   cc->sb = sb;
   cc->ctx_next = ctx->ccs;
   ctx->ccs = cc;
   cc->hash_next = cost_centers.buckets[b];
   cost_centers.buckets[b] = cc;
   if (++cost_centers.n_items > 2 * cost_centers.n_buckets)
      grow(&cost_centers, cc_entry_hash);
   return cc;
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
