/* cycprof: the shadow call stack of each thread.
 *
 * Frames are pushed on calls and popped by stack pointer: a frame is dead
 * as soon as SP rises above the return-address slot it was pushed with.
 * That one rule handles returns, longjmp, exceptions, and returns with no
 * matching call, without trusting the control flow to be well nested.
 * See docs/attribution.md for the events and policies. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "cp_arch.h"
#include "cp_arena.h"
#include "cp_array.h"
#include "cp_callstack.h"
#include "cp_context.h"
#include "cp_functions.h"
#include "cp_heap.h"
#include "cp_intern.h"
#include "cp_options.h"
#include "cp_stats.h"

/* Past this depth frames are not pushed: the costs stay with the deepest
 * tracked frame and SP-based popping keeps the stack consistent. */
#define MAX_DEPTH (1u << 20)

Context* cp_cur_ctx;
Addr     cp_top_sp = ~(Addr)0;
Addr     cp_top_fn;
Addr     cp_last_jump_site;

static ThreadStack** threads;     /* [VG_N_THREADS], created on first use */
/* The region sets' maker of grafts (cp_callstack_set_grafter). */
static Context* (*graft_base)(ThreadId tid, Context* below);
static ThreadStack*  current;
static ThreadId      current_tid;
static UInt          deepest;

/* Valgrind reuses thread ids; each thread gets its own serial number,
 * which is what the profiles call the thread. */
static UInt threads_started;

static ThreadStack* thread_stack(ThreadId tid)
{
   tl_assert(tid < VG_N_THREADS);
   if (!threads[tid]) {
      ThreadStack* t = cp_heap_calloc("cp.stack.thread", 1, sizeof(ThreadStack));
      t->capacity = 64;
      t->frames = cp_heap_malloc("cp.stack.frames", t->capacity * sizeof(Frame));
      t->root = cp_context_root(++threads_started);
      threads[tid] = t;
   }
   return threads[tid];
}

static Frame* top_frame(ThreadStack* t)
{
   return t->depth ? &t->frames[t->depth - 1] : NULL;
}

/* The inline code reads the running thread's top frame from globals.
 * The frame keeps its context's view: a return to it reads neither the
 * context nor its counters' header.  The view must be right. */
static inline void show_frame(const Frame* top)
{
   cp_cur_ctx = top->ctx;
   cp_top_sp  = top->sp;
   cp_top_fn  = top->fn;
   cp_context_show(&top->view);
}

static inline void show_top(Frame* top)
{
   if (cp_context_view_stale(&top->view))
      cp_context_view(top->ctx, &top->view);
   show_frame(top);
}

static void publish(ThreadStack* t)
{
   if (t != current) return;
   if (t->depth) {
      show_top(top_frame(t));
      return;
   }
   cp_cur_ctx = t->root;
   cp_top_sp  = ~(Addr)0;
   cp_top_fn  = 0;
   cp_context_publish(cp_cur_ctx);
}

static Context* context_of_depth(ThreadStack* t, UInt depth)
{
   return depth ? t->frames[depth - 1].ctx : t->root;
}

void cp_callstack_mark_live_contexts(void)
{
   UInt tid, d;
   for (tid = 0; threads && tid < VG_N_THREADS; tid++) {
      ThreadStack* t = threads[tid];
      if (!t) continue;
      t->root->recently_used = True;
      for (d = 0; d < t->depth; d++) t->frames[d].ctx->recently_used = True;
   }
}

/* Writes a frame of ctx, entered from `from`, onto a stack known to have
 * room; counting the call is the caller's.  Inline, because plain calls
 * (call_fast) go through it. */
