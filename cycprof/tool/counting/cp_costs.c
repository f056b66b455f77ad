/* cycprof: turning exit counters into costs per instruction address.
 *
 * Leaving a superblock by exit j means its first exit_ninstrs[j]
 * instructions ran, so instruction i ran once for every departure through
 * an exit with exit_ninstrs > i. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_array.h"
#include "cp_cold.h"
#include "cp_context.h"
#include "cp_costs.h"
#include "cp_heap.h"
#include "cp_owners.h"
#include "cp_packed.h"
#include "cp_sbinfo.h"

void cp_addrcostlist_append(AddrCostList* list, Addr addr, ULong count)
{
   list->items = cp_room_for_one("cp.costs", list->items, list->used,
                                 &list->capacity, sizeof(AddrCost), 256);
   list->items[list->used].addr = addr;
   list->items[list->used].count = count;
   list->used++;
}

/* A typed sort: the generic VG_(ssort) (byte swaps, a call per compare)
 * was the largest cost of writing the profiles.  Insertion sort for the
 * short lists most contexts have, quicksort above. */
static void insertion_sort(AddrCost* a, UInt n)
{
   UInt i, j;
   for (i = 1; i < n; i++) {
      AddrCost x = a[i];
      for (j = i; j > 0 && a[j - 1].addr > x.addr; j--) a[j] = a[j - 1];
      a[j] = x;
   }
}

static void sort_by_addr(AddrCost* a, UInt n)
{
   while (n > 24) {
      Addr pivot = a[n / 2].addr;
      UInt i = 0, j = n - 1;
      AddrCost t;
      /* Hoare partition: a[0..j] <= pivot <= a[j+1..n-1]. */
      for (;;) {
         while (a[i].addr < pivot) i++;
         while (a[j].addr > pivot) j--;
         if (i >= j) break;
         t = a[i]; a[i] = a[j]; a[j] = t;
         i++; j--;
      }
      /* Recurse into the smaller part, loop on the larger one. */
      if (j + 1 < n - j - 1) {
         sort_by_addr(a, j + 1);
         a += j + 1;
         n -= j + 1;
      } else {
         sort_by_addr(a + j + 1, n - j - 1);
         n = j + 1;
      }
   }
   insertion_sort(a, n);
}

void cp_instr_counts(const SBInfo* sb, const ULong* counts, ULong* per_instr)
{
   ULong ran = 0;
   Int i;
   UInt j = sb->n_exits;
   /* Walk instructions backwards, adding the departures that cover them. */
   for (i = (Int)sb->n_instrs - 1; i >= 0; i--) {
      while (j > 0 && cp_sb_exit_ninstrs(sb, j - 1) > (UInt)i) {
         ran += counts[j - 1];
         j--;
      }
      per_instr[i] = ran;
   }
}

void cp_prefetch_context(UInt id)
{
   __builtin_prefetch(cp_context_by_id(id));
}

/* The first lines of the dense counters (the scan for nonzero ones goes
 * on sequentially from there), or of their packed form. */
void cp_prefetch_counters(UInt id)
{
   const Context* c = cp_context_by_id(id);
   const UChar* first;
   if (!c->is_packed && !cp_context_has_array(c)) return;
   first = c->is_packed ? cp_packed_at(c->counters)
                        : (const UChar*)(cp_context_dense(c) - 1);
   __builtin_prefetch(first);
   __builtin_prefetch(first + 64);
}

void cp_prefetch_ahead(UInt id, UInt n)
{
   if (id + 2 * CP_PREFETCH_AHEAD <= n)
      cp_prefetch_context(id + 2 * CP_PREFETCH_AHEAD);
   if (id + CP_PREFETCH_AHEAD <= n)
      cp_prefetch_counters(id + CP_PREFETCH_AHEAD);
}

/* For every owner's counter position: where its departures go in
 * r->runs, and how many instructions each ran.  With these, the walk
 * reads no superblock record for the counts in the owners' arrays (the
 * bulk): the records of a compiler's 260 k superblocks lie scattered over
 * 24 MB, the positions of an owner side by side. */
typedef struct {
   UInt*   base;      /* [owner id]: its positions' start below */
   UInt*   exit_at;
   UShort* ninstrs;
} OwnerExits;

