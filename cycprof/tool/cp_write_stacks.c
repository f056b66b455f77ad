/* cycprof: the stacks dump (docs/internals/stacks-format.md) and the
 * userland helper that turns it into a pprof profile.  zlib and
 * protobuf-c cannot run inside a tool, hence the helper. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "cp_addrmap.h"
#include "cp_context.h"
#include "cp_costs.h"
#include "cp_locations.h"
#include "cp_objects.h"
#include "cp_options.h"
#include "cp_outfile.h"
#include "cp_write_stacks.h"

#ifndef CYCPROF_BINDIR
#define CYCPROF_BINDIR "/usr/local/bin"
#endif

typedef struct {
   AddrMap   loc_ids;       /* addr -> location id */
   Location* locations;     /* [id - 1] */
   UInt      n_locations, capacity;
   FunctionTable functions;
} LocationSet;

static UInt location_id(LocationSet* s, Addr a)
{
   UWord* known = cp_addrmap_find(&s->loc_ids, a);
   if (known) return *known;
   if (s->n_locations == s->capacity) {
      s->capacity = s->capacity ? 2 * s->capacity : 4096;
      s->locations = VG_(realloc)("cp.st.locs", s->locations,
                                  s->capacity * sizeof(Location));
   }
   cp_location_describe(&s->functions, a, &s->locations[s->n_locations]);
   cp_addrmap_put(&s->loc_ids, a, ++s->n_locations);
   return s->n_locations;
}

/* A frame entered from nowhere (callsite 0, e.g. a thread's first
 * function) adds no location, so it shares its parent's dump node. */
static Bool adds_frame(const Context* c)
{
   return c->parent == NULL || c->callsite != 0;
}

static void collect_locations(LocationSet* s)
{
   AddrCostList costs = { 0 };
   UInt id, i, n = cp_context_count();
   for (id = 1; id <= n; id++) {
      Context* c = cp_context_by_id(id);
      if (c->callsite) location_id(s, c->callsite);
      cp_context_self_costs(c, &costs);
      for (i = 0; i < costs.used; i++) location_id(s, costs.items[i].addr);
   }
   cp_addrcostlist_free(&costs);
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

/* Every context's dump node; a frame entered from nowhere shares its
 * parent's.  Returns node_of[context id]. */
static UInt* write_nodes(OutFile* out, LocationSet* s)
{
   UInt id, n = cp_context_count(), next_node = 0;
   UInt* node_of = VG_(calloc)("cp.st.nodes", n + 1, sizeof(UInt));
   for (id = 1; id <= n; id++) {
      Context* c = cp_context_by_id(id);
      if (!adds_frame(c)) {
         node_of[id] = node_of[c->parent->id];
         continue;
      }
      node_of[id] = ++next_node;
      cp_outfile_printf(out, "node\t%u\t%u\t%u\n", node_of[id],
                        c->parent ? node_of[c->parent->id] : 0,
                        c->parent ? location_id(s, c->callsite) : 0);
   }
   return node_of;
}

/* Expands the counters again rather than keeping them from
 * collect_locations: the dump needs every location before the first
 * sample, and keeping all (context, address) pairs would make memory grow
 * with the sample count.  Returns the number of sample records written. */
static ULong write_samples(OutFile* out, LocationSet* s, const UInt* node_of)
{
   AddrCostList costs = { 0 };
   UInt id, i, n = cp_context_count();
   ULong samples = 0;
   for (id = 1; id <= n; id++) {
      Context* c = cp_context_by_id(id);
      cp_context_self_costs(c, &costs);
      for (i = 0; i < costs.used; i++, samples++)
         cp_outfile_printf(out, "sample\t%u\t%u\t%u\t%llu\n", node_of[id],
                           location_id(s, costs.items[i].addr), c->tid,
                           costs.items[i].count);
   }
   cp_addrcostlist_free(&costs);
   return samples;
}

static Bool write_dump(const HChar* path, ULong total, const HChar* cmd)
{
   LocationSet s;
   OutFile* out = cp_outfile_open(path);
   ULong samples;
   UInt* node_of;
   Bool ok;
   if (!out) return False;
   VG_(memset)(&s, 0, sizeof s);
   cp_addrmap_init(&s.loc_ids, 4096);
   cp_functiontable_init(&s.functions);
   collect_locations(&s);

   cp_outfile_puts(out, "cycprof-stacks\t1\ncmd");
   put_field(out, cmd);
   cp_outfile_printf(out, "\npid\t%d\nduration_ns\t%llu\ntotal\t%llu\n",
                     VG_(getpid)(), VG_(read_millisecond_timer)() * 1000000ULL,
                     total);
   write_maps(out);
   write_functions(out, &s.functions);
   write_locations(out, &s);
   node_of = write_nodes(out, &s);
   samples = write_samples(out, &s, node_of);
   VG_(free)(node_of);
   cp_outfile_printf(out, "end\t%llu\n", samples);
   ok = cp_outfile_commit(out);

   cp_functiontable_free(&s.functions);
   VG_(free)(s.locations);
   VG_(free)(s.loc_ids.keys);
   VG_(free)(s.loc_ids.values);
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

void cp_write_pprof(const HChar* path, ULong total, const HChar* cmd)
{
   SizeT n = VG_(strlen)(path) + 16;
   HChar* dump = VG_(malloc)("cp.st.dump", n);
   HChar* helper = find_helper();
   HChar* shell;
   Int status;

   VG_(snprintf)(dump, n, "%s.stacks", path);
   if (!write_dump(dump, total, cmd)) {
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
