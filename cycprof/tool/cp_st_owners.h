/* cycprof: owners whose code is all of one function, for the stacks dump.
 *
 * Before writing nodes the dump asks of every context whether it ran code
 * of another function than its frame's (then its frame gets a node of its
 * own) and whether it has any cost.  Answering from its counters means
 * reading the record of every superblock it ran: a compiler's 4 M
 * contexts run 30 M of those, scattered over 24 MB.  But most contexts
 * count only in their owner's counters (cp_owners.h), and most owners'
 * superblocks are all of the frame's function, with symbols: then the
 * answers are "no" and "whether any counter is nonzero". */
#ifndef CP_ST_OWNERS_H
#define CP_ST_OWNERS_H

#include "pub_tool_basics.h"
#include "cp_st_naming.h"

typedef struct {
   UInt*  fn;      /* [owner id]: the frame function its state is for */
   UChar* state;   /* [owner id]: 0 not known yet, else one of below */
} OwnerPurity;

void cp_st_purity_init(OwnerPurity* p);
void cp_st_purity_free(OwnerPurity* p);

/* Whether every superblock of the owner that ever ran is of function
 * frame_fn (sb_fn[id], the base function of a superblock's code, as
 * cp_write_stacks.c finds it) and has symbols: then a context of that
 * owner and frame function without a cost-center table runs no code of
 * another function and none without a symbol. */
Bool cp_st_owner_pure(OwnerPurity* p, const SuperblockLocations* sl,
                      const UInt* sb_fn, UInt owner, UInt frame_fn);

#endif
