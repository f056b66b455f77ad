/* cycprof: the shadow call stack of each thread. */
#ifndef CP_CALLSTACK_H
#define CP_CALLSTACK_H

#include "cp_types.h"

void cp_callstack_init(void);
void cp_callstack_switch_thread(ThreadId tid, ULong blocks_done);
void cp_callstack_thread_created(ThreadId parent, ThreadId child);
void cp_callstack_pre_signal(ThreadId tid, Int signo, Bool alt_stack);
void cp_callstack_post_signal(ThreadId tid, Int signo);
UInt cp_callstack_max_depth(void);
Context* cp_callstack_root(ThreadId tid);
void cp_callstack_seed(ThreadId tid, Context* root, UInt n, const Addr* fns,
                       const Addr* callsites, const Addr* sps);
/* Region sets (cp_regions.c): base_of(tid, below) is the context the
 * frames above `below` run in, for the set thread tid runs in now: below
 * itself, or a graft on it (cp_context_graft).  cp_callstack_graft enters
 * tid's top frames again from there: at a BEGIN or END, and by itself when
 * the frame it did so at returns with the set still open. */
void cp_callstack_set_grafter(Context* (*base_of)(ThreadId tid,
                                                  Context* below));
void cp_callstack_graft(ThreadId tid);
/* Marks recently_used every context a live frame or a thread's root is
 * in. */
void cp_callstack_mark_live_contexts(void);

/* Helpers called from instrumented code, see cp_instrument.c. */
VG_REGPARM(3) void cp_on_call(CallSiteCache* site, Addr target, Addr sp);
VG_REGPARM(1) void cp_on_sp_rise(Addr sp);
/* Runs before any statement of the superblock: the guest state in
 * memory is whole there, and it reads SP from it rather than taking it
 * as an argument, which every superblock would compute. */
VG_REGPARM(1) void cp_on_block_entry(SBInfo* sb);
VG_REGPARM(3) void cp_on_link_return(Addr target, Addr sp, UWord is_ret);

#endif