static inline Frame* push_frame(ThreadStack* t, Addr sp, Addr fn,
                                Addr callsite, Context* ctx, Context* from,
                                FrameKind kind, CallSiteCache* site)
{
   Frame* f = &t->frames[t->depth];
   t->depth++;
   f->sp = sp;
   f->fn = fn;
   f->callsite = callsite;
   f->ctx = ctx;
   f->view.epoch = 0;
   f->from_ctx = from;
   f->kind = kind;
   f->by_jump = False;
   f->alt_lo = f->alt_hi = 0;
   f->site = site;
   if (t->depth > deepest) deepest = t->depth;
   return f;
}

/* A call folded into a context already active (recursion) is not a new
 * entry into it: callgrind counts only the outermost call too. */
static inline Bool is_entry(const Context* ctx, const Context* from)
{
   return cp_context_parent(ctx) == from;
}

static void push(ThreadStack* t, Addr sp, Addr fn, Addr callsite,
                 Context* ctx, FrameKind kind, CallSiteCache* site)
{
   Context* from;
   if (t->depth >= MAX_DEPTH) return;
   t->frames = cp_room_for_one("cp.stack.frames", t->frames, t->depth,
                               &t->capacity, sizeof(Frame), 64);
   from = context_of_depth(t, t->depth);
   if (is_entry(ctx, from)) cp_context_count_call(ctx);
   push_frame(t, sp, fn, callsite, ctx, from, kind, site);
}

/* A handler running on an alternate stack may sit above the interrupted
 * SP; its signal frame then goes only when SP leaves the alternate stack. */
static Bool survives(const Frame* f, Addr sp)
{
   if (f->kind == FrameSignal && f->alt_hi > f->alt_lo)
      return sp >= f->alt_lo && sp < f->alt_hi;
   return False;
}

static void pop_below(ThreadStack* t, Addr limit)
{
   while (t->depth > 0) {
      Frame* f = &t->frames[t->depth - 1];
      if (f->sp >= limit || survives(f, limit)) break;
      t->depth--;
   }
}

static void graft(ThreadId tid, ThreadStack* t);

/* The frame a region set's graft was made at has gone: the frame now on
 * top is in another set's tree, or in none of this thread's. */
static inline void check_graft(ThreadId tid, ThreadStack* t)
{
   if (UNLIKELY(t->depth < t->graft_depth)) graft(tid, t);
}

/* A new thread starts with an empty stack and a root of its own, never
 * under the creating thread's stack or a dead thread's leftovers. */
void cp_callstack_thread_created(ThreadId parent, ThreadId child)
{
   ThreadStack* t = threads[child];
   /* The main thread is announced too, with no parent: keep its root. */
   if (t && parent != VG_INVALID_THREADID) {
      t->depth = 0;
      t->graft_depth = 0;
      t->root = cp_context_root(++threads_started);
   }
   publish(thread_stack(child));
}

void cp_callstack_init(void)
{
   threads = cp_heap_calloc("cp.stack.threads", VG_N_THREADS,
                         sizeof(ThreadStack*));
   current_tid = 1;
   current = thread_stack(1);
   publish(current);
}

void cp_callstack_switch_thread(ThreadId tid, ULong blocks_done)
{
   (void)blocks_done;
   if (tid == current_tid) return;
   current_tid = tid;
   current = thread_stack(tid);
   publish(current);
}

UInt cp_callstack_max_depth(void)
{
   return deepest;
}

/* The usual call: the caller's frame lives on, the call site's cache and
 * its view of the context are right, the stack has room and the context's
 * count of calls does not wrap.  Does what the general path would, from
 * the cache alone: it reads neither the context nor its header, and calls
 * nothing, so that it saves no registers. */
