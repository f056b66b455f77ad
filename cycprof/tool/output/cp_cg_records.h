/* cycprof: the records of the callgrind-format file, gathered from the
 * calling-context tree: self cost per position and call lines. */
#ifndef CP_CG_RECORDS_H
#define CP_CG_RECORDS_H

#include "pub_tool_basics.h"
#include "cp_costs.h"
#include "cp_srcpos.h"

typedef struct {
   SrcPos at;       /* the function block and line this record belongs to */
   Addr   addr;
   Bool   is_call;
   SrcPos callee;   /* calls only */
   Addr   callee_addr;
   ULong  calls;
   ULong  cost;     /* self cost, or inclusive cost of the call */
   ULong  zk;       /* --zk-model: zkVM cycles of the same (kept: cost
                     * when 0) */
} Record;

typedef struct {
   Record* items;
   UInt    used, capacity;
   UInt*   index;        /* while gathering: place -> 1 + item */
   UInt    index_size;
} RecordList;

/* Fills l, sorted by (object, file, function, calls after self costs,
 * position, callee), each place once.  inclusive[id] is each context's
 * inclusive cost (overwritten: it ends as the cost of the call line into
 * each context), runs the superblocks' counters summed; names receives
 * every name used. */
void cp_cg_collect(StrTab* names, ULong* inclusive,
                   const SuperblockRuns* runs, RecordList* l);
void cp_cg_records_free(RecordList* l);

#endif
