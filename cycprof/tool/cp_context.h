/* cycprof: the calling-context tree and its cost centers. */
#ifndef CP_CONTEXT_H
#define CP_CONTEXT_H

#include "cp_types.h"

void        cp_context_init(void);
Context*    cp_context_root(UInt tid);
/* The context a frame of fn enters when it leaves parent at callsite.
 * With --fold-recursion=yes a call to a function already active in the
 * parent's chain (up to the nearest signal frame) returns that earlier
 * context, so recursion never grows the tree. */
Context*    cp_context_enter(Context* parent, Addr callsite, Addr fn,
                             CtxKind kind);
/* The counters of sb in ctx, created zeroed on first use. */
ULong*      cp_counters(Context* ctx, SBInfo* sb);
/* Walks ctx's cost centers:
 *    for (pos = 0; cp_next_cost_center(ctx, &pos, &sb, &counts); ) ...  */
Bool        cp_next_cost_center(const Context* ctx, UInt* pos,
                                const SBInfo** sb, const ULong** counts);

UInt        cp_context_count(void);
Context*    cp_context_by_id(UInt id);   /* ids run from 1 to count */

#endif
