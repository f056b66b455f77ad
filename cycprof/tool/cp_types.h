/* cycprof: shared data structures of the Valgrind tool.
 *
 * Model: every executed guest instruction is charged to (calling context,
 * instruction address).  A calling context is a node of a per-thread tree;
 * a shadow call stack per thread says which node is current.  Counting is
 * done by inline IR: each superblock exit adds to a per-(context, superblock)
 * counter, so helpers run only when the context changes. */
#ifndef CP_TYPES_H
#define CP_TYPES_H

#include "pub_tool_basics.h"

/* Static facts about one translated superblock (no chasing, so the
 * superblock is a straight run of guest instructions with side exits). */
typedef struct SBInfo {
   Addr   addr;            /* first guest instruction */
   Addr   fn_entry;        /* != 0 when addr is the entry of a function */
   UInt   n_instrs;
   UInt   n_exits;         /* side exits + the final exit */
   Addr*  instr_addr;      /* [n_instrs] */
   UInt*  exit_ninstrs;    /* [n_exits] instructions done when leaving there */
   /* One-entry cache: the counters of (cache_ctx, this superblock).  The
    * inline code compares cache_ctx with cp_cur_ctx and calls a helper
    * only on a mismatch. */
   struct Context* cache_ctx;
   ULong*          cache_counters;
} SBInfo;

/* Counters of one superblock executed in one context. */
typedef struct CostCenter {
   struct CostCenter* hash_next;  /* first: cp_context.c rehashes by it */
   struct CostCenter* ctx_next;   /* list of all cost centers of ctx */
   struct Context*    ctx;
   SBInfo*            sb;
   ULong              counts[0];  /* [sb->n_exits] */
} CostCenter;

typedef enum { CtxRoot, CtxCall, CtxSignal } CtxKind;

/* A calling context: the chain of active calls from a thread's root. */
typedef struct Context {
   struct Context* parent;
   Addr        callsite;   /* where control left the parent (0 for roots) */
   Addr        fn;         /* function of this frame; signo for signals */
   UInt        id;         /* dense, creation order: parents first */
   UInt        tid;
   CtxKind     kind;
   ULong       calls;      /* how often a frame entered this context */
   CostCenter* ccs;
} Context;

/* A frame of the shadow call stack. */
typedef enum { FrameCall, FrameTrampoline, FrameSignal } FrameKind;

typedef struct Frame {
   Addr      sp;       /* SP just after the call; popped once SP rises above */
   Addr      fn;
   Addr      callsite; /* where control left the frame below */
   Context*  ctx;      /* context current while this frame is on top */
   FrameKind kind;
   Addr      alt_lo, alt_hi;  /* signal frames: the alternate stack in use */
} Frame;

typedef struct ThreadStack {
   Frame*   frames;
   UInt     depth;
   UInt     capacity;
   Context* root;
} ThreadStack;

/* State of the running thread, read by the inline instrumentation.
 * Kept in globals so that the IR can load them with one instruction. */
extern Context* cp_cur_ctx;
extern Addr     cp_top_sp;       /* ~0 when the stack is empty */
extern Addr     cp_top_fn;       /* 0 when the stack is empty */
extern Addr     cp_last_jump_site;

/* Synthetic "addresses" below this value name pseudo frames such as
 * <signal N>; no code is ever mapped there. */
#define CP_PSEUDO_LIMIT      0x1000
#define CP_SIGNAL_PSEUDO(n)  ((Addr)(0x100 + (n)))
#define CP_IS_PSEUDO(a)      ((a) != 0 && (a) < CP_PSEUDO_LIMIT)

#endif
