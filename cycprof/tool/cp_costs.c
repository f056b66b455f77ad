/* cycprof: turning exit counters into costs per instruction address.
 *
 * Leaving a superblock by exit j means its first exit_ninstrs[j]
 * instructions ran, so instruction i ran once for every departure through
 * an exit with exit_ninstrs > i. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_costs.h"

static void append(AddrCostList* list, Addr addr, ULong count)
{
   if (list->used == list->capacity) {
      list->capacity = list->capacity ? 2 * list->capacity : 256;
      list->items = VG_(realloc)("cp.costs", list->items,
                                 list->capacity * sizeof(AddrCost));
   }
   list->items[list->used].addr = addr;
   list->items[list->used].count = count;
   list->used++;
}

static Int by_addr(const void* a, const void* b)
{
   Addr x = ((const AddrCost*)a)->addr, y = ((const AddrCost*)b)->addr;
   return x < y ? -1 : x > y ? 1 : 0;
}

static void add_cost_center(const CostCenter* cc, AddrCostList* list)
{
   const SBInfo* sb = cc->sb;
   ULong ran = 0;
   Int i;
   UInt j = sb->n_exits;
   /* Walk instructions backwards, adding the departures that cover them. */
   for (i = (Int)sb->n_instrs - 1; i >= 0; i--) {
      while (j > 0 && sb->exit_ninstrs[j - 1] > (UInt)i) {
         ran += cc->counts[j - 1];
         j--;
      }
      if (ran) append(list, sb->instr_addr[i], ran);
   }
}

void cp_context_self_costs(const Context* ctx, AddrCostList* list)
{
   const CostCenter* cc;
   UInt i, o = 0;
   list->used = 0;
   for (cc = ctx->ccs; cc; cc = cc->ctx_next) add_cost_center(cc, list);
   if (list->used == 0) return;
   VG_(ssort)(list->items, list->used, sizeof(AddrCost), by_addr);
   for (i = 1; i < list->used; i++) {
      if (list->items[i].addr == list->items[o].addr)
         list->items[o].count += list->items[i].count;
      else
         list->items[++o] = list->items[i];
   }
   list->used = o + 1;
}

ULong cp_context_self_total(const Context* ctx)
{
   const CostCenter* cc;
   ULong total = 0;
   UInt j;
   for (cc = ctx->ccs; cc; cc = cc->ctx_next)
      for (j = 0; j < cc->sb->n_exits; j++)
         total += cc->counts[j] * cc->sb->exit_ninstrs[j];
   return total;
}

void cp_addrcostlist_free(AddrCostList* list)
{
   VG_(free)(list->items);
   list->items = NULL;
   list->used = list->capacity = 0;
}
