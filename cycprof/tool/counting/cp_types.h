/* cycprof: the core data structures of the Valgrind tool (counting/ and
 * the floors above it use them).
 *
 * Model: every executed guest instruction is charged to (calling context,
 * instruction address).  A calling context is a node of a per-thread tree;
 * a shadow call stack per thread says which node is current.  Counting is
 * done by inline IR: each superblock exit adds to a per-(context, superblock)
 * counter, at a fixed place in the context's array when the frame's
 * function owns the superblock (cp_owners.h), so helpers run only when
 * the stack changes or code runs in another function's frame. */
#ifndef CP_TYPES_H
#define CP_TYPES_H

#include "pub_tool_basics.h"
#include "cp_pseudo.h"   /* a frame's fn may be <signal N> */

#define CP_RECENT_CONTEXTS 7
#define CP_CALL_SITE_WAYS  4

/* Contexts that held a superblock's cache before, checked by the miss
 * helper before the hash table: a callee alternates between a few callers.
 * Part of SBRare, allocated on the first eviction, so superblocks that
 * only ever run in one context pay nothing more. */
typedef struct RecentContexts {
   struct Context* ctx[CP_RECENT_CONTEXTS];   /* NULL: empty */
   ULong*          counters[CP_RECENT_CONTEXTS];
} RecentContexts;

/* What publishing a context puts in the inline code's words (cp_dense,
 * cp_context.h), kept where the context is published again and again (a
 * frame, a call site's cache), so that a return or a cached call
 * publishes without reading the context or its header: valid while
 * epoch is cp_dense_epoch (cp_cold.h). */
typedef struct DenseView {
   UWord key, base;
   ULong epoch;       /* 0: not made */
   Bool  has_array;   /* cp_context_has_array: base's header counts calls */
} DenseView;

/* The last call made from a superblock ending in a call: most call sites
 * call the same function from the same context again and again.  The
 * call helper gets this, not the superblock, to touch less memory. */
typedef struct CallSiteCache {
   Addr            callsite;   /* the call instruction */
   Addr            target;
   struct Context* parent;
   Addr            fn;
   struct Context* ctx;
   DenseView       view;         /* of ctx */
   /* callsite interned, and (callsite, fn) once fn is known
    * (cp_context.h). */
   UInt            site_id, edge;
   /* Earlier (parent, context) pairs of this callee, in any way, each
    * miss replacing the next in turn: a helper called from a few callers
    * in turn finds its context here rather than in the table of all
    * contexts (cc1plus: 49% of the call-site misses, against 42% when
    * the way was a hash of the parent). */
   struct {
      struct Context* parent;
      struct Context* ctx;
   } earlier[CP_CALL_SITE_WAYS];
   Bool            trampoline;
   UChar           next_way;   /* where the next miss saves its pair */
   Bool            counts_call;  /* ctx's parent is parent: a call into
                                  * ctx enters it (not folded
                                  * recursion), so its calls count */
   /* For a PLT stub: the function it last handed over to, and the
    * context that took the stub's place (valid while ctx is). */
   Bool            then_trampoline;
   Addr            then_fn;
   struct Context* then_ctx;
} CallSiteCache;

/* The last tail call into a function entry: (parent, jump site) ->
 * context, as cp_context_enter would give. */
typedef struct TailCallCache {
   struct Context* parent;
   Addr            site;
   struct Context* ctx;
   UInt            edge;             /* (site, the entry) interned */
   Bool            trampoline;       /* the entry is a PLT stub's or the
                                      * resolver's (cp_is_trampoline) */
} TailCallCache;

/* What few superblocks need (cc1plus: 2% of them), allocated on first
 * use, so that the others pay a 32-bit index. */
typedef struct SBRare {
   RecentContexts recent;   /* used once the counter cache changed */
   TailCallCache  tail;     /* function entries reached by a jump */
} SBRare;

/* Static facts about one translated superblock (no chasing, so the
 * superblock is a straight run of guest instructions with side exits).
 * There is one per translation and all are kept to the end (cc1plus:
 * 260,000), so they are compact: counts in bytes, and the per-exit and
 * per-instruction facts in a trailing block read through cp_sbinfo.h. */
typedef struct SBInfo {
   Addr   addr;            /* first guest instruction */
   /* One-entry cache: the counters of (context cache_ctx, this
    * superblock), for code run in another function's frame;
    * cp_on_block_entry compares it with cp_cur_ctx and looks further
    * only on a mismatch. */
   ULong* cache_counters;
   struct Context* cache_ctx;   /* NULL until the first such run */
   UInt   rare;            /* its SBRare in cp_callstack.c, 1-based; 0: none */
   UInt   id;              /* index in cp_sbinfo_at() */
   UInt   owner;           /* function whose frames count it (cp_owners.h) */
   UInt   local;           /* its first counter among the owner's */
   UShort n_instrs;        /* at most CP_MAX_SB_INSTRS */
   UShort n_exits;         /* exit groups (cp_sbinfo.c): at most n_instrs */
   UChar  is_fn_entry : 1; /* addr is the entry of a function */
   UChar  wide_addrs : 1;  /* instruction addresses stored whole */
   UChar  wide_counts : 1; /* exit facts take two bytes (n_instrs > 255) */
   UChar  facts[];         /* layout private to cp_sbinfo.h */
} SBInfo;

