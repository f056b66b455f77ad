/* cycprof: collection, instrumentation and the running count.
 *
 * Collection off costs nothing while it is on: the published owner is
 * one no superblock has, so every superblock calls the block-entry
 * helper, which keeps the shadow stack and hands it scratch counters.
 * Instrumentation off translates superblocks unchanged (--tool=none
 * speed); turning it on discards all translations and seeds the shadow
 * stack from Valgrind's unwinder, so stacks still root at _start. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_seqmatch.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_transtab.h"
#include "pub_tool_xarray.h"
#include "cp_arch.h"
#include "cp_callstack.h"
#include "cp_collect.h"
#include "cp_context.h"
#include "cp_costs.h"
#include "cp_functions.h"
#include "cp_heap.h"

static Bool   instr_atstart = True;
static XArray* toggle_patterns;   /* const HChar*, --toggle-collect */

Bool cp_collect_option(const HChar* arg)
{
   const HChar* pattern;
   Bool atstart;
   if VG_BOOL_CLO(arg, "--collect-atstart", atstart) {
      cp_collect_base = atstart ? 1 : 0;
   } else if VG_BOOL_CLO(arg, "--instr-atstart", instr_atstart) {
      cp_instr_on = instr_atstart;
   } else if VG_STR_CLO(arg, "--toggle-collect", pattern) {
      /* As callgrind: collection then starts off, unless a later
       * --collect-atstart says otherwise. */
      cp_collect_base = 0;
      if (!toggle_patterns)
         toggle_patterns = VG_(newXA)(cp_heap_malloc, "cp.collect.pat",
                                      cp_heap_free, sizeof(HChar*));
      VG_(addToXA)(toggle_patterns, &pattern);
   } else {
      return False;
   }
   return True;
}

static Bool toggles_collection(Addr fn)
{
   const HChar* name;
   Word i;
   if (!toggle_patterns || CP_IS_PSEUDO(fn)) return False;
   if (!VG_(get_fnname)(VG_(current_DiEpoch)(), fn, &name)) return False;
   for (i = 0; i < VG_(sizeXA)(toggle_patterns); i++)
      if (VG_(string_match)(*(HChar**)VG_(indexXA)(toggle_patterns, i),
                            name))
         return True;
   return False;
}

void cp_collect_new_context(Context* c)
{
   const Context* parent = cp_context_parent(c);
   /* A root's region set is its maker's to set (cp_regions.c). */
   if (!parent) {
      c->toggled = 0;
   } else {
      c->toggled = parent->toggled
                   ^ (c->kind == CtxCall
                      && toggles_collection(cp_context_fn(c)));
   }
}

static void republish(void)
{
   cp_context_publish(cp_cur_ctx);
}

void cp_request_sb_recount(Int delta)
{
   SBInfo* sb = cp_request_sb;
   Context* ctx = cp_cur_ctx;
   ULong* counts;
   if (!sb || !cp_instr_on || !cp_collecting_in(ctx)) return;
   if (sb->owner == cp_context_owner(ctx)) {
      cp_context_cover(ctx, sb);
      cp_context_publish(ctx);   /* packing may have moved its counters */
      counts = cp_context_dense(ctx) + sb->local;
   } else {
      counts = cp_counters(ctx, sb);
   }
   counts[sb->n_exits - 1] += delta;
   if (cp_running_on) cp_running += delta * (Long)sb->n_instrs;
}

static void collect_set(Bool on)
{
   cp_collect_base = on ? 1 : 0;
   cp_dense_views_stale();
   republish();
}

void cp_collect_toggle(void)
{
   collect_set(!cp_collect_base);
}

static void seed_from_unwinder(ThreadId tid);

/* --- the running count ------------------------------------------------ */

/* Per thread serial number: banked at thread switches, and the
 * instructions of cycprof's own requests, which the counts leave out. */
static ULong* thread_running;
static ULong* thread_excluded;
static ULong* thread_mark;   /* the count of the thread's mark + 1; 0: none */
static UInt   thread_running_len;
static ULong  excluded;
static ULong  banked_at;           /* cp_running when last banked */
static UInt   banked_serial;       /* the thread that ran since */

static ULong* thread_slot(UInt serial)
{
   if (serial >= thread_running_len) {
      UInt old = thread_running_len, len = serial + 16;
      thread_running = cp_heap_realloc("cp.collect.threads", thread_running,
                                    len * sizeof(ULong));
      thread_excluded = cp_heap_realloc("cp.collect.excl", thread_excluded,
                                     len * sizeof(ULong));
      thread_mark = cp_heap_realloc("cp.collect.mark", thread_mark,
                                 len * sizeof(ULong));
      VG_(memset)(thread_running + old, 0, (len - old) * sizeof(ULong));
      VG_(memset)(thread_excluded + old, 0, (len - old) * sizeof(ULong));
      VG_(memset)(thread_mark + old, 0, (len - old) * sizeof(ULong));
      thread_running_len = len;
   }
   return &thread_running[serial];
}

static void bank(void)
{
   *thread_slot(banked_serial) += cp_running - banked_at;
   banked_at = cp_running;
   banked_serial = cp_context_tid(cp_cur_ctx);
}

/* Threads other than the one that started instrumentation get their
 * shadow stacks from the unwinder when they next run. */