static inline Bool call_fast(ThreadStack* t, CallSiteCache* site,
                             Addr target, Addr sp)
{
   UInt d = t->depth;
   const Frame* caller;
   Frame* f;
   if (d == 0 || d >= t->capacity || d >= MAX_DEPTH) return False;
   caller = &t->frames[d - 1];
   if (caller->sp < sp + CP_CALL_PUSHES_RETURN || site->target != target
       || site->parent != caller->ctx || !site->ctx
       || cp_context_view_stale(&site->view))
      return False;
   if (site->counts_call) {
      DenseHeader* h = cp_dense_header((ULong*)site->view.base);
      if (!site->view.has_array || h->calls == ~0u) return False;
      h->calls++;
   }
   f = push_frame(t, sp, site->fn, site->callsite, site->ctx, site->parent,
                  site->trampoline ? FrameTrampoline : FrameCall, site);
   f->view = site->view;
   show_frame(f);
   return True;
}

/* The way holding parent's pair, or CP_CALL_SITE_WAYS. */
static inline UInt earlier_way(const CallSiteCache* site,
                               const Context* parent)
{
   UInt k;
   for (k = 0; k < CP_CALL_SITE_WAYS; k++)
      if (site->earlier[k].parent == parent) break;
   return k;
}

static void __attribute__((noinline))
call(ThreadStack* t, CallSiteCache* site, Addr target, Addr sp)
{
   Context* parent;
   /* A frame whose return slot the call overwrites is dead already. */
   pop_below(t, sp + CP_CALL_PUSHES_RETURN);
   check_graft(current_tid, t);
   parent = context_of_depth(t, t->depth);
   /* The context depends only on (parent, call site, callee). */
   if (site->target != target || site->parent != parent || !site->ctx) {
      cp_stats.call_site_misses++;
      if (site->target != target || !site->ctx) {
         site->target = target;
         site->fn = cp_function_of(target);
         site->edge = cp_context_edge(site->site_id,
                                      cp_intern(&cp_context_fns, site->fn));
         site->trampoline = cp_is_trampoline(site->fn);
         /* The earlier pairs were another callee's. */
         VG_(memset)(site->earlier, 0, sizeof site->earlier);
         site->ctx = cp_context_enter_edge(parent, site->edge, CtxCall);
      } else {
         UInt way = earlier_way(site, parent);
         Context* ctx = NULL;
         if (way < CP_CALL_SITE_WAYS) {
            ctx = site->earlier[way].ctx;
            cp_stats.call_site_swaps++;
         } else {
            way = site->next_way;
            site->next_way = (way + 1) % CP_CALL_SITE_WAYS;
            ctx = cp_context_enter_edge(parent, site->edge, CtxCall);
         }
         /* The pair it replaces takes the way it came from. */
         site->earlier[way].parent = site->parent;
         site->earlier[way].ctx = site->ctx;
         site->ctx = ctx;
      }
      site->parent = parent;
      site->then_fn = 0;
      site->counts_call = is_entry(site->ctx, parent);
      site->view.epoch = 0;
   }
   push(t, sp, site->fn, site->callsite, site->ctx,
        site->trampoline ? FrameTrampoline : FrameCall, site);
   publish(t);
   /* The next call from here can take the fast way. */
   if (t->depth && top_frame(t)->site == site
       && top_frame(t)->ctx == site->ctx)
      site->view = top_frame(t)->view;
}

VG_REGPARM(3) void cp_on_call(CallSiteCache* site, Addr target, Addr sp)
{
   ThreadStack* t = current;
   cp_stats.calls++;
   if (!call_fast(t, site, target, sp)) call(t, site, target, sp);
}

/* With --fold-recursion=no every chain is a context of its own, and a
 * loop of tail calls would grow the chain without end: a jump from a frame
 * at the same SP to a function it already tail-called goes back to that
 * frame instead. */
static Bool rewind_tail_loop(ThreadStack* t, Addr fn)
{
   UInt i = t->depth;
   Addr sp = t->frames[t->depth - 1].sp;
   while (i > 0 && t->frames[i - 1].sp == sp
          && t->frames[i - 1].kind == FrameCall) {
      if (t->frames[i - 1].fn == fn) {
         t->depth = i;
         return True;
      }
      i--;
   }
   return False;
}

