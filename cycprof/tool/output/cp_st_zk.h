/* cycprof: the zkVM model's costs in the stacks dump (--zk-model,
 * docs/internals/stacks-format.md, "zkVM cycles").  Each context's
 * page-ins, page-outs and segment overhead become `zk` records at a
 * [PageIn], [PageOut] or [Segment] location under the context's own
 * function, as the callgrind file has them as frames called from it
 * (cp_cg_records.c).  Their functions and locations follow the dump's
 * own, with ids after them. */
#ifndef CP_ST_ZK_H
#define CP_ST_ZK_H

#include "pub_tool_basics.h"
#include "cp_keymap.h"
#include "cp_locations.h"
#include "cp_outfile.h"
#include "cp_st_naming.h"

#define CP_ST_ZK_KINDS 3   /* [PageIn], [PageOut], [Segment] */

typedef struct {
   UInt kind, entry, fn;   /* entry: the caller's entry location, 0: root */
} StZkLoc;

typedef struct {
   UInt kind, caller_fn;   /* caller_fn: 0 for a thread's root */
} StZkFn;

typedef struct {
   UInt node, loc, tid;
   ULong cost;
} StZkRecord;

typedef struct {
   Bool        on;          /* a model is chosen */
   KeyMap      loc_ids;     /* (kind, entry) -> index + 1 in locs */
   KeyMap      fn_ids;      /* (kind, caller fn) -> index + 1 in fns */
   StZkLoc*    locs;
   UInt        n_locs, locs_capacity;
   StZkFn*     fns;
   UInt        n_fns, fns_capacity;
   UInt        first_fn_id, first_loc_id;   /* ids of fns[0], locs[0] */
   UInt*       node;        /* [context id]: node of its zk frames */
   ULong       total;       /* instructions + every model cost */
   StZkRecord* scratch;     /* one node's records, merged */
   UInt        n_scratch, scratch_capacity;
} StZk;

/* After the locations are known (every frame entry has one): the zk
 * functions and locations the dump needs.  Does nothing without a model. */
void cp_st_zk_plan(StZk* z, LocationSet* s, SuperblockLocations* sl,
                   ULong total);
/* The header's `zkvm` line; nothing without a model. */
void cp_st_zk_write_header(OutFile* out, const StZk* z);
/* The `fn` records (after the dump's own) and the `loc` records. */
void cp_st_zk_write_functions(OutFile* out, const StZk* z,
                              const LocationSet* s);
void cp_st_zk_write_locations(OutFile* out, const StZk* z,
                              const LocationSet* s);
/* The entry location of c's function under which its zk frames hang, 0
 * for a root or when it has no model cost. */
UInt cp_st_zk_entry(const StZk* z, LocationSet* s, SuperblockLocations* sl,
                    const Context* c);
/* Adds the costs of c, of that id, at node z->node[id], to the node's
 * records; tid is its thread. */
void cp_st_zk_add(StZk* z, LocationSet* s, SuperblockLocations* sl,
                  const Context* c, UInt id, UInt tid);
/* Writes and forgets them; returns how many. */
UInt cp_st_zk_write_records(OutFile* out, StZk* z);
void cp_st_zk_free(StZk* z);

#endif