static void owner_exits_init(OwnerExits* e, const SuperblockRuns* r)
{
   UInt n = cp_owner_count(), o, pos, first, end, k, all = 0;
   e->base = cp_heap_malloc("cp.costs.base", (n + 1) * sizeof(UInt));
   for (o = 1; o <= n; o++) {
      e->base[o] = all;
      all += cp_owner(o)->n_counters;
   }
   e->exit_at = cp_heap_malloc("cp.costs.exitat", (all + 1) * sizeof(UInt));
   e->ninstrs = cp_heap_malloc("cp.costs.ninstrs", (all + 1) * sizeof(UShort));
   for (o = 1; o <= n; o++) {
      const Owner* ow = cp_owner(o);
      UInt* exit_at = e->exit_at + e->base[o];
      UShort* ninstrs = e->ninstrs + e->base[o];
      for (pos = 0; pos < ow->n_counters; pos = end) {
         UInt id = ow->sb_at[pos];
         const SBInfo* sb = cp_sbinfo_at(id);
         cp_owner_run(ow, pos, &first, &end);
         for (k = first; k < end; k++) {
            exit_at[k] = r->first[id] + (k - first);
            ninstrs[k] = cp_sb_exit_ninstrs(sb, k - first);
         }
      }
   }
}

static void owner_exits_free(OwnerExits* e)
{
   cp_heap_free(e->base);
   cp_heap_free(e->exit_at);
   cp_heap_free(e->ninstrs);
}

/* ctx's counts in its owner's array: into r->runs; returns their cost.
 * *end: where its cost-center table's positions start. */
static ULong add_owner_counts(SuperblockRuns* r, const OwnerExits* e,
                              const Context* ctx, UInt* end)
{
   UInt o = cp_context_owner(ctx), len, pos, b = e->base[o];
   const ULong* dense = cp_cold_view(ctx, &len);
   ULong total = 0;
   if (len > cp_owner(o)->n_counters) len = cp_owner(o)->n_counters;
   for (pos = 0; pos < len; pos++) {
      ULong c = dense[pos];
      if (!c) continue;
      r->runs[e->exit_at[b + pos]] += c;
      total += c * e->ninstrs[b + pos];
   }
   *end = len;
   return total;
}

void cp_superblock_runs(SuperblockRuns* r, ULong* self)
{
   UInt n_sbs = cp_sbinfo_count(), n = cp_context_count(), id, k, i;
   const SBInfo* sb;
   const ULong* counts;
   OwnerExits e;
   r->first = cp_heap_malloc("cp.costs.first", (n_sbs + 1) * sizeof(UInt));
   r->first[0] = 0;
   for (k = 0; k < n_sbs; k++)
      r->first[k + 1] = r->first[k] + cp_sbinfo_at(k)->n_exits;
   r->runs = cp_heap_calloc("cp.costs.runs", r->first[n_sbs] + 1, sizeof(ULong));
   owner_exits_init(&e, r);
   for (id = 1; id <= n; id++) {
      const Context* ctx = cp_context_by_id(id);
      UInt pos;
      ULong total;
      cp_prefetch_ahead(id, n);
      total = add_owner_counts(r, &e, ctx, &pos);
      while (ctx->has_foreign && cp_next_cost_center(ctx, &pos, &sb, &counts)) {
         ULong* runs = r->runs + r->first[sb->id];
         for (i = 0; i < sb->n_exits; i++) {
            runs[i] += counts[i];
            total += counts[i] * cp_sb_exit_ninstrs(sb, i);
         }
      }
      if (self) self[id] = total;
   }
   owner_exits_free(&e);
}

void cp_superblock_runs_free(SuperblockRuns* r)
{
   cp_heap_free(r->first);
   cp_heap_free(r->runs);
}

ULong cp_counts_total(const SBInfo* sb, const ULong* counts)
{
   ULong total = 0;
   UInt j;
   for (j = 0; j < sb->n_exits; j++)
      total += counts[j] * cp_sb_exit_ninstrs(sb, j);
   return total;
}

UInt cp_ran_prefix(const SBInfo* sb, const ULong* counts)
{
   UInt j = sb->n_exits;
   while (j > 0 && counts[j - 1] == 0) j--;
   return j ? cp_sb_exit_ninstrs(sb, j - 1) : 0;
}

void cp_sort_and_merge(AddrCostList* list)
{
   UInt i, o = 0;
   if (list->used == 0) return;
   sort_by_addr(list->items, list->used);
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
   ULong total = 0;
   UInt i;
   const SBInfo* sb;
   const ULong* counts;
   for (i = 0; cp_next_cost_center(ctx, &i, &sb, &counts); )
      total += cp_counts_total(sb, counts);
   return total;
}

void cp_addrcostlist_free(AddrCostList* list)
{
   cp_heap_free(list->items);
   list->items = NULL;
   list->used = list->capacity = 0;
}