/* top becomes a frame of fn in ctx, entered from top->from_ctx; a call
 * into ctx unless recursion folded it (as push counts). */
static void retarget_frame(Frame* top, Addr fn, Context* ctx, Bool trampoline)
{
   top->fn = fn;
   top->ctx = ctx;
   top->view.epoch = 0;
   top->kind = trampoline ? FrameTrampoline : FrameCall;
   top->site = NULL;
   if (is_entry(ctx, top->from_ctx)) cp_context_count_call(ctx);
}

/* PLT stubs and the resolver hand over to the real callee; the outermost
 * frame has nothing to return to.  Both are replaced.  A stub's call site
 * remembers where the stub led last time. */
static void replace_top(Frame* top, Addr fn)
{
   CallSiteCache* site = top->site;
   Bool site_knows = site && site->ctx == top->ctx;
   Context* parent = top->from_ctx;
   Context* ctx;
   Bool trampoline;
   if (site_knows && site->then_fn == fn) {
      ctx = site->then_ctx;
      trampoline = site->then_trampoline;
   } else {
      /* A frame a call pushed has its call site interned already. */
      UInt site_id = site ? site->site_id
                          : cp_intern(&cp_context_sites, top->callsite);
      ctx = cp_context_enter_edge(parent,
         cp_context_edge(site_id, cp_intern(&cp_context_fns, fn)), CtxCall);
      trampoline = cp_is_trampoline(fn);
      if (site_knows) {
         site->then_fn = fn;
         site->then_ctx = ctx;
         site->then_trampoline = trampoline;
      }
   }
   retarget_frame(top, fn, ctx, trampoline);
}

/* The few superblocks' SBRare, by SBInfo.rare - 1: an index there
 * takes half the room of a pointer in every SBInfo. */
static SBRare** rare_states;
static UInt     n_rare_states, rare_states_capacity;

static SBRare* rare_state(SBInfo* sb)
{
   if (!sb->rare) {
      rare_states = cp_room_for_one("cp.callstack.rare", rare_states,
                                    n_rare_states, &rare_states_capacity,
                                    sizeof(SBRare*), 64);
      rare_states[n_rare_states++] = cp_arena_alloc(sizeof(SBRare));
      sb->rare = n_rare_states;
   }
   return rare_states[sb->rare - 1];
}

static const TailCallCache* tail_call(SBInfo* entry, Context* parent,
                                      Addr site)
{
   TailCallCache* c = &rare_state(entry)->tail;
   if (c->ctx == NULL || c->parent != parent || c->site != site) {
      /* Mostly the same jump under another parent: keep the ids. */
      if (c->ctx == NULL || c->site != site) {
         c->site = site;
         c->edge = cp_context_edge_of(site, entry->addr);
         c->trampoline = cp_is_trampoline(entry->addr);
      }
      c->parent = parent;
      c->ctx = cp_context_enter_edge(parent, c->edge, CtxCall);
   }
   return c;
}

/* A tail call: shown as a call from the jumping function, popped together
 * with it because both share the return slot.  A jump to a PLT stub or the
 * resolver (a lazily bound tail call) is replaced by the function it leads
 * to, as after a call; the PLT's pushes leave SP below the shared slot,
 * where the resolver's return to it would pop the frame before the
 * hand-over.  A tail call from a frame that a tail call entered takes that
 * frame's place, one frame per return slot, and its context is entered
 * from that frame's: every function of the chain stays active in the
 * context until the slot returns (loops of tail calls fold like
 * recursion, docs/attribution.md).  Not with --fold-recursion=no, whose
 * chains would then grow without end: there the frames stay, for
 * rewind_tail_loop to find. */
