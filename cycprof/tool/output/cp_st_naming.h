/* cycprof: the stacks dump's locations of executed code, per superblock
 * slot, and the naming of code without a symbol per context (as the
 * callgrind file names it, cp_cg_naming.h).
 *
 * The dump names every executed instruction of every context twice (to
 * create the locations, then to write the samples): what does not depend
 * on the context is worked out here once per superblock, and what does
 * once per (context, superblock), so that the per-instruction work is an
 * array read. */
#ifndef CP_ST_NAMING_H
#define CP_ST_NAMING_H

#include "pub_tool_basics.h"
#include "cp_context.h"
#include "cp_costs.h"
#include "cp_locations.h"
#include "cp_types.h"
#include "cp_unnamed.h"

/* What a superblock's code is, whatever the context. */
typedef struct {
   UWord obj;           /* object of its unnamed code, when single */
   UInt  n_ran;         /* its first n_ran instructions ever ran */
   UInt  first_unnamed; /* its first unnamed instruction; n_ran if none */
   /* Its unnamed code lies in one object and starts at its lowest
    * address, so per context the lowest unnamed address that ran is
    * instr_addr[first_unnamed] when that ran. */
   Bool  simple;
} SuperblockFacts;

/* The location id of every instruction that ran, per superblock:
 * loc[first[sb id] + i], 0 where instruction i never ran.  Locating per
 * superblock rather than per (context, address) looks each address up
 * once.  named[slot] caches the location of an unnamed slot under the
 * name index named_as[slot] (0: none yet). */
typedef struct {
   UInt*            first;     /* [n_sbs + 1] */
   UInt*            loc;
   UInt*            named;
   UInt*            named_as;
   /* [sb id]: the name index all of a simple superblock's unnamed slots
    * below n_ran are named under (0: not known to be one). */
   UInt*            all_named_as;
   SuperblockFacts* facts;     /* [n_sbs] */
   /* [interned function id]: 1 + index in frame, 0 not known yet */
   UInt*            frame_of_fn;
   UInt             n_fn_ids;
   /* [interned call site id]: its address's own location, 0 not known */
   UInt*            site_location;
   UInt             n_site_ids;
   struct FrameFacts* frame;
   UInt             n_frames, frames_capacity;
} SuperblockLocations;

/* runs: the superblocks' counters summed over all contexts. */
void cp_st_locate(LocationSet* s, SuperblockLocations* sl,
                  const SuperblockRuns* runs);
void cp_st_free(SuperblockLocations* sl);

/* Objects by name, as the callgrind file's names tell them apart (the
 * process's mappings list leaves some out, e.g. the preloads): a hash of
 * the name, 0 for none. */
UWord cp_st_debug_object(Addr a);

/* The function of c's frame, once per function: the location of its
 * entry (named like its code), the entry's own location, and whether that
 * has no symbol, with its object.  The first call for a function creates
 * its locations in the order the dump has always created them. */
typedef struct FrameFacts {
   UInt  entry;      /* the frame's location: its entry, named */
   UInt  base;       /* the entry address's own location */
   Bool  unnamed;
   UWord obj;
} FrameFacts;
FrameFacts cp_st_frame(LocationSet* s, SuperblockLocations* sl,
                       const Context* c);

/* The own location of the call site c was entered from (cp_locset_id of
 * its address), once per call site. */
UInt cp_st_callsite_base(LocationSet* s, SuperblockLocations* sl,
                         const Context* c);

/* c's cost centers (when r is not NULL) and its unnamed bases in one walk
 * of its counters.  Code without a symbol is named after the entry of its
 * frame when that has no symbol either and lies in the same object, else
 * after the lowest such address of its object that ran in the context. */
void cp_st_gather(const LocationSet* s, const SuperblockLocations* sl,
                  const Context* c, RanBlocks* r, UnnamedBases* b);

/* The location of code at a run in context c, unnamed code named (after
 * a itself when b is NULL); base is a's own location (cp_locset_id). */
UInt cp_st_code_location(LocationSet* s, SuperblockLocations* sl,
                         const Context* c, Addr a, UInt base,
                         const UnnamedBases* b);

/* locs[i] = cp_st_code_location(instruction i of sb) for i < n, in that
 * order. */
void cp_st_name_superblock(LocationSet* s, SuperblockLocations* sl,
                           const Context* c, const UnnamedBases* b,
                           const SBInfo* sb, UInt n, UInt* locs);
/* Creates the locations cp_st_name_superblock would give every
 * instruction of sb that ran anywhere, in context c; in the same order,
 * so the location ids are the same.  A superblock named once under a
 * name needs no second pass under the same name. */
void cp_st_name_ran_code(LocationSet* s, SuperblockLocations* sl,
                         const Context* c, const UnnamedBases* b,
                         const SBInfo* sb);

#endif
