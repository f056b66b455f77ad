/* cycprof: turning exit counters into costs per instruction address. */
#ifndef CP_COSTS_H
#define CP_COSTS_H

#include "cp_sbinfo.h"   /* CP_MAX_SB_INSTRS */
#include "cp_types.h"

typedef struct {
   Addr  addr;
   ULong count;
} AddrCost;

typedef struct {
   AddrCost* items;
   UInt      used;
   UInt      capacity;
} AddrCostList;

/* Sorts list by addr and sums the counts of equal addrs. */
void  cp_sort_and_merge(AddrCostList* list);
ULong cp_context_self_total(const Context* ctx);
void  cp_addrcostlist_append(AddrCostList* list, Addr addr, ULong count);
void  cp_addrcostlist_free(AddrCostList* list);

/* per_instr[i]: how often instruction i of sb ran, from its exit counters. */
void  cp_instr_counts(const SBInfo* sb, const ULong* counts,
                      ULong* per_instr);
/* Every superblock's exit counters summed over all contexts: those of
 * superblock id k are runs[first[k]], ..., runs[first[k + 1] - 1]. */
typedef struct {
   UInt*  first;   /* [n_sbs + 1] */
   ULong* runs;
} SuperblockRuns;
/* Also self[id] = cp_context_self_total(context id) unless self is NULL:
 * at exit the counters are walked once for both (a walk of every
 * context's counters takes a second on a compiler). */
void  cp_superblock_runs(SuperblockRuns* r, ULong* self);
void  cp_superblock_runs_free(SuperblockRuns* r);
/* Walks over every context wait on memory at each one: its record, its
 * counters, its cost-center table lie far apart and far from the last
 * context's.  A walk asks for the record of the context it will reach in
 * 2 * CP_PREFETCH_AHEAD steps and for the counters of the one it will
 * reach in CP_PREFETCH_AHEAD (whose record has arrived by then), so that
 * the waits overlap.  Any id from 1 to cp_context_count(). */
#define CP_PREFETCH_AHEAD 8
void  cp_prefetch_context(UInt id);
void  cp_prefetch_counters(UInt id);
/* Both, for a walk in id order that has reached id (of n). */
void  cp_prefetch_ahead(UInt id, UInt n);
/* Instructions those counters stand for. */
ULong cp_counts_total(const SBInfo* sb, const ULong* counts);
/* How many of sb's instructions ran: instruction i ran once per departure
 * through an exit past it, so they are a prefix, up to the furthest exit
 * taken (exit groups are in increasing order). */
UInt  cp_ran_prefix(const SBInfo* sb, const ULong* counts);

#endif