static void tail_call_frame(ThreadStack* t, Frame* top, SBInfo* sb, Addr sp)
{
   const TailCallCache* c = tail_call(sb, cp_cur_ctx, cp_last_jump_site);
   Addr slot = c->trampoline && top->sp > sp ? top->sp : sp;
   UInt depth = t->depth;
   if (cp_opts.fold_recursion && top->by_jump && top->sp == slot) {
      top->from_ctx = top->ctx;
      top->callsite = cp_last_jump_site;
      retarget_frame(top, sb->addr, c->ctx, c->trampoline);
      return;
   }
   push(t, slot, sb->addr, cp_last_jump_site, c->ctx,
        c->trampoline ? FrameTrampoline : FrameCall, NULL);
   if (t->depth > depth) top_frame(t)->by_jump = True;
}

static void enter_function_by_jump(SBInfo* sb, Addr sp)
{
   ThreadStack* t = current;
   Frame* top = top_frame(t);
   Addr fn = sb->addr;
   cp_stats.function_entries++;

   if (!top) {
      /* First code of a thread, or a jump out of everything tracked. */
      push(t, sp, fn, 0, cp_context_enter(t->root, 0, fn, CtxCall),
           FrameCall, NULL);
   } else if (top->kind == FrameSignal) {
      /* The kernel (here: Valgrind) "calls" the handler. */
      push(t, sp, fn, top->fn,
           cp_context_enter(top->ctx, top->fn, fn, CtxCall), FrameCall,
           NULL);
   } else if (top->kind == FrameTrampoline || t->depth == 1) {
      replace_top(top, fn);
   } else if (cp_opts.fold_recursion || !rewind_tail_loop(t, fn)) {
      tail_call_frame(t, top, sb, sp);
   } else {
      check_graft(current_tid, t);
   }
   publish(t);
}

static void switch_counters(SBInfo* sb)
{
   Context* ctx = cp_cur_ctx;
   ULong* counters = NULL;
   cp_stats.context_misses++;
   /* The first miss only fills the empty cache: nothing to remember. */
   if (sb->cache_ctx) {
      RecentContexts* r = &rare_state(sb)->recent;
      UInt k;
      for (k = 0; k < CP_RECENT_CONTEXTS; k++)
         if (r->ctx[k] == ctx) {
            counters = r->counters[k];
            cp_stats.recent_hits++;
            break;
         }
      if (!counters) k = CP_RECENT_CONTEXTS - 1;
      /* Move to front: the evicted entry becomes the most recent. */
      for (; k > 0; k--) {
         r->ctx[k] = r->ctx[k - 1];
         r->counters[k] = r->counters[k - 1];
      }
      r->ctx[0] = sb->cache_ctx;
      r->counters[0] = sb->cache_counters;
   }
   if (!counters) counters = cp_counters(ctx, sb);
   sb->cache_ctx = ctx;
   sb->cache_counters = counters;
}

static void __attribute__((noinline)) sp_rise(ThreadStack* t, Addr sp)
{
   pop_below(t, sp);
   check_graft(current_tid, t);
   publish(t);
}

VG_REGPARM(1) void cp_on_sp_rise(Addr sp)
{
   ThreadStack* t = current;
   UInt d = t->depth;
   cp_stats.sp_rises++;
   /* The usual return: exactly the top frame dies (a signal frame may
    * survive, see pop_below), to a frame of the thread's region set whose
    * view is right: nothing to call, no register to save. */
   if (d >= 2 && t->frames[d - 1].sp < sp && t->frames[d - 2].sp >= sp
       && t->frames[d - 1].kind != FrameSignal && d - 1 >= t->graft_depth
       && !cp_context_view_stale(&t->frames[d - 2].view)) {
      t->depth = d - 1;
      show_frame(&t->frames[d - 2]);
      return;
   }
   sp_rise(t, sp);
}

/* Called at the start of a superblock that the current frame's function
 * does not own: another function's code runs in this frame (then its
 * counters come from the context's table), a function is entered other
 * than by a call, or a superblock lent counters before.  Leaves the
 * superblock's counters in cp_dense. */