/* The counters of one superblock executed in one context: a slot of the
 * context's own open-addressing table.  Kept per context so that lookups
 * touch a small table that stays in cache; 32-bit fields keep slots at
 * 8 bytes (the slot count is the tool's largest memory cost). */
typedef struct CostCenter {
   UInt sb_key;     /* 1 + the superblock's id; 0: empty slot */
   UInt counters;   /* index for cp_counters_at(), sb->n_exits of them */
} CostCenter;

typedef enum { CtxRoot, CtxCall, CtxSignal } CtxKind;

/* A calling context: the chain of active calls from a thread's root.
 * There are millions in a big program (cc1plus: 5.6 M), so every byte
 * counts: 12 in all.  Its id is where it lies (cp_context_store.h), not
 * a field.  What is the same for many contexts is in small tables by an
 * index: the parent (by its id), and the edge it was entered by, the
 * pair (call site, function) interned (cc1plus: 21,000 edges); the bits
 * the two indexes leave hold the flags.  Its counters are named by a
 * 32-bit handle; their length and its count of calls are kept with them
 * (cp_cold.h).  The thread and region set are its tree's, kept once at
 * the tree's root or graft (cp_context_tree).  The counters of
 * superblocks its function does not own are in a table off the context
 * (cp_context.c), which few contexts have. */
#define CP_CONTEXT_ID_BITS 28     /* at most 268 M contexts */
#define CP_CONTEXT_EDGE_BITS 27   /* at most 134 M edges */
typedef struct Context {
   UInt        parent_id : CP_CONTEXT_ID_BITS;   /* 0 for roots but grafts
                                                  * (cp_context_graft) */
   UInt        kind : 2;          /* CtxKind */
   UInt        in_region : 1;     /* its tree's region set is not 0 */
   UInt        toggled : 1;       /* --toggle-collect frames on its chain,
                                   * mod 2 */
   /* (call site, function) interned: where control left the parent (0:
    * roots) and the frame's function (signo for signals); also gives its
    * owner (cp_context_owner). */
   UInt        edge : CP_CONTEXT_EDGE_BITS;
   /* A frame of a function already active further up the chain, entered
    * from another function (mutual recursion): see cp_context_enter. */
   UInt        reentry : 1;
   UInt        is_packed : 1;     /* its frame left every stack (cp_cold.h) */
   UInt        recently_used : 1; /* published since the last packing, or
                                   * in a live frame (cp_cold.h) */
   UInt        has_foreign : 1;   /* it has a table of cost centers */
   UInt        has_children : 1;  /* a context was entered from it: until
                                   * then, entering one needs no lookup */
   /* Counters of superblocks its function owns, as far as those that ran
    * here need: a dense array (cp_densespace.h), or when is_packed the
    * same packed (cp_packed.h); CP_NO_ARRAY(_CALLED): none yet. */
   UInt        counters;
} Context;

/* A frame of the shadow call stack. */
typedef enum { FrameCall, FrameTrampoline, FrameSignal } FrameKind;

typedef struct Frame {
   Addr      sp;       /* SP just after the call; popped once SP rises above */
   Addr      fn;
   Context*  ctx;      /* context current while this frame is on top */
   DenseView view;     /* of ctx, made when first published (epoch 0
                        * until then) */
   Addr      callsite; /* where control left the frame below */
   Context*  from_ctx; /* the context it was entered from */
   FrameKind kind;
   Bool      by_jump;  /* entered by a tail jump: it shares the return
                        * slot of the frame below */
   Addr      alt_lo, alt_hi;  /* signal frames: the alternate stack in use */
   CallSiteCache* site;        /* of the call that pushed it, if any */
} Frame;

typedef struct ThreadStack {
   Frame*   frames;
   UInt     depth;
   UInt     capacity;
   Context* root;
   /* Frames below graft_depth - 1 may be in another region set's tree
    * than the one the thread runs in: popping to them grafts again
    * (cp_callstack_regraft).  0: every frame is in it. */
   UInt     graft_depth;
} ThreadStack;

/* State of the running thread, read by the inline instrumentation.
 * Kept in globals so that the IR can load them with one instruction. */
extern Context* cp_cur_ctx;
extern Addr     cp_top_sp;       /* ~0 when the stack is empty */
extern Addr     cp_top_fn;       /* 0 when the stack is empty */
extern Addr     cp_last_jump_site;

#endif
