/* cycprof: the calling-context tree and its cost centers. */
#ifndef CP_CONTEXT_H
#define CP_CONTEXT_H

#include "cp_collect_state.h"
#include "cp_context_store.h"   /* by id: cp_context_at, _by_id, _count */
#include "cp_cold.h"        /* its counters: dense or packed */
#include "cp_intern.h"
#include "cp_owners.h"
#include "cp_stats.h"
#include "cp_types.h"

/* on_new sets what a new context inherits from above (cp_collect.c's
 * toggle parity): called for each, once its key is set. */
void        cp_context_init(void (*on_new)(Context* c));
Context*    cp_context_root(UInt tid);
/* The context a frame of fn enters when it leaves parent at callsite.
 * With --fold-recursion=yes a call to a function already active in the
 * parent's chain (up to the nearest signal frame) returns that earlier
 * context, so recursion never grows the tree. */
Context*    cp_context_enter(Context* parent, Addr callsite, Addr fn,
                             CtxKind kind);
/* The same, with (callsite, fn) interned (cp_context_edge): a caller
 * that keeps the edge spares the lookups. */
Context*    cp_context_enter_edge(Context* parent, UInt edge, CtxKind kind);
/* The pair (call site, function), each interned (cp_context_sites,
 * _fns), interned. */
UInt        cp_context_edge(UInt site_id, UInt fn_id);
/* The same, from the addresses. */
UInt        cp_context_edge_of(Addr callsite, Addr fn);
/* The counters of sb in ctx, created zeroed on first use, for a
 * superblock ctx's function does not own (the others are its dense
 * counters). */
ULong*      cp_counters(Context* ctx, SBInfo* sb);

/* The running thread's context's dense counters, read by the inline
 * code: a superblock of this owner finds its counters at base + local,
 * if they lie below limit.  Arrays grow only to cover the superblocks
 * that ran in the context (most contexts of a big function run a few of
 * its blocks), so the inline code checks both owner and limit: in one
 * subtraction, from owner and limit packed in key (cp_dense_key). */
typedef struct {
   UWord key;       /* cp_dense_key(owner, counters covered) */
   UWord base;
   UWord running;   /* where the running count goes (cp_collect.h) */
} DenseCounters;
extern DenseCounters cp_dense;

/* Owner above, count of counters below.  For a superblock needing
 * counters below `needed` (at most CP_OWNER_MAX_COUNTERS, far below
 * 2^31), key - cp_dense_key(its owner, needed) is below 2^31 exactly
 * when the owners are equal and limit >= needed: another owner puts the
 * difference at least 2^32 - 2^24 away from 0, either way. */
static inline UWord cp_dense_key(UInt owner, UInt limit)
{
   return ((UWord)owner << 32) | limit;
}
#define CP_DENSE_KEY_COVERS_SHIFT 31
#define CP_DENSE_KEY_COVERS (1UL << CP_DENSE_KEY_COVERS_SHIFT)
STATIC_ASSERT(CP_OWNER_MAX_COUNTERS < (1u << 30));

/* Grows ctx's dense counters to cover sb's (sb is of ctx's owner). */
void        cp_context_cover(Context* ctx, const SBInfo* sb);

/* The owner of ctx's dense counters: its function's (cp_owners.h), kept
 * by edge. */
extern UInt* cp_context_edge_owners;
static inline UInt cp_context_owner(const Context* ctx)
{
   return cp_context_edge_owners[ctx->edge];
}

/* Reads ctx's view.  Marks ctx recently_used: every packing makes the
 * views stale, so a context published since is read again first. */
static inline void cp_context_view(Context* ctx, DenseView* v)
{
   ULong* dense = cp_context_dense(ctx);
   v->key = cp_dense_key(cp_collecting_in(ctx) ? cp_context_owner(ctx)
                                               : CP_OWNER_NOT_COLLECTING,
                         cp_dense_header(dense)->len);
   v->base = (UWord)dense;
   v->has_array = cp_context_has_array(ctx);
   v->epoch = cp_dense_epoch;
   ctx->recently_used = True;
   cp_stats.views++;
}

static inline Bool cp_context_view_stale(const DenseView* v)
{
   return v->epoch != cp_dense_epoch;
}

/* Makes a view's counters the current ones.  Inline: it runs on every
 * call and return. */
static inline void cp_context_show(const DenseView* v)
{
   cp_dense.key = v->key;
   /* Only translations made while the running count is on read it, and
    * turning it on publishes again (cp_running_need, cp_collect.h). */
   if (cp_running_on) cp_dense.running = (UWord)&cp_running;
   cp_dense.base = v->base;
}

/* Makes ctx's dense counters the current ones. */
static inline void cp_context_publish(Context* ctx)
{
   DenseView v;
   cp_context_view(ctx, &v);
   cp_context_show(&v);
}

/* For a superblock its frame's function does not own: base such that its
 * counters are at base + local, for this run of it only; the next
 * superblock finds no owner and calls the helper, which publishes again. */
void        cp_context_lend(UWord base);
/* Lends scratch counters to a superblock that runs while collection is
 * off (its run counts nowhere). */
void        cp_context_lend_scratch(const SBInfo* sb);
Bool        cp_context_ran_code(const Context* ctx);
/* Zeroes all of ctx's counts (a dump that starts a new part). */
void        cp_context_zero(Context* ctx);
/* Walks ctx's cost centers:
 *    for (pos = 0; cp_next_cost_center(ctx, &pos, &sb, &counts); ) ...
 * It reads no superblock record, and starts loading each: a caller that
 * first gathers them all (cp_context_gather) and then reads them waits
 * for several loads at once rather than one after the other (a
 * compiler's exit walks 4 M contexts of 260 k superblocks scattered
 * over 24 MB). */