VG_REGPARM(1) void cp_on_block_entry(SBInfo* sb)
{
   Addr sp = VG_(get_SP)(VG_(get_running_tid)());
   cp_stats.block_entries++;
   /* SP rises are caught at returns and computed jumps; a direct jump
    * after an SP change (hand-written code) is caught here. */
   if (sp > cp_top_sp) cp_on_sp_rise(sp);
   if (sb->is_fn_entry && sb->addr != cp_top_fn)
      enter_function_by_jump(sb, sp);
   if (!cp_collecting_in(cp_cur_ctx)) {
      cp_context_lend_scratch(sb);
   } else if (sb->owner == cp_context_owner(cp_cur_ctx)) {
      cp_context_cover(cp_cur_ctx, sb);
      publish(current);
   } else {
      cp_stats.foreign_blocks++;
      if (sb->cache_ctx != cp_cur_ctx) switch_counters(sb);
      cp_context_lend((UWord)sb->cache_counters - sb->local * sizeof(ULong));
   }
}

void cp_callstack_pre_signal(ThreadId tid, Int signo, Bool alt_stack)
{
   ThreadStack* t = thread_stack(tid);
   Addr ip = VG_(get_IP)(tid);
   Addr pseudo = CP_SIGNAL_PSEUDO(signo);
   Context* ctx = cp_context_enter(context_of_depth(t, t->depth), ip,
                                   pseudo, CtxSignal);
   Frame* f;
   push(t, VG_(get_SP)(tid), pseudo, ip, ctx, FrameSignal, NULL);
   f = top_frame(t);
   if (f && f->kind == FrameSignal && alt_stack) {
      f->alt_lo = VG_(thread_get_altstack_min)(tid);
      f->alt_hi = f->alt_lo + VG_(thread_get_altstack_size)(tid);
   }
   publish(t);
}

void cp_callstack_post_signal(ThreadId tid, Int signo)
{
   ThreadStack* t = thread_stack(tid);
   UInt i = t->depth;
   (void)signo;
   while (i > 0 && t->frames[i - 1].kind != FrameSignal) i--;
   if (i > 0) t->depth = i - 1;
   check_graft(tid, t);
   publish(t);
}

/* Where calls push nothing (arm64), called at a return or a computed jump
 * when SP is at or above the top frame's.  Frames SP rose above are dead;
 * if there were any (longjmp, an unwinder), control lands in the function
 * whose SP this is, and the calls it made at this SP are dead too.
 * Otherwise a jump to the return address of a frame at this SP returns
 * from it (and from the tail calls above it); a `ret` that matches none
 * ends the top frame if it is at this SP, as it would pop its slot on
 * x86 (a signal handler returning to the trampoline).  Jumps that match
 * nothing (PLT stubs, switch tables of frameless leaves) change nothing. */
VG_REGPARM(3) void cp_on_link_return(Addr target, Addr sp, UWord is_ret)
{
   ThreadStack* t = current;
   UInt d = t->depth, i;
   cp_stats.sp_rises++;
   pop_below(t, sp);
   if (t->depth < d) {
      pop_below(t, sp + 1);
   } else {
      for (i = d; i > 0 && t->frames[i - 1].sp == sp; i--) {
         const Frame* f = &t->frames[i - 1];
         if (f->kind != FrameSignal
             && f->callsite + CP_CALL_INSN_BYTES == target) {
            t->depth = i - 1;
            break;
         }
      }
      if (t->depth == d && is_ret && d > 0 && t->frames[d - 1].sp == sp
          && t->frames[d - 1].kind != FrameSignal)
         t->depth = d - 1;
   }
   check_graft(current_tid, t);
   if (t->depth != d) publish(t);
}

/* --- rebuilt stacks: instrumentation started, region opened or closed -- */

Context* cp_callstack_root(ThreadId tid)
{
   return thread_stack(tid)->root;
}

