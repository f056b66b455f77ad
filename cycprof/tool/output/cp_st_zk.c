/* See cp_st_zk.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "cp_array.h"
#include "cp_context.h"
#include "cp_heap.h"
#include "cp_objects.h"
#include "cp_st_zk.h"
#include "cp_zkmodel.h"
#include "cp_zkpager.h"

/* RISC Zero's profiler's names for paging; [Segment] is cycprof's, as in
 * the callgrind file. */
static const HChar* const kind_name[CP_ST_ZK_KINDS] = {
   "[PageIn]", "[PageOut]", "[Segment]"
};

static ULong kind_cost(const ZkCost* c, UInt kind)
{
   return kind == 0 ? c->page_in : kind == 1 ? c->page_out : c->segment;
}

/* The function a frame entry belongs to: its outermost level. */
static UInt entry_function(const LocationSet* s, UInt entry)
{
   const Location* l;
   if (!entry) return 0;
   l = &s->locations[entry - 1];
   return l->levels[l->n_levels - 1].fn;
}

UInt cp_st_zk_entry(const StZk* z, LocationSet* s, SuperblockLocations* sl,
                    const Context* c)
{
   if (!z->on || c->kind == CtxRoot || !cp_zk_cost_of(c)) return 0;
   return cp_st_frame(s, sl, c).entry;
}

static UInt fn_index(StZk* z, UInt kind, UInt caller_fn)
{
   Bool added;
   UInt* slot = cp_keymap_slot(&z->fn_ids, ((UWord)caller_fn << 2 | kind) + 1,
                               &added);
   if (added) {
      z->fns = cp_room_for_one("cp.st.zkfns", z->fns, z->n_fns,
                               &z->fns_capacity, sizeof(StZkFn), 16);
      z->fns[z->n_fns].kind = kind;
      z->fns[z->n_fns].caller_fn = caller_fn;
      *slot = ++z->n_fns;
   }
   return *slot - 1;
}

/* The zk location id of (kind, entry), made on first use. */
static UInt loc_id(StZk* z, const LocationSet* s, UInt kind, UInt entry)
{
   Bool added;
   UInt* slot = cp_keymap_slot(&z->loc_ids, ((UWord)entry << 2 | kind) + 1,
                               &added);
   if (added) {
      UInt n = z->n_locs;
      *slot = n + 1;
      z->locs = cp_room_for_one("cp.st.zklocs", z->locs, n,
                                &z->locs_capacity, sizeof(StZkLoc), 16);
      z->locs[n].kind = kind;
      z->locs[n].entry = entry;
      z->locs[n].fn = fn_index(z, kind, entry_function(s, entry));
      z->n_locs++;
      return z->first_loc_id + n;
   }
   return z->first_loc_id + *slot - 1;
}

void cp_st_zk_plan(StZk* z, LocationSet* s, SuperblockLocations* sl,
                   ULong total)
{
   UInt id, n = cp_context_count(), kind;
   VG_(memset)(z, 0, sizeof *z);
   z->on = cp_zk_model != NULL;
   if (!z->on) return;
   cp_keymap_init(&z->loc_ids, 64);
   cp_keymap_init(&z->fn_ids, 64);
   z->first_fn_id = cp_strtab_count(s->functions.fn_keys) + 1;
   z->first_loc_id = s->n_locations + 1;
   z->node = cp_heap_calloc("cp.st.zknode", n + 1, sizeof(UInt));
   z->total = total;
   for (id = 1; id <= n; id++) {
      const Context* c = cp_context_by_id(id);
      const ZkCost* cost = cp_zk_cost_of(c);
      UInt entry;
      if (!cost) continue;
      entry = cp_st_zk_entry(z, s, sl, c);
      for (kind = 0; kind < CP_ST_ZK_KINDS; kind++)
         if (kind_cost(cost, kind)) {
            loc_id(z, s, kind, entry);
            z->total += kind_cost(cost, kind);
         }
   }
}