Bool        cp_next_cost_center(const Context* ctx, UInt* pos,
                                const SBInfo** sb, const ULong** counts);

/* A context's cost centers, as cp_next_cost_center gives them. */
typedef struct {
   const SBInfo* sb;
   const ULong*  counts;
} RanBlock;

typedef struct {
   RanBlock* items;
   UInt      used, capacity;
} RanBlocks;

/* All of ctx's cost centers, in r (reused from call to call). */
void        cp_context_gather(const Context* ctx, RanBlocks* r);
/* Whether any of the dense counters of ctx, which has no cost-center
 * table, is nonzero: every departure ran an instruction, so whether it
 * has any cost.  Reads no superblock record. */
Bool        cp_context_has_counts(const Context* ctx);

/* Where the contexts' memory goes, for --stats=yes. */
typedef struct {
   ULong context_bytes;    /* the contexts themselves */
   ULong dense_bytes;      /* dense counter arrays, as allocated */
   ULong dense_used;       /* of which nonzero words (counters that ran) */
   ULong table_bytes;      /* cost-center tables */
   ULong edge_table_bytes; /* (parent, callsite, fn) -> context buckets */
} ContextMemory;
void        cp_context_memory(ContextMemory* m);
/* Before the final dump: the (parent, edge) table and the spare chunks
 * of dense counters, which only the run needs. */
void        cp_context_drop_run_only(void);

/* Interned functions of frames (signo for signals) and call sites, and
 * the pairs of them contexts are entered by: (site id << 32) | fn id. */
extern Interner  cp_context_fns, cp_context_sites, cp_context_edges;

static inline UInt cp_context_edge_fn(UInt edge)
{
   return (UInt)cp_interned(&cp_context_edges, edge);
}

static inline UInt cp_context_edge_site(UInt edge)
{
   return (UInt)(cp_interned(&cp_context_edges, edge) >> 32);
}

static inline UInt cp_context_fn_id(const Context* c)
{
   return cp_context_edge_fn(c->edge);
}

static inline UInt cp_context_site_id(const Context* c)
{
   return cp_context_edge_site(c->edge);
}
typedef struct {
   UInt tid;      /* thread serial */
   UInt region;   /* region set of the tree (cp_regions.h), 0: none */
   UInt start;    /* id of its root or graft, its first context */
} ContextTree;
extern ContextTree* cp_context_trees;
/* The tree c is in: its root's or graft's, found by walking up to it
 * (the frames since the root, or since the region opened). */
UInt        cp_context_tree(const Context* c);
/* Every context's tree, [id] for ids 1 to cp_context_count(), for a walk
 * over all contexts; the caller frees it (cp_heap_free). */
UInt*       cp_context_trees_by_id(void);
/* The final dump's end for them: the callgrind file reads no tree, the
 * pprof side has its own copy or is done, and nothing runs after. */
void        cp_context_forget_trees(void);

static inline Context* cp_context_parent(const Context* c)
{
   return c->parent_id ? cp_context_at(c->parent_id) : NULL;
}

/* A graft: the root of a region set's tree that hangs from the context
 * below the frame that opened the region rather than starting a tree of
 * its own; it has no frame, and the frames above it are in that set.  Its
 * inclusive cost is its parent's, so callers' costs stay as they were. */
Context*    cp_context_graft(Context* from, UInt region);
/* Whether a frame of fn_id is active in c's chain, up to the nearest
 * signal frame or root (through grafts): where recursion folds. */
Bool        cp_context_active_in_chain(const Context* c, UInt fn_id);
static inline Bool cp_context_is_graft(const Context* c)
{
   return c->kind == CtxRoot && c->parent_id != 0;
}

/* The context whose frame c stands for: c, or for a graft, the context
 * it hangs from (the frames above it are that frame's, in its set). */
static inline Context* cp_context_frame(const Context* c)
{
   return cp_context_is_graft(c) ? cp_context_parent(c) : (Context*)c;
}

/* The context of the frame below c's. */
static inline Context* cp_context_frame_parent(const Context* c)
{
   Context* p = cp_context_parent(c);
   return p ? cp_context_frame(p) : NULL;
}

static inline Addr cp_context_fn(const Context* c)
{
   return (Addr)cp_interned(&cp_context_fns, cp_context_fn_id(c));
}

static inline Addr cp_context_callsite(const Context* c)
{
   return (Addr)cp_interned(&cp_context_sites, cp_context_site_id(c));
}

/* Calls wrap at 2^32 rarely enough to keep the rest in a side map.  The
 * low bits are kept with the counters (DenseHeader), which a context
 * entered a second time has dense: cp_context_give_array makes them so,
 * or counts the first call without them (False). */
void        cp_context_calls_wrapped(const Context* c);
Bool        cp_context_give_array(Context* c);
static inline void cp_context_count_call(Context* c)
{
   if (!cp_context_has_array(c) && !cp_context_give_array(c)) return;
   if (++cp_dense_header(cp_context_dense(c))->calls == 0)
      cp_context_calls_wrapped(c);
}
ULong       cp_context_calls(const Context* c);

static inline UInt cp_context_tid(const Context* c)
{
   return cp_context_trees[cp_context_tree(c)].tid;
}

static inline UInt cp_context_region(const Context* c)
{
   return c->in_region ? cp_context_trees[cp_context_tree(c)].region : 0;
}

#endif
