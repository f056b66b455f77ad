/* cycprof: turning exit counters into costs per instruction address. */
#ifndef CP_COSTS_H
#define CP_COSTS_H

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

/* Self costs of ctx per instruction address, sorted by address, each
 * address once, zero counts left out.  Reuses list's storage. */
void  cp_context_self_costs(const Context* ctx, AddrCostList* list);
ULong cp_context_self_total(const Context* ctx);
void  cp_addrcostlist_free(AddrCostList* list);
/* VEX translates at most 100 guest instructions per superblock. */
#define CP_MAX_SB_INSTRS 128

/* per_instr[i]: how often instruction i of sb ran, from its exit counters. */
void  cp_instr_counts(const SBInfo* sb, const ULong* counts,
                      ULong* per_instr);
/* Appends the per-instruction costs that one superblock's exit counters
 * stand for (zero counts left out). */
void  cp_expand_counts(const SBInfo* sb, const ULong* counts,
                       AddrCostList* list);
/* Instructions those counters stand for. */
ULong cp_counts_total(const SBInfo* sb, const ULong* counts);

#endif
