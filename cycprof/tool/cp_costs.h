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

#endif
