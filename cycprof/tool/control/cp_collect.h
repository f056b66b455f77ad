/* cycprof: what is counted and when: collection (--collect-atstart,
 * --toggle-collect, TOGGLE_COLLECT), instrumentation (--instr-atstart,
 * START/STOP_INSTRUMENTATION) and the running count read by COUNT and
 * the regions.  See docs/regions.md. */
#ifndef CP_COLLECT_H
#define CP_COLLECT_H

#include "pub_tool_basics.h"
#include "cp_collect_state.h"
#include "cp_types.h"

/* Sets what a new context inherits: toggle parity (cp_context_init's
 * new-context step). */
void  cp_collect_new_context(Context* c);
Bool  cp_collect_option(const HChar* arg);
/* Callgrind counts the superblock that ends in a request in the state
 * the request leaves (it accounts a block when the next one starts):
 * moves that block's run in or out of the counts (+1 or -1) to match. */
void  cp_request_sb_recount(Int delta);

void  cp_collect_toggle(void);
void  cp_instr_set(ThreadId tid, Bool on, const HChar* why);
void  cp_collect_thread_switch(ThreadId tid, ULong blocks_done);

/* The running count, turned on when first needed (it discards all
 * translations once: only while a client request is handled); per
 * thread, by the thread's serial number.  While it is off, the thread's
 * count is summed from the counters (slow, but exact). */
void  cp_running_need(void);
ULong cp_running_total(void);
/* n instructions of serial's thread that were a cycprof request's own. */
void  cp_running_exclude(UInt serial, ULong n);
ULong cp_running_thread(UInt serial);
/* A count of serial's thread kept for its next request (cycprof.h's mark
 * request); taking it forgets it.  False: none kept. */
void  cp_running_set_mark(UInt serial, ULong count);
Bool  cp_running_take_mark(UInt serial, ULong* count);

#endif
