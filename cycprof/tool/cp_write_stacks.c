/* cycprof: the stacks dump (docs/internals/stacks-format.md) and the
 * userland helper that turns it into a pprof profile.  zlib and
 * protobuf-c cannot run inside a tool, hence the helper. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"
#include "cp_addrmap.h"
#include "cp_context.h"
#include "cp_costs.h"
#include "cp_instrument.h"
#include "cp_locations.h"
#include "cp_objects.h"
#include "cp_options.h"
#include "cp_outfile.h"
#include "cp_regions.h"
#include "cp_write_stacks.h"

#ifndef CYCPROF_BINDIR
#define CYCPROF_BINDIR "/usr/local/bin"
#endif

/* A frame entered from nowhere (callsite 0, e.g. a thread's first
 * function) adds no location, so it shares its parent's dump node. */
static Bool adds_frame(const Context* c)
{
   return c->parent == NULL || c->callsite != 0;
}

/* The location id of every instruction that ran, per superblock:
 * loc[first[sb id] + i], 0 where instruction i never ran.  Locating per
 * superblock rather than per (context, address) looks each address up
 * once. */
typedef struct {
   UInt* first;     /* [n_sbs + 1] */
   UInt* loc;
} SuperblockLocations;

static void locate_superblocks(LocationSet* s, SuperblockLocations* sl)
{
   UInt n_sbs = cp_sbinfo_count(), k, i;
   ULong per_instr[CP_MAX_SB_INSTRS];
   SuperblockRuns sums;
   cp_superblock_runs(&sums);
   sl->first = VG_(malloc)("cp.st.first", (n_sbs + 1) * sizeof(UInt));
   sl->first[0] = 0;
   for (k = 0; k < n_sbs; k++)
      sl->first[k + 1] = sl->first[k] + cp_sbinfo_at(k)->n_instrs;
   sl->loc = VG_(calloc)("cp.st.loc", sl->first[n_sbs] + 1, sizeof(UInt));
   for (k = 0; k < n_sbs; k++) {
      const SBInfo* sb = cp_sbinfo_at(k);
      cp_instr_counts(sb, sums.runs + sums.first[k], per_instr);
      for (i = 0; i < sb->n_instrs; i++)
         if (per_instr[i])
            sl->loc[sl->first[k] + i] = cp_locset_id(s, sb->instr_addr[i]);
   }
   cp_superblock_runs_free(&sums);
}

/* Call sites are locations too, and all are written before the nodes. */
static void locate_callsites(LocationSet* s)
{
   UInt id, n = cp_context_count();
   for (id = 1; id <= n; id++) {
      Context* c = cp_context_by_id(id);
      if (c->callsite) cp_locset_id(s, c->callsite);
   }
}

/* The dump's fields are TAB separated: keep names on one field. */
static void put_field(OutFile* out, const HChar* s)
{
   HChar clean[2];
   clean[1] = 0;
   cp_outfile_puts(out, "\t");
   for (; *s; s++) {
      clean[0] = (*s == '\t' || *s == '\n') ? ' ' : *s;
      cp_outfile_puts(out, clean);
   }
}

/* Region sets: a name inside its parent set (cp_regions.h). */
static void write_regions(OutFile* out)
{
   UInt id, n = cp_region_set_count();
   for (id = 1; id <= n; id++) {
      cp_outfile_printf(out, "region\t%u\t%u", id, cp_region_set_parent(id));
      put_field(out, cp_region_set_name(id));
      cp_outfile_puts(out, "\n");
   }
}

static void write_maps(OutFile* out)
{
   UInt i;
   for (i = 0; i < cp_objects_count(); i++) {
      const LoadedObject* o = cp_object(i);
      cp_outfile_printf(out, "map\t%u\t%lx\t%lx\t%llx", i + 1, o->start,
                        o->limit, o->file_offset);
      put_field(out, o->path ? o->path : "");
      cp_outfile_puts(out, "\n");
   }
}

static void write_functions(OutFile* out, const FunctionTable* t)
{
   UInt id, n = cp_strtab_count(t->fn_keys);
   for (id = 1; id <= n; id++) {
      HChar key[2048];
      HChar* tab;
      VG_(strncpy)(key, cp_strtab_get(t->fn_keys, id), sizeof key - 1);
      key[sizeof key - 1] = 0;
      tab = VG_(strchr)(key, '\t');
      if (tab) *tab = 0;
      cp_outfile_printf(out, "fn\t%u\t%u", id, t->start_lines[id]);
      put_field(out, key);
      put_field(out, t->system_names[id] ? t->system_names[id] : key);
      put_field(out, tab ? tab + 1 : "");
      cp_outfile_puts(out, "\n");
   }
}