static void put_table_line(void* out, const HChar* text)
{
   cp_outfile_printf(out, "zktable\t%s\n", text);
}

void cp_st_zk_write_header(OutFile* out, const StZk* z)
{
   if (!z->on) return;
   cp_outfile_printf(out, "zkvm\t%s\t%llu\t%u\n", cp_zk_model->name,
                     z->total, z->first_loc_id);
   cp_zk_table_lines(put_table_line, out);
}

void cp_st_zk_write_functions(OutFile* out, const StZk* z,
                              const LocationSet* s)
{
   UInt i;
   for (i = 0; i < z->n_fns; i++) {
      /* The caller's source file, as the callgrind file's frame has. */
      const HChar* key = z->fns[i].caller_fn
         ? cp_strtab_get(s->functions.fn_keys, z->fns[i].caller_fn) : "";
      const HChar* tab = VG_(strchr)(key, '\t');
      const HChar* name = kind_name[z->fns[i].kind];
      cp_outfile_printf(out, "fn\t%u\t0\t%s\t%s\t%s\n", z->first_fn_id + i,
                        name, name, tab ? tab + 1 : "");
   }
}

void cp_st_zk_write_locations(OutFile* out, const StZk* z,
                              const LocationSet* s)
{
   UInt i;
   for (i = 0; i < z->n_locs; i++) {
      const StZkLoc* l = &z->locs[i];
      Int obj = -1;
      if (l->entry) {
         Addr a = s->locations[l->entry - 1].addr;
         if (!CP_IS_PSEUDO(a)) obj = cp_object_index_of(a);
      }
      /* The caller's object, so that its paging adds up with it. */
      cp_outfile_printf(out, "loc\t%u\t%d\t0\t%u:0\n", z->first_loc_id + i,
                        obj + 1, z->first_fn_id + l->fn);
   }
}

void cp_st_zk_add(StZk* z, LocationSet* s, SuperblockLocations* sl,
                  const Context* c, UInt id, UInt tid)
{
   const ZkCost* cost;
   UInt kind, entry, j;
   if (!z->on || !(cost = cp_zk_cost_of(c))) return;
   entry = cp_st_zk_entry(z, s, sl, c);
   for (kind = 0; kind < CP_ST_ZK_KINDS; kind++) {
      ULong k = kind_cost(cost, kind);
      UInt loc, *found;
      if (!k) continue;
      found = cp_keymap_find(&z->loc_ids, ((UWord)entry << 2 | kind) + 1);
      loc = z->first_loc_id + *found - 1;
      for (j = 0; j < z->n_scratch; j++)
         if (z->scratch[j].node == z->node[id] && z->scratch[j].loc == loc)
            break;
      if (j == z->n_scratch) {
         z->scratch = cp_room_for_one("cp.st.zkrec", z->scratch, j,
                                      &z->scratch_capacity,
                                      sizeof(StZkRecord), 16);
         z->scratch[j].node = z->node[id];
         z->scratch[j].loc = loc;
         z->scratch[j].tid = tid;
         z->scratch[j].cost = 0;
         z->n_scratch++;
      }
      z->scratch[j].cost += k;
   }
}

UInt cp_st_zk_write_records(OutFile* out, StZk* z)
{
   UInt j, n = z->n_scratch;
   for (j = 0; j < n; j++)
      cp_outfile_printf(out, "zk\t%u\t%u\t%u\t%llu\n", z->scratch[j].node,
                        z->scratch[j].loc, z->scratch[j].tid,
                        z->scratch[j].cost);
   z->n_scratch = 0;
   return n;
}

void cp_st_zk_free(StZk* z)
{
   if (!z->on) return;
   cp_keymap_free(&z->loc_ids);
   cp_keymap_free(&z->fn_ids);
   cp_heap_free(z->locs);
   cp_heap_free(z->fns);
   cp_heap_free(z->node);
   if (z->scratch) cp_heap_free(z->scratch);
}
