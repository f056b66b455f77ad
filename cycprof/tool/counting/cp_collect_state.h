/* cycprof: the state of collection that the hot path reads: whether
 * superblocks are instrumented, whether they count, and the running
 * count.  Its variables are read inline (cp_context_publish, the
 * instrumented code); only cp_collect.c, which decides when they change,
 * writes them (cp_collect.h, docs/regions.md). */
#ifndef CP_COLLECT_STATE_H
#define CP_COLLECT_STATE_H

#include "pub_tool_basics.h"
#include "cp_types.h"

/* Instrumentation on: superblocks are translated with counting code. */
extern Bool  cp_instr_on;
/* Collection on, before --toggle-collect functions on the stack flip it. */
extern UChar cp_collect_base;
/* Running count: when on (after the first COUNT or region request), the
 * instrumented code also adds each exit's instructions to the word at
 * cp_dense.running: cp_running while collecting, a scratch word while
 * not. */
extern Bool   cp_running_on;
extern ULong  cp_running;

/* Owner value published while collection is off: no superblock has it,
 * so every superblock calls the block-entry helper, which lends it
 * scratch counters. */
#define CP_OWNER_NOT_COLLECTING 0xFFFFFFFFu

static inline Bool cp_collecting_in(const Context* ctx)
{
   return (cp_collect_base ^ ctx->toggled) != 0;
}

/* The superblock that ended in the client request being handled. */
extern SBInfo* cp_request_sb;

#endif