static Bool* needs_seed;   /* [VG_N_THREADS] */

void cp_collect_thread_switch(ThreadId tid, ULong blocks_done)
{
   if (cp_running_on) bank();
   cp_callstack_switch_thread(tid, blocks_done);
   if (needs_seed && needs_seed[tid] && cp_instr_on) {
      needs_seed[tid] = False;
      seed_from_unwinder(tid);
   }
   if (cp_running_on) banked_serial = cp_context_tid(cp_cur_ctx);
}

/* From here on the translations count; what ran before is summed once
 * from the counters (they are zeroed by dumps, so the sums are what was
 * collected since the last one: the running count goes on from there). */
void cp_running_need(void)
{
   UInt id, n = cp_context_count(), *tree;
   if (cp_running_on) return;
   tree = cp_context_trees_by_id();
   for (id = 1; id <= n; id++) {
      ULong self = cp_context_self_total(cp_context_by_id(id));
      *thread_slot(cp_context_trees[tree[id]].tid) += self;
      cp_running += self;
   }
   cp_heap_free(tree);
   banked_at = cp_running;
   banked_serial = cp_context_tid(cp_cur_ctx);
   cp_running_on = True;
   VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "cycprof");
   republish();
}

void cp_running_exclude(UInt serial, ULong n)
{
   thread_slot(serial);
   thread_excluded[serial] += n;
   excluded += n;
}

void cp_running_set_mark(UInt serial, ULong count)
{
   thread_slot(serial);
   thread_mark[serial] = count + 1;
}

Bool cp_running_take_mark(UInt serial, ULong* count)
{
   thread_slot(serial);
   if (!thread_mark[serial]) return False;
   *count = thread_mark[serial] - 1;
   thread_mark[serial] = 0;
   return True;
}

ULong cp_running_total(void)
{
   return cp_running - excluded;
}

ULong cp_running_thread(UInt serial)
{
   UInt id, n, *tree;
   ULong sum = 0;
   if (cp_running_on) {
      bank();
      return *thread_slot(serial) - thread_excluded[serial];
   }
   /* Not on (a region opened by an SP1 marker: translations cannot be
    * discarded inside a system call): the same number from the counters. */
   n = cp_context_count();
   tree = cp_context_trees_by_id();
   for (id = 1; id <= n; id++)
      if (cp_context_trees[tree[id]].tid == serial)
         sum += cp_context_self_total(cp_context_by_id(id));
   cp_heap_free(tree);
   return sum;
}

/* --- instrumentation on and off ----------------------------------------- */

#define MAX_SEED_FRAMES 256

/* The running thread's shadow stack from the real one, outermost first. */
static void seed_from_unwinder(ThreadId tid)
{
   Addr ips[MAX_SEED_FRAMES], sps[MAX_SEED_FRAMES], fps[MAX_SEED_FRAMES];
   Addr fns[MAX_SEED_FRAMES], sites[MAX_SEED_FRAMES], slots[MAX_SEED_FRAMES];
   UInt n = VG_(get_StackTrace)(tid, ips, MAX_SEED_FRAMES, sps, fps, 0);
   UInt i, k;
   /* The unwinder may go on past _start into words that are no code
    * addresses: the stack ends at the first frame outside executable
    * client memory. */
   for (k = 0; k < n; k++) {
      NSegment const* seg = VG_(am_find_nsegment)(ips[k]);
      if (ips[k] < CP_PSEUDO_LIMIT || !seg || !seg->hasX
          || (seg->kind != SkFileC && seg->kind != SkAnonC))
         break;
   }
   n = k;
   for (i = 0; i < n; i++) {
      k = n - 1 - i;        /* frame k of the unwinder, outermost first */
      fns[i] = cp_function_of(ips[k]);
      /* ips[k + 1] is in the call instruction (the unwinder steps back
       * one byte from the return address); the frame's return slot lies
       * just below the caller's SP.  Where calls push nothing (arm64),
       * the frame starts at the caller's SP and a return is matched by
       * its call instruction's exact address (cp_on_link_return). */
      if (CP_CALL_PUSHES_RETURN) {
         sites[i] = k + 1 < n ? ips[k + 1] : 0;
         slots[i] = k + 1 < n ? sps[k + 1] - sizeof(Addr) : ~(Addr)1;
      } else {
         sites[i] = k + 1 < n ? ips[k + 1] + 1 - CP_CALL_INSN_BYTES : 0;
         slots[i] = k + 1 < n ? sps[k + 1] : ~(Addr)1;
      }
   }
   cp_callstack_seed(tid, cp_callstack_root(tid), n, fns, sites, slots);
}

void cp_instr_set(ThreadId tid, Bool on, const HChar* why)
{
   UInt i;
   if (cp_instr_on == on) return;
   cp_instr_on = on;
   if (VG_(clo_verbosity) > 1)
      VG_(umsg)("cycprof: instrumentation %s (%s)\n", on ? "on" : "off", why);
   VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "cycprof");
   if (!on) return;
   if (!needs_seed)
      needs_seed = cp_heap_calloc("cp.collect.seed", VG_N_THREADS, sizeof(Bool));
   for (i = 0; i < VG_N_THREADS; i++) needs_seed[i] = i != tid;
   seed_from_unwinder(tid);
}