/* tid's shadow stack becomes the given frames, outermost first, under
 * root: what the unwinder sees when instrumentation starts. */
void cp_callstack_seed(ThreadId tid, Context* root, UInt n, const Addr* fns,
                       const Addr* callsites, const Addr* sps)
{
   ThreadStack* t = thread_stack(tid);
   UInt i;
   t->root = root;
   t->depth = 0;
   t->graft_depth = 0;
   for (i = 0; i < n; i++) {
      Context* ctx = cp_context_enter(context_of_depth(t, t->depth),
                                      callsites[i], fns[i], CtxCall);
      push(t, sps[i], fns[i], callsites[i], ctx,
           cp_is_trampoline(fns[i]) ? FrameTrampoline : FrameCall, NULL);
   }
   /* The root may be a graft's of a set the thread has left since. */
   if (graft_base) graft(tid, t);
   publish(t);
}

/* A frame that a chain of tail calls reached was entered from the context
 * of the function it replaced (tail_call_frame), not from the frame below:
 * the contexts from old_below, the frame below's in the old tree, down to
 * old_from are the chain's replaced functions, which stay active.  Entered
 * again from new_below, so the new tree keeps them.  A from_ctx that is
 * not under old_below (recursion folded the chain into an earlier
 * context) or a chain longer than the room here falls back to new_below. */
#define MAX_REPLACED 64
static Context* reenter_replaced(const Context* old_below,
                                 Context* old_from, Context* new_below)
{
   Context* replaced[MAX_REPLACED];
   Context* c = old_from;
   UInt n = 0;
   while (c != old_below) {
      if (c == NULL || n == MAX_REPLACED) return new_below;
      /* A graft the frame was entered from is no function of the chain. */
      if (!cp_context_is_graft(c)) replaced[n++] = c;
      c = cp_context_parent(c);
   }
   while (n > 0) {
      c = replaced[--n];
      new_below = cp_context_enter_edge(new_below, c->edge, CtxCall);
   }
   return new_below;
}

/* Frames from..depth-1 entered again above base, as they were above the
 * context below frame `from`: the contexts of a region set's tree. */
static void regraft(ThreadStack* t, UInt from, Context* base)
{
   const Context* old_below = context_of_depth(t, from);
   UInt i;
   if (from == 0) t->root = base;
   for (i = from; i < t->depth; i++) {
      Frame* f = &t->frames[i];
      const Context* old_ctx = f->ctx;
      f->from_ctx = reenter_replaced(old_below, f->from_ctx,
                                     i == from ? base
                                               : t->frames[i - 1].ctx);
      f->ctx = cp_context_enter(f->from_ctx, f->callsite, f->fn,
                                f->kind == FrameSignal ? CtxSignal : CtxCall);
      f->view.epoch = 0;
      old_below = old_ctx;
   }
   /* Popping frame `from` leaves code to run in the frame below it. */
   t->graft_depth = from ? from + 1 : 0;
}

/* Where a region set's tree is grafted: at the top frame, entered again
 * from a graft on the context below it (grafts hang from contexts the
 * thread's stack ran in, and a tree of the set's own would repeat them).
 * A frame that recursion folded into a context below it would fold into
 * that tree's repetition: the graft goes below the frames whose function
 * is active under them. */
static void graft(ThreadId tid, ThreadStack* t)
{
   UInt from = t->depth ? t->depth - 1 : 0;
   if (cp_opts.fold_recursion)
      while (from > 0
             && cp_context_active_in_chain(context_of_depth(t, from),
                                 cp_context_fn_id(t->frames[from].ctx)))
         from--;
   regraft(t, from, graft_base(tid, context_of_depth(t, from)));
   publish(t);
}

void cp_callstack_set_grafter(Context* (*base_of)(ThreadId tid,
                                                  Context* below))
{
   graft_base = base_of;
}

void cp_callstack_graft(ThreadId tid)
{
   graft(tid, thread_stack(tid));
}
