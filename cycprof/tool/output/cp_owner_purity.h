/* cycprof: owners whose code is all of one function, for the writers.
 *
 * At exit both writers ask of every context what code it ran: the
 * stacks dump whether it ran code of another function than its frame's
 * (then its frame gets a node of its own) and whether it has any cost;
 * the callgrind file what cost goes to other functions' blocks.
 * Answering from its counters means reading the record of every
 * superblock it ran: a compiler's 4 M contexts run 30 M of those,
 * scattered over 24 MB.  But most contexts count only in their owner's
 * counters (cp_owners.h), and most owners' superblocks are all of the
 * frame's function, with symbols: then nothing else ran there, which is
 * known once per owner. */
#ifndef CP_OWNER_PURITY_H
#define CP_OWNER_PURITY_H

#include "pub_tool_basics.h"

/* Whether superblock sb_id, as the writer at hand names its code, is all
 * of function frame_fn (a key of the writer's), with symbols; or never
 * ran (then it counts nowhere). */
typedef Bool (*SuperblockOfFunction)(UInt sb_id, ULong frame_fn,
                                     const void* opaque);

typedef struct {
   ULong*               fn;     /* [owner id]: the frame function asked */
   UChar*               state;  /* [owner id]: 0 not known yet, or below */
   SuperblockOfFunction of;
   const void*          opaque;
} OwnerPurity;

void cp_purity_init(OwnerPurity* p, SuperblockOfFunction of,
                    const void* opaque);
void cp_purity_free(OwnerPurity* p);

/* Whether every superblock of the owner is of frame_fn (p's predicate):
 * then a context of that owner and frame function without a cost-center
 * table runs no code of another function and none without a symbol. */
Bool cp_owner_pure(OwnerPurity* p, UInt owner, ULong frame_fn);

#endif