static void write_locations(OutFile* out, const LocationSet* s)
{
   UInt id, k;
   for (id = 1; id <= s->n_locations; id++) {
      const Location* l = &s->locations[id - 1];
      Int obj = CP_IS_PSEUDO(l->addr) ? -1 : cp_object_index_of(l->addr);
      cp_outfile_printf(out, "loc\t%u\t%d\t%lx\t", id, obj + 1,
                        CP_IS_PSEUDO(l->addr) ? 0UL : l->addr);
      for (k = 0; k < l->n_levels; k++)
         cp_outfile_printf(out, "%s%u:%u", k ? "," : "", l->levels[k].fn,
                           l->levels[k].line);
      cp_outfile_puts(out, "\n");
   }
}

/* The dump nodes: node_of[context id], and for each node the list of
 * its contexts (first_ctx[node], next_ctx[context id], 0 ends). */
typedef struct {
   UInt* node_of;
   UInt* first_ctx;
   UInt* next_ctx;
   UInt  n_nodes;
} Nodes;

/* (parent node, callsite location) of a non-root node, as a map key
 * (never 0 since parent >= 1); 0, no merging, where a word cannot hold
 * both ids. */
static UWord node_key(UInt parent, UInt loc)
{
#if VG_WORDSIZE == 8
   return ((UWord)parent << 32) | loc;
#else
   (void)parent;
   (void)loc;
   return 0;
#endif
}

/* Every context's dump node.  A frame entered from nowhere shares its
 * parent's.  Contexts whose stacks read the same in pprof (same parent
 * node, same callsite location: by line, two calls on one line, or an
 * indirect call reaching different functions) share one node, so that
 * their samples are summed rather than written as identical stacks. */
static void write_nodes(OutFile* out, LocationSet* s, Nodes* nd)
{
   UInt id, n = cp_context_count();
   AddrMap by_key;
   cp_addrmap_init(&by_key, 1024);
   nd->node_of = VG_(calloc)("cp.st.nodes", n + 1, sizeof(UInt));
   nd->first_ctx = VG_(calloc)("cp.st.first", n + 1, sizeof(UInt));
   nd->next_ctx = VG_(calloc)("cp.st.next", n + 1, sizeof(UInt));
   nd->n_nodes = 0;
   for (id = 1; id <= n; id++) {
      Context* c = cp_context_by_id(id);
      UInt node, parent = c->parent ? nd->node_of[c->parent->id] : 0;
      if (!adds_frame(c)) {
         node = parent;
      } else if (!c->parent) {
         node = ++nd->n_nodes;   /* a thread's root: always its own */
         if (c->region)          /* the root of a region set's tree */
            cp_outfile_printf(out, "node\t%u\t0\t0\t%u\n", node, c->region);
         else
            cp_outfile_printf(out, "node\t%u\t0\t0\n", node);
      } else {
         UInt loc = cp_locset_id(s, c->callsite);
         UWord* known = node_key(parent, loc)
                        ? cp_addrmap_find(&by_key, node_key(parent, loc))
                        : NULL;
         if (known) {
            node = *known;
         } else {
            node = ++nd->n_nodes;
            if (node_key(parent, loc))
               cp_addrmap_put(&by_key, node_key(parent, loc), node);
            cp_outfile_printf(out, "node\t%u\t%u\t%u\n", node, parent, loc);
         }
      }
      nd->node_of[id] = node;
      nd->next_ctx[id] = nd->first_ctx[node];
      nd->first_ctx[node] = id;
   }
   VG_(free)(by_key.keys);
   VG_(free)(by_key.values);
}

/* One sample per (node, leaf location): the node's contexts' costs,
 * mapped to locations and summed.  Expands the counters again rather
 * than keeping them from collect_locations: the dump needs every location
 * before the first sample, and keeping all (context, address) pairs would
 * make memory grow with the sample count.  Returns the number of sample
 * records written. */
typedef struct {
   ULong*       cost;      /* [1 + number of locations], zero between nodes */
   AddrCostList touched;  /* addr: a location id */
} NodeCosts;

static void add_context_costs(const Context* c,
                              const SuperblockLocations* sl, NodeCosts* nc)
{
   ULong per_instr[CP_MAX_SB_INSTRS];
   const SBInfo* sb;
   const ULong* counts;
   UInt k, i;
   for (k = 0; cp_next_cost_center(c, &k, &sb, &counts); ) {
      const UInt* loc = sl->loc + sl->first[sb->id];
      cp_instr_counts(sb, counts, per_instr);
      for (i = 0; i < sb->n_instrs; i++)
         if (per_instr[i]) {
            tl_assert(loc[i] != 0);
            if (nc->cost[loc[i]] == 0)
               cp_addrcostlist_append(&nc->touched, loc[i], 0);
            nc->cost[loc[i]] += per_instr[i];
         }
   }
}

/* Costs are summed per location in an array, not by sorting every
 * (location, cost) pair: only the node's distinct locations are sorted. */
static ULong write_samples(OutFile* out, const SuperblockLocations* sl,
                           const Nodes* nd, UInt n_locations)
{
   NodeCosts nc = { 0 };
   UInt node, id, i;
   ULong samples = 0;
   nc.cost = VG_(calloc)("cp.stacks.nodecosts", n_locations + 1,
                         sizeof(ULong));
   for (node = 1; node <= nd->n_nodes; node++) {
      UInt tid = 0;
      nc.touched.used = 0;
      for (id = nd->first_ctx[node]; id; id = nd->next_ctx[id]) {
         Context* c = cp_context_by_id(id);
         tid = c->tid;   /* a node never spans threads: roots are apart */
         add_context_costs(c, sl, &nc);
      }
      cp_sort_and_merge(&nc.touched);
      for (i = 0; i < nc.touched.used; i++, samples++) {
         Addr loc = nc.touched.items[i].addr;
         cp_outfile_puts(out, "sample\t");
         cp_outfile_put_u64(out, node, '\t');
         cp_outfile_put_u64(out, loc, '\t');
         cp_outfile_put_u64(out, tid, '\t');
         cp_outfile_put_u64(out, nc.cost[loc], '\n');
         nc.cost[loc] = 0;
      }
   }
   cp_addrcostlist_free(&nc.touched);
   VG_(free)(nc.cost);
   return samples;
}

static Bool write_dump(const HChar* path, ULong total, const HChar* cmd,
                       Int pid)
{
   LocationSet s;
   SuperblockLocations sl;
   OutFile* out = cp_outfile_open(path);
   ULong samples;
   Nodes nd;
   Bool ok;
   UInt t0 = VG_(read_millisecond_timer)(), t1;
   if (!out) return False;
   cp_locset_init(&s, cp_opts.pprof_by_line);
   locate_superblocks(&s, &sl);
   locate_callsites(&s);
   t1 = VG_(read_millisecond_timer)();

   cp_outfile_puts(out, "cycprof-stacks\t1\ncmd");
   put_field(out, cmd);
   cp_outfile_printf(out, "\npid\t%d\nduration_ns\t%llu\ntotal\t%llu\n",
                     pid, VG_(read_millisecond_timer)() * 1000000ULL,
                     total);
   write_maps(out);
   write_functions(out, &s.functions);
   write_locations(out, &s);
   write_regions(out);
   write_nodes(out, &s, &nd);
   samples = write_samples(out, &sl, &nd, s.n_locations);
   cp_outfile_printf(out, "end\t%llu\n", samples);
   ok = cp_outfile_commit(out);
   if (VG_(clo_stats))
      VG_(message)(Vg_DebugMsg, "cycprof: stacks dump: %u addresses "
                   "(%u inlined) described in %u ms, %u locations, %u "
                   "nodes, %llu samples, %u ms in all\n", s.n_addrs,
                   s.n_inlined, t1 - t0, s.n_locations, nd.n_nodes,
                   samples, VG_(read_millisecond_timer)() - t0);

   VG_(free)(nd.node_of);
   VG_(free)(nd.first_ctx);
   VG_(free)(nd.next_ctx);
   VG_(free)(sl.first);
   VG_(free)(sl.loc);
   cp_locset_free(&s);
   return ok;
}

static Bool exists(const HChar* path)
{
   struct vg_stat st;
   return !sr_isError(VG_(stat)(path, &st));
}

/* --cycprof-helper, else beside the tool (the build's vg-lib overlay),
 * else where 'make install' put it. */
static HChar* find_helper(void)
{
   const HChar* lib = VG_(getenv)("VALGRIND_LIB");
   HChar buf[4096];
   if (cp_opts.helper) return VG_(strdup)("cp.st.helper", cp_opts.helper);
   if (lib) {
      VG_(snprintf)(buf, sizeof buf, "%s/cycprof", lib);
      if (exists(buf)) return VG_(strdup)("cp.st.helper", buf);
   }
   return VG_(strdup)("cp.st.helper", CYCPROF_BINDIR "/cycprof");
}

void cp_write_pprof(const HChar* path, ULong total, const HChar* cmd,
                    Int pid)
{
   SizeT n = VG_(strlen)(path) + 16;
   HChar* dump = VG_(malloc)("cp.st.dump", n);
   HChar* helper = find_helper();
   HChar* shell;
   Int status;

   VG_(snprintf)(dump, n, "%s.stacks", path);
   if (!write_dump(dump, total, cmd, pid)) {
      VG_(umsg)("cycprof: cannot write %s; no pprof profile\n", dump);
      goto out;
   }
   if (!exists(helper)) {
      VG_(umsg)("cycprof: no pprof profile: helper '%s' not found "
                "(see --cycprof-helper)\n", helper);
      goto out;
   }
   n = VG_(strlen)(helper) + 2 * VG_(strlen)(dump) + 64;
   shell = VG_(malloc)("cp.st.shell", n);
   VG_(snprintf)(shell, n, "'%s' pprof '%s' -o '%s'", helper, dump, path);
   status = VG_(system)(shell);
   VG_(free)(shell);
   if (status != 0)
      VG_(umsg)("cycprof: no pprof profile: '%s pprof' failed "
                "(status %d)\n", helper, status);
out:
   if (!cp_opts.keep_stacks) VG_(unlink)(dump);
   VG_(free)(helper);
   VG_(free)(dump);
}
