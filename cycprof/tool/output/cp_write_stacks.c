/* cycprof: the stacks dump (docs/internals/stacks-format.md), which the
 * userland helper turns into a pprof profile.  zlib and protobuf-c cannot
 * run inside a tool, hence the helper. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
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
#include "cp_det.h"
#include "cp_heap.h"
#include "cp_keymap.h"
#include "cp_locations.h"
#include "cp_objects.h"
#include "cp_options.h"
#include "cp_outfile.h"
#include "cp_owner_purity.h"
#include "cp_regions.h"
#include "cp_sbinfo.h"
#include "cp_st_classes.h"
#include "cp_st_naming.h"
#include "cp_st_zk.h"
#include "cp_write_stacks.h"
#include "cp_zkpager.h"

/* A frame entered from nowhere (callsite 0, e.g. a thread's first
 * function) adds no location, so it shares its parent's dump node. */
static Bool adds_frame(const Context* c)
{
   return c->parent_id == 0 || cp_context_site_id(c) != 0;
}

/* The location of a frame's entry, named like its code. */
static UInt frame_location(LocationSet* s, SuperblockLocations* sl,
                           const Context* c)
{
   return cp_st_frame(s, sl, c).entry;
}

/* Call sites and frame entries are locations too, and all are written
 * before the nodes. */
static UInt callsite_location(LocationSet* s, SuperblockLocations* sl,
                              const Context* c,
                              const UnnamedBases* parent_bases);

static Bool runs_foreign_code(LocationSet* s, SuperblockLocations* sl,
                              const Context* c, const UInt* sb_fn,
                              const RanBlocks* ran);
static UInt frame_base_function(LocationSet* s, SuperblockLocations* sl,
                                const Context* c);
static ULong frame_key(LocationSet* s, SuperblockLocations* sl,
                       const Context* c);

/* What locate_callsites notes per context, while its counters are at
 * hand: whether it runs code of other functions than its frame's
 * (runs_foreign_code), and whether it has any cost. */
#define RUNS_FOREIGN 1
#define HAS_COST     2
/* Noted with the lists of contexts (link_contexts): it has a frame node. */
#define HAS_FRAME_NODE 4
/* Noted by locate_callsites: all its code is at its frame's entry
 * location (frame_key), so its samples need no superblock named. */
#define AT_FRAME_ENTRY 8

/* A departure through any exit ran at least one instruction (no exit
 * comes before the first, cp_instrument.c), so a nonzero counter is a
 * cost; the counters are at hand, the exits' instruction counts not. */
static Bool has_cost(const RanBlocks* ran)
{
   UInt k, j;
   for (k = 0; k < ran->used; k++)
      for (j = 0; j < ran->items[k].sb->n_exits; j++)
         if (ran->items[k].counts[j]) return True;
   return False;
}

/* What an owner's purity asks (cp_owner_purity.h): sb_fn[id] is the base
 * function of a superblock's code, as frame_base_function finds it. */
typedef struct {
   const SuperblockLocations* sl;
   const UInt*                sb_fn;
} SuperblockCode;

/* Whether superblock id, run in the unnamed frame of index frame - 1, is
 * all at the frame's entry's own location, in the frame's object. */
static Bool at_frame_entry(const SuperblockLocations* sl, UInt id,
                           UInt frame)
{
   const SuperblockFacts* f = &sl->facts[id];
   const FrameFacts* fr = &sl->frame[frame - 1];
   const UInt* loc = sl->loc + sl->first[id];
   UInt i;
   if (f->first_unnamed != 0 || !f->simple || f->obj != fr->obj)
      return False;
   for (i = 0; i < f->n_ran; i++)
      if (loc[i] != fr->base) return False;
   return True;
}

static Bool superblock_of(UInt id, ULong key, const void* opaque)
{
   const SuperblockCode* code = opaque;
   const SuperblockFacts* f = &code->sl->facts[id];
   UInt frame = (UInt)(key >> 32);
   if (f->n_ran == 0) return True;
   if (code->sb_fn[id] != (UInt)key) return False;
   if (f->first_unnamed >= f->n_ran) return True;
   return frame != 0 && at_frame_entry(code->sl, id, frame);
}

static void locate_callsites(LocationSet* s, SuperblockLocations* sl,
                             const UInt* sb_fn, UChar* foreign,
                             UInt* callsite_loc)
{
   UInt id, n = cp_context_count(), k;
   ULong key;
   UnnamedBases bases = { 0 };
   RanBlocks ran = { 0 };
   SuperblockCode code = { sl, sb_fn };
   OwnerPurity purity;
   cp_purity_init(&purity, superblock_of, &code);
   for (id = 1; id <= n; id++) {
      Context* c = cp_context_by_id(id);
      cp_prefetch_ahead(id, n);
      if (c->kind != CtxRoot) frame_location(s, sl, c);
      if (!cp_context_ran_code(c)) continue;
      if (c->kind != CtxRoot && !c->has_foreign
          && cp_owner_pure(&purity, cp_context_owner(c),
                           (key = frame_key(s, sl, c)))) {
         if (cp_context_has_counts(c)) foreign[id] = HAS_COST;
         /* Its code, all at the entry, names nothing new. */
         if (key >> 32) foreign[id] |= AT_FRAME_ENTRY;
         continue;
      }
      cp_st_gather(s, sl, c, &ran, &bases);
      if (c->kind != CtxRoot && runs_foreign_code(s, sl, c, sb_fn, &ran))
         foreign[id] = RUNS_FOREIGN;
      if (has_cost(&ran)) foreign[id] |= HAS_COST;
      if (bases.used == 0) continue;
      /* Every instruction that ran anywhere, as it would be named
       * here: named code needs no location of its own. */
      for (k = 0; k < ran.used; k++)
         cp_st_name_ran_code(s, sl, c, &bases, ran.items[k].sb);
   }
   cp_purity_free(&purity);
   cp_heap_free(ran.items);
   for (id = 1; id <= n; id++) {
      Context* c = cp_context_by_id(id);
      if (id + CP_PREFETCH_AHEAD <= n)
         cp_prefetch_context(id + CP_PREFETCH_AHEAD);
      if (!cp_context_site_id(c)) continue;
      if (cp_context_frame_parent(c)->kind == CtxRoot)
         cp_st_gather(s, sl, cp_context_frame_parent(c), NULL, &bases);
      callsite_loc[id] = callsite_location(s, sl, c, &bases);
   }
   cp_heap_free(bases.items);
}

/* The dump's fields are TAB separated: keep names on one field. */
static void put_text(OutFile* out, const HChar* s)
{
   HChar clean[2];
   clean[1] = 0;
   if (!VG_(strchr)(s, '\t') && !VG_(strchr)(s, '\n')) {
      cp_outfile_puts(out, s);     /* the common case, in one piece */
      return;
   }
   for (; *s; s++) {
      clean[0] = (*s == '\t' || *s == '\n') ? ' ' : *s;
      cp_outfile_puts(out, clean);
   }
}

static void put_field(OutFile* out, const HChar* s)
{
   cp_outfile_puts(out, "\t");
   put_text(out, s);
}

/* Region sets: a name inside its parent set (cp_regions.h). */
static void write_regions(OutFile* out)
{
   UInt id, n = cp_region_set_count();
   for (id = 1; id <= n; id++) {
      /* Not printf: a program may name 100,000 region sets. */
      cp_outfile_puts(out, "region\t");
      cp_outfile_put_u64(out, id, '\t');
      cp_outfile_put_u64(out, cp_region_set_parent(id), '\t');
      put_text(out, cp_region_set_name(id));
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
      VG_(strlcpy)(key, cp_strtab_get(t->fn_keys, id), sizeof key);
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
 * its contexts (first_ctx[node], next_ctx[context id], 0 ends).
 * frame_node[context id], when not 0, is the node that stands for the
 * context's own function above code of other functions run in its frame
 * (see frame_function_node); first_foreign/next_foreign list the
 * contexts whose foreign code is charged there.  Each array per context
 * takes the place of the one read before it (callsite_loc, then node_of,
 * then next_ctx; frame_node, then next_foreign), and the lists' heads are
 * per node: a node stands for three contexts in a compiler. */
typedef struct {
   UInt* node_of;
   UInt* first_ctx;
   UInt* next_ctx;
   UInt* frame_node;
   UInt* first_foreign;
   UInt* next_foreign;
   UInt* callsite_loc;   /* [context id]: callsite_location's, kept */
   UChar* foreign;       /* [context id]: RUNS_FOREIGN, HAS_COST,
                            HAS_FRAME_NODE, AT_FRAME_ENTRY */
   UInt* tree_of;        /* [context id]: cp_context_trees_by_id's */
   UInt  n_nodes;
   UInt  sure_samples;   /* nodes certain to get a sample */
   /* [node]: the node records, kept until the granularity of the samples
    * is known, so that the helper can follow the dump from its start.
    * A root has parent 0 and location 0; a graft GRAFT_RECORD. */
   UInt* record_parent;
   UInt* record_loc;
   UInt  records_room;
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

/* The function a location belongs to: its outermost (not inlined) level. */
static UInt location_function(const LocationSet* s, UInt loc)
{
   const Location* l = &s->locations[loc - 1];
   return l->levels[l->n_levels - 1].fn;
}

/* The function whose frame a context is: that of its entry's location. */
static UInt frame_function(LocationSet* s, SuperblockLocations* sl,
                           const Context* c)
{
   return location_function(s, frame_location(s, sl, c));
}

/* Before naming: code without a symbol counts as one function per object,
 * the way it is named when it runs in an unnamed frame of that object. */
#define UNNAMED_TAG 0x80000000u
static UInt unnamed_function(UWord obj)
{
   return UNNAMED_TAG | (UInt)(cp_hash_word(obj) >> 1);
}

static UInt base_function(const LocationSet* s, UInt loc, Addr a)
{
   if (cp_locset_unnamed(s, loc))
      return unnamed_function(cp_st_debug_object(a));
   return location_function(s, loc);
}

/* The base function of the frame entry f describes. */
static UInt entry_base_function(const LocationSet* s, FrameFacts f)
{
   return f.unnamed ? unnamed_function(f.obj)
                    : location_function(s, f.base);
}

/* The base function of a frame's entry. */
static UInt frame_base_function(LocationSet* s, SuperblockLocations* sl,
                                const Context* c)
{
   return entry_base_function(s, cp_st_frame(s, sl, c));
}

/* The frame key a context's owner is asked about: its frame's base
 * function, and for a called frame without a symbol also 1 + the frame's
 * index in sl->frame (bits 32 up).  Code without a symbol run in such a
 * frame, in its object, is named after the frame's entry
 * (cp_st_naming.h): when it is all at the entry's own location, it is at
 * the frame's location.  A compiler without symbols (cc1plus) has nearly
 * only such frames. */
static ULong frame_key(LocationSet* s, SuperblockLocations* sl,
                       const Context* c)
{
   FrameFacts f = cp_st_frame(s, sl, c);
   ULong fn = entry_base_function(s, f);
   if (c->kind != CtxCall || !f.unnamed) return fn;
   return ((ULong)sl->frame_of_fn[cp_context_fn_id(c)] << 32) | fn;
}

/* Per superblock: the one base function all its executed instructions
 * belong to, or MIXED. */
#define MIXED_FUNCTIONS (~0u)
static UInt* superblock_functions(const LocationSet* s,
                                  const SuperblockLocations* sl)
{
   UInt n_sbs = cp_sbinfo_count(), k, i;
   UInt* fn = cp_heap_calloc("cp.st.sbfn", n_sbs + 1, sizeof(UInt));
   for (k = 0; k < n_sbs; k++) {
      const SBInfo* sb = cp_sbinfo_at(k);
      for (i = sl->first[k]; i < sl->first[k + 1]; i++) {
         UInt f;
         if (!sl->loc[i]) continue;
         f = base_function(s, sl->loc[i],
                           cp_sb_instr_addr(sb, i - sl->first[k]));
         if (fn[k] == 0) fn[k] = f;
         else if (fn[k] != f) fn[k] = MIXED_FUNCTIONS;
      }
   }
   return fn;
}

static Bool runs_foreign_code(LocationSet* s, SuperblockLocations* sl,
                              const Context* c, const UInt* sb_fn,
                              const RanBlocks* ran)
{
   UInt k, frame_fn = frame_base_function(s, sl, c);
   for (k = 0; k < ran->used; k++)
      if (sb_fn[ran->items[k].sb->id] != frame_fn) return True;
   return False;
}

/* A call from code of the frame's own function, or of another named
 * function run in the frame (e.g. a coroutine resumed inside the frame of
 * the swapcontext that left it: shown below the frame's node), is shown at
 * its line; a call from code without a symbol run in another function's
 * frame at the frame's entry, as the callgrind file puts it in the frame's
 * function block, so that the two files agree on that code's inclusive
 * cost. */
static UInt callsite_location(LocationSet* s, SuperblockLocations* sl,
                              const Context* c,
                              const UnnamedBases* parent_bases)
{
   const Context* p = cp_context_frame_parent(c);
   Addr callsite = cp_context_callsite(c);
   UInt base = cp_st_callsite_base(s, sl, c);
   if (p->kind == CtxRoot)
      return cp_st_code_location(s, sl, p, callsite, base, parent_bases);
   if (base_function(s, base, callsite) == frame_base_function(s, sl, p))
      return cp_st_code_location(s, sl, p, callsite, base, NULL);
   if (!cp_locset_unnamed(s, base)) return base;
   return frame_location(s, sl, p);
}

/* A graft's record (cp_context_graft): its parent's node, and as loc its
 * region set with this bit. It adds no location: the frames above it are
 * the same stack in that set. */
#define GRAFT_RECORD 0x80000000u

/* A new node and its record. */
static UInt new_node(Nodes* nd, UInt parent, UInt loc)
{
   UInt node = ++nd->n_nodes;
   if (node >= nd->records_room) {
      nd->records_room = 2 * nd->records_room;
      nd->record_parent = cp_heap_realloc("cp.st.nparent", nd->record_parent,
                                          nd->records_room * sizeof(UInt));
      nd->record_loc = cp_heap_realloc("cp.st.nloc", nd->record_loc,
                                       nd->records_room * sizeof(UInt));
   }
   nd->record_parent[node] = parent;
   nd->record_loc[node] = loc;
   return node;
}

/* A node made right after its parent is the parent's first child, and
 * by_key leaves it out: it is found beside the parent.  A node made last
 * has no child to find.  So a region set's new frames (3 nodes a set in
 * region-scale) and most frames of a tree walked in id order touch no
 * map. */
static Bool is_first_child(const Nodes* nd, UInt parent, UInt loc)
{
   return parent < nd->n_nodes && nd->record_parent[parent + 1] == parent
          && nd->record_loc[parent + 1] == loc;
}

static UInt node_at(KeyMap* by_key, Nodes* nd, UInt parent, UInt loc)
{
   UWord key = node_key(parent, loc);
   Bool added = True;
   UInt* known = NULL;
   UInt node;
   if (key && parent == nd->n_nodes) return new_node(nd, parent, loc);
   if (key && is_first_child(nd, parent, loc)) return parent + 1;
   if (key) known = cp_keymap_slot(by_key, key, &added);
   if (!added) return *known;
   node = new_node(nd, parent, loc);
   if (known) *known = node;
   return node;
}

/* A region set's graft node.  Most sets are grafted under one node (a
 * set per transaction: each once): the set's first graft context, met
 * before any other of its grafts in id order, has its node already, and
 * by_key holds only the others. */
static UInt graft_node(KeyMap* by_key, Nodes* nd, UInt id, UInt parent,
                       UInt set)
{
   UInt loc = GRAFT_RECORD | set, first = cp_region_set_first_graft(set);
   UInt first_node;
   if (!node_key(parent, loc) || !first)
      return node_at(by_key, nd, parent, loc);
   if (id == first) return new_node(nd, parent, loc);
   first_node = nd->node_of[first];
   if (nd->record_parent[first_node] == parent) return first_node;
   return node_at(by_key, nd, parent, loc);
}

static void write_nodes(OutFile* out, const Nodes* nd)
{
   UInt node;
   for (node = 1; node <= nd->n_nodes; node++) {
      UInt parent = nd->record_parent[node], loc = nd->record_loc[node];
      cp_outfile_puts(out, "node\t");
      cp_outfile_put_u64(out, node, '\t');
      if (parent == 0) {         /* a thread's root */
         cp_outfile_puts(out, "0\t0\n");
         continue;
      }
      cp_outfile_put_u64(out, parent, '\t');
      if (loc & GRAFT_RECORD) {
         cp_outfile_puts(out, "0\t");
         loc &= ~GRAFT_RECORD;
      }
      cp_outfile_put_u64(out, loc, '\n');
   }
}

/* A frame's own function appears in a pprof stack only through a
 * location of its code: the call site of a child, or the leaf.  Code of
 * another function run in the frame (reached by a jump, e.g. stripped
 * code without a symbol) and calls made from there would leave it out,
 * and with it its inclusive cost; they hang below this node, which
 * stands for the frame at its entry. */
static UInt frame_function_node(LocationSet* s, SuperblockLocations* sl,
                                KeyMap* by_key, Nodes* nd, const Context* c,
                                UInt id)
{
   if (!nd->frame_node[id])
      nd->frame_node[id] = node_at(by_key, nd, nd->node_of[id],
                                   frame_location(s, sl,
                                                  cp_context_frame(c)));
   return nd->frame_node[id];
}

/* Nodes certain to get a sample: those of a context with a cost that all
 * goes to its node (no frame node, no foreign code): a lower bound of the
 * line-level samples, known before any is written. */
static UInt nodes_with_samples(const Nodes* nd, UInt n)
{
   UChar* seen = cp_heap_calloc("cp.st.seen", nd->n_nodes + 1, 1);
   UInt id, count = 0;
   for (id = 1; id <= n; id++) {
      UInt node = nd->node_of[id];
      if ((nd->foreign[id] & (RUNS_FOREIGN | HAS_COST)) != HAS_COST
          || nd->frame_node[id] || seen[node])
         continue;
      seen[node] = 1;
      count++;
   }
   cp_heap_free(seen);
   return count;
}

/* The lists of each node's contexts and of the contexts whose foreign
 * code goes to each frame node, in the order write_nodes meets them.
 * Built once all nodes are known, so that their heads take a word per
 * node rather than per context; a context's next in a list takes the
 * place of what the list is built from (its node, its frame node), read
 * just before.  Whether it has a frame node is kept in foreign[]. */
static void link_contexts(Nodes* nd, UInt n)
{
   UInt id;
   nd->first_ctx = cp_heap_calloc("cp.st.first", nd->n_nodes + 1, sizeof(UInt));
   nd->first_foreign = cp_heap_calloc("cp.st.ffirst", nd->n_nodes + 1,
                                   sizeof(UInt));
   nd->next_ctx = nd->node_of;
   nd->next_foreign = nd->frame_node;
   for (id = 1; id <= n; id++) {
      UInt node = nd->node_of[id], frame = nd->frame_node[id];
      nd->next_ctx[id] = nd->first_ctx[node];
      nd->first_ctx[node] = id;
      /* next_foreign is frame_node: 0 already where there is none, and
       * its pages stay untouched (most contexts have no frame node). */
      if (frame) {
         nd->foreign[id] |= HAS_FRAME_NODE;
         nd->next_foreign[id] = 0;
      }
      if (nd->foreign[id] & RUNS_FOREIGN) {
         nd->next_foreign[id] = nd->first_foreign[frame];
         nd->first_foreign[frame] = id;
      }
   }
   nd->node_of = NULL;
   nd->frame_node = NULL;
}

/* Every context's dump node.  A frame entered from nowhere shares its
 * parent's.  Contexts whose stacks read the same in pprof (same parent
 * node, same callsite location: by line, two calls on one line, or an
 * indirect call reaching different functions) share one node, so that
 * their samples are summed rather than written as identical stacks. */
static void build_nodes(LocationSet* s, SuperblockLocations* sl, Nodes* nd,
                        StZk* zk)
{
   UInt id, n = cp_context_count(), tree = 0;
   KeyMap by_key;
   /* Sized for a node per three contexts (a compiler's): growing from
    * small would fill and rehash a table of each size. */
   cp_keymap_init(&by_key, n / 3);
   /* Context id's node replaces its call site's location, read just
    * before (fresh memory costs page faults). */
   nd->node_of = nd->callsite_loc;
   nd->callsite_loc = NULL;
   nd->frame_node = cp_heap_calloc("cp.st.fnode", n + 1, sizeof(UInt));
   /* Room for a node per context, which most programs never fill
    * (a compiler has one per three): pages not written are not
    * resident, and growing would copy. */
   nd->records_room = n + 1 > 4096 ? n + 1 : 4096;
   nd->record_parent = cp_heap_malloc("cp.st.nparent",
                                      nd->records_room * sizeof(UInt));
   nd->record_loc = cp_heap_malloc("cp.st.nloc",
                                   nd->records_room * sizeof(UInt));
   nd->n_nodes = 0;
   for (id = 1; id <= n; id++) {
      Context* c = cp_context_by_id(id);
      Context* p = cp_context_parent(c);
      UInt node, parent;
      if (id + CP_PREFETCH_AHEAD <= n)
         cp_prefetch_context(id + CP_PREFETCH_AHEAD);
      parent = p ? nd->node_of[c->parent_id] : 0;
      if (cp_context_is_graft(c)) {
         /* Its tree starts at it; the walk meets trees in order. */
         while (cp_context_trees[tree].start != id) tree++;
         node = graft_node(&by_key, nd, id, parent,
                           cp_context_trees[tree].region);
      } else if (!adds_frame(c)) {
         node = parent;
      } else if (!p) {
         node = new_node(nd, 0, 0);   /* a thread's root: its own */
      } else {
         UInt loc = nd->node_of[id];   /* still callsite_loc[id] */
         const Context* frame = cp_context_frame_parent(c);
         /* A call from another named function's code in the frame below:
          * its function stays on the stack above it. */
         if (frame->kind != CtxRoot
             && location_function(s, loc) != frame_function(s, sl, frame))
            parent = frame_function_node(s, sl, &by_key, nd, p,
                                         c->parent_id);
         node = node_at(&by_key, nd, parent, loc);
      }
      nd->node_of[id] = node;
      /* The model's frames hang under the context's own function. */
      if (zk->on && cp_zk_cost_of(c))
         zk->node[id] = c->kind == CtxRoot ? node
            : node_at(&by_key, nd, node, cp_st_zk_entry(zk, s, sl, c));
      if (nd->foreign[id] & RUNS_FOREIGN)
         frame_function_node(s, sl, &by_key, nd, c, id);
   }
   cp_keymap_free(&by_key);
   nd->sure_samples = nodes_with_samples(nd, n);
   link_contexts(nd, n);
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
   RanBlocks    ran;      /* the context at hand's */
   UnnamedBases bases;
   /* With samples per function: */
   const ClassSuperblocks* classes;
   UInt*        line_stamp;  /* [location]: the last node it was seen in */
   UInt         node;
   ULong        line_samples; /* the distinct locations seen, per node */
} NodeCosts;

/* Costs at locations of a frame's own function (own) or of other
 * functions (foreign), or all when the frame has no node of its own. */
typedef enum { AllCode, OwnCode, ForeignCode } CodeKind;

/* A location the line-level dump would give the node a sample at. */
static void count_line(NodeCosts* nc, UInt loc)
{
   if (nc->line_stamp[loc] == nc->node) return;
   nc->line_stamp[loc] = nc->node;
   nc->line_samples++;
}

/* The location in c of a one-class superblock's first listed location:
 * code without a symbol (then the only one listed) is named as
 * add_context_costs would name it; naming the first instruction names
 * them all, since one name and one base location give one location. */
static UInt first_class_location(LocationSet* s, SuperblockLocations* sl,
                                 const Context* c, const SBInfo* sb,
                                 NodeCosts* nc)
{
   UInt loc = nc->classes->at[nc->classes->first[sb->id]].loc;
   if (nc->bases.used == 0 || !cp_locset_unnamed(s, loc)) return loc;
   cp_st_name_superblock(s, sl, c, &nc->bases, sb, 1, &loc);
   return loc;
}

/* A superblock of one function class (cp_st_classes.h): its whole cost
 * goes to the lowest of the locations that ran, where sum_per_function
 * would have put it; the others only count as lines. */
static void add_class_cost(LocationSet* s, SuperblockLocations* sl,
                           const Context* c, const SBInfo* sb,
                           const ULong* counts, CodeKind kind, UInt frame_fn,
                           NodeCosts* nc)
{
   const ClassSuperblocks* cs = nc->classes;
   UInt ran = cp_ran_prefix(sb, counts), e, lowest, first;
   if (ran == 0) return;
   first = first_class_location(s, sl, c, sb, nc);
   if (kind != AllCode
       && (location_function(s, first) == frame_fn) != (kind == OwnCode))
      return;
   count_line(nc, first);
   lowest = first;
   for (e = cs->first[sb->id] + 1;
        e < cs->first[sb->id + 1] && cs->at[e].first_instr < ran; e++) {
      count_line(nc, cs->at[e].loc);
      if (cs->at[e].loc < lowest) lowest = cs->at[e].loc;
   }
   if (nc->cost[lowest] == 0)
      cp_addrcostlist_append(&nc->touched, lowest, 0);
   nc->cost[lowest] += cp_counts_total(sb, counts);
}

/* A context whose code is all at its frame's location (AT_FRAME_ENTRY):
 * its whole cost goes there, of its frame's own function, so whatever the
 * kind asked (never ForeignCode: it runs no foreign code). */
static void add_entry_cost(LocationSet* s, SuperblockLocations* sl,
                           const Context* c, NodeCosts* nc)
{
   UInt loc = frame_location(s, sl, c);
   ULong total = cp_context_self_total(c);
   if (total == 0) return;
   if (nc->cost[loc] == 0) {
      cp_addrcostlist_append(&nc->touched, loc, 0);
      if (nc->classes) count_line(nc, loc);
   }
   nc->cost[loc] += total;
}

/* Adds c's costs of the given kind. */
static void add_context_costs(LocationSet* s, const Context* c, UInt id,
                              SuperblockLocations* sl,
                              const Nodes* nd, CodeKind kind,
                              NodeCosts* nc)
{
   ULong per_instr[CP_MAX_SB_INSTRS];
   UInt named[CP_MAX_SB_INSTRS];
   UnnamedBases* bases = &nc->bases;
   UInt k, i, frame_fn = 0;
   if (nd->foreign[id] & AT_FRAME_ENTRY) {
      add_entry_cost(s, sl, c, nc);
      return;
   }
   if (kind == OwnCode && !(nd->foreign[id] & HAS_FRAME_NODE))
      kind = AllCode;
   if (kind != AllCode) frame_fn = frame_function(s, sl, c);
   cp_st_gather(s, sl, c, &nc->ran, bases);
   for (k = 0; k < nc->ran.used; k++) {
      const SBInfo* sb = nc->ran.items[k].sb;
      const ULong* counts = nc->ran.items[k].counts;
      const SuperblockFacts* f = &sl->facts[sb->id];
      const UInt* locs = sl->loc + sl->first[sb->id];
      UInt ran;
      if (nc->classes && cp_st_one_class(nc->classes, sb->id)) {
         add_class_cost(s, sl, c, sb, counts, kind, frame_fn, nc);
         continue;
      }
      cp_instr_counts(sb, counts, per_instr);
      /* per_instr never grows along the superblock: what ran is a
       * prefix. */
      for (ran = 0; ran < sb->n_instrs && per_instr[ran]; ran++) ;
      if (bases->used && f->first_unnamed < ran) {
         cp_st_name_superblock(s, sl, c, bases, sb, ran, named);
         locs = named;
      }
      for (i = 0; i < ran; i++) {
         UInt loc = locs[i];
         tl_assert(loc != 0);
         if (kind != AllCode
             && (location_function(s, loc) == frame_fn) != (kind == OwnCode))
            continue;
         if (nc->cost[loc] == 0) {
            cp_addrcostlist_append(&nc->touched, loc, 0);
            if (nc->classes) count_line(nc, loc);
         }
         nc->cost[loc] += per_instr[i];
      }
   }
}

/* The first contexts of the nodes a few steps ahead (cp_costs.h). */
static void prefetch_node_contexts(const Nodes* nd, UInt node)
{
   UInt far = node + 2 * CP_PREFETCH_AHEAD, near = node + CP_PREFETCH_AHEAD;
   if (far <= nd->n_nodes && nd->first_ctx[far])
      cp_prefetch_context(nd->first_ctx[far]);
   if (near <= nd->n_nodes && nd->first_ctx[near])
      cp_prefetch_counters(nd->first_ctx[near]);
}

/* A node's samples per function class (cp_locset_function_classes), in
 * place: each class's at its lowest location, which keeps the order in
 * which the classes first appear among the node's locations.  Costs are
 * never 0, so class_cost[k] == 0 means k not seen yet. */
static void sum_per_function(NodeCosts* nc, const UInt* class_of,
                             ULong* class_cost)
{
   UInt i, kept = 0;
   for (i = 0; i < nc->touched.used; i++) {
      Addr loc = nc->touched.items[i].addr;
      UInt k = class_of[loc];
      if (class_cost[k] == 0) nc->touched.items[kept++].addr = loc;
      class_cost[k] += nc->cost[loc];
      nc->cost[loc] = 0;
   }
   nc->touched.used = kept;
   for (i = 0; i < kept; i++) {
      Addr loc = nc->touched.items[i].addr;
      nc->cost[loc] = class_cost[class_of[loc]];
      class_cost[class_of[loc]] = 0;
   }
}

/* The node's costs into nc: its contexts' own code, then the code of
 * other functions run in its frames (nc->touched lists the locations,
 * in no order).  Returns the node's thread, once nd->tree_of is there
 * (0 before); a node never spans threads, roots are apart.  zk, when
 * given, gathers the node's zkVM cycles. */
static UInt node_costs(LocationSet* s, SuperblockLocations* sl,
                       const Nodes* nd, UInt node, NodeCosts* nc, StZk* zk)
{
   UInt id, tid = 0;
   prefetch_node_contexts(nd, node);
   nc->touched.used = 0;
   nc->node = node;
   nc->line_samples = 0;
   for (id = nd->first_ctx[node]; id; id = nd->next_ctx[id]) {
      Context* c = cp_context_by_id(id);
      if (nd->tree_of) tid = cp_context_trees[nd->tree_of[id]].tid;
      add_context_costs(s, c, id, sl, nd, OwnCode, nc);
      if (zk) cp_st_zk_add(zk, s, sl, c, id, tid);
   }
   for (id = nd->first_foreign[node]; id; id = nd->next_foreign[id]) {
      Context* c = cp_context_by_id(id);
      if (nd->tree_of) tid = cp_context_trees[nd->tree_of[id]].tid;
      add_context_costs(s, c, id, sl, nd, ForeignCode, nc);
   }
   return tid;
}

/* Whether a line-level dump would have more than limit samples, found as
 * write_samples finds them and stopping past the limit: when it would,
 * pprof gets the profile per function anyway, so the dump is written per
 * function and the helper reads it as it is written, on the other core
 * (a program with many region sets: far more line-level samples than
 * nodes certain to get one). */
static Bool line_samples_exceed(LocationSet* s, SuperblockLocations* sl,
                                const Nodes* nd, ULong limit)
{
   NodeCosts nc = { 0 };
   ULong seen = 0;
   UInt node, i;
   nc.cost = cp_heap_calloc("cp.stacks.nodecosts", s->n_locations + 1,
                            sizeof(ULong));
   for (node = 1; node <= nd->n_nodes && seen <= limit; node++) {
      node_costs(s, sl, nd, node, &nc, NULL);
      /* Each location enters touched once per node: its cost is never 0
       * once it is there. */
      seen += nc.touched.used;
      for (i = 0; i < nc.touched.used; i++)
         nc.cost[nc.touched.items[i].addr] = 0;
   }
   cp_addrcostlist_free(&nc.touched);
   cp_heap_free(nc.cost);
   cp_heap_free(nc.ran.items);
   cp_heap_free(nc.bases.items);
   return seen > limit;
}

/* Costs are summed per location in an array, not by sorting every
 * (location, cost) pair: only the node's distinct locations are sorted.
 * With class_of, samples are per function (sum_per_function);
 * *line_samples counts those a line-level dump would have. */
static ULong write_samples(OutFile* out, LocationSet* s,
                           SuperblockLocations* sl, const Nodes* nd,
                           const UInt* class_of, ULong* line_samples,
                           StZk* zk)
{
   NodeCosts nc = { 0 };
   ClassSuperblocks classes;
   UInt node, i;
   ULong samples = 0;
   ULong* class_cost = NULL;
   nc.cost = cp_heap_calloc("cp.stacks.nodecosts", s->n_locations + 1,
                         sizeof(ULong));
   if (class_of) {
      class_cost = cp_heap_calloc("cp.stacks.classcosts", s->n_locations + 1,
                               sizeof(ULong));
      cp_st_classes_init(&classes, sl, class_of);
      nc.classes = &classes;
      nc.line_stamp = cp_heap_calloc("cp.stacks.stamps", s->n_locations + 1,
                                  sizeof(UInt));
   }
   *line_samples = 0;
   for (node = 1; node <= nd->n_nodes && !cp_outfile_failed(out); node++) {
      UInt tid = node_costs(s, sl, nd, node, &nc, zk);
      cp_sort_and_merge(&nc.touched);
      *line_samples += nc.classes ? nc.line_samples : nc.touched.used;
      if (class_of) sum_per_function(&nc, class_of, class_cost);
      for (i = 0; i < nc.touched.used; i++, samples++) {
         Addr loc = nc.touched.items[i].addr;
         cp_outfile_puts(out, "sample\t");
         cp_outfile_put_u64(out, node, '\t');
         cp_outfile_put_u64(out, loc, '\t');
         cp_outfile_put_u64(out, tid, '\t');
         cp_outfile_put_u64(out, nc.cost[loc], '\n');
         nc.cost[loc] = 0;
      }
      cp_st_zk_write_records(out, zk);
   }
   cp_addrcostlist_free(&nc.touched);
   cp_heap_free(nc.cost);
   if (class_cost) cp_heap_free(class_cost);
   if (nc.classes) {
      cp_st_classes_free(&classes);
      cp_heap_free(nc.line_stamp);
   }
   cp_heap_free(nc.ran.items);
   cp_heap_free(nc.bases.items);
   return samples;
}

/* CPU time this process has used (user + system, /proc/self/stat's
 * utime and stime in USER_HZ = 100 ticks a second), 0 when unknown: on a
 * loaded machine the dump's wall time says little. */
static ULong cpu_ms(void)
{
   HChar buf[1024];
   HChar* p;
   Int fd = VG_(fd_open)("/proc/self/stat", VKI_O_RDONLY, 0), n, field;
   ULong ticks = 0;
   if (fd < 0) return 0;
   n = VG_(read)(fd, buf, sizeof buf - 1);
   VG_(close)(fd);
   if (n <= 0) return 0;
   buf[n] = 0;
   p = VG_(strrchr)(buf, ')');   /* the command name may hold spaces */
   if (!p) return 0;
   /* ") state ..." : state is field 3, utime 14, stime 15. */
   for (field = 2; *p && field < 15; p++)
      if (*p == ' ') {
         field++;
         if (field >= 14) ticks += VG_(strtoull10)(p + 1, NULL);
      }
   return ticks * 10;
}

Bool cp_write_stacks_dump(const HChar* path, const SuperblockRuns* runs,
                          ULong total, const HChar* cmd, Int pid,
                          ULong max_bytes, ULong deadline_ms,
                          StacksFollow follow, void* opaque)
{
   LocationSet s;
   SuperblockLocations sl;
   OutFile* out = cp_outfile_open(path);
   ULong samples;
   Nodes nd;
   Bool ok;
   UInt* sb_fn;
   UInt* class_of = NULL;
   ULong line_samples;
   StZk zk;
   UInt t0 = VG_(read_millisecond_timer)(), t1;
   /* CPU ms at the end of each phase, for --stats=yes: locating the
    * code, the call sites, the nodes, the samples. */
   ULong cpu[5];
   cpu[0] = VG_(clo_stats) ? cpu_ms() : 0;
   if (!out) return False;
   VG_(memset)(&nd, 0, sizeof nd);
   cp_outfile_set_limits(out, max_bytes, deadline_ms);
   cp_locset_init(&s, cp_opts.pprof_by_line);
   cp_st_locate(&s, &sl, runs);
   cpu[1] = VG_(clo_stats) ? cpu_ms() : 0;
   nd.callsite_loc = cp_heap_calloc("cp.st.callsites", cp_context_count() + 1,
                                 sizeof(UInt));
   nd.foreign = cp_heap_calloc("cp.st.foreign", cp_context_count() + 1, 1);
   sb_fn = superblock_functions(&s, &sl);
   locate_callsites(&s, &sl, sb_fn, nd.foreign, nd.callsite_loc);
   cp_heap_free(sb_fn);
   cp_st_zk_plan(&zk, &s, &sl, total);
   /* Every address now has its location: the call sites', the frames'
    * entries' (cp_st_frame keeps them per function) and the code's
    * (sl.loc), which is all the nodes and the samples ask about. */
   cp_locset_forget_addresses(&s);
   t1 = VG_(read_millisecond_timer)();
   cpu[2] = VG_(clo_stats) ? cpu_ms() : 0;
   build_nodes(&s, &sl, &nd, &zk);
   /* pprof would get them at function granularity anyway: no need to
    * write and read each line's (docs/pprof.md#huge-profiles). */
   if (cp_pprof_max_samples() > 0
       && (nd.sure_samples > (UInt)cp_pprof_max_samples()
           || line_samples_exceed(&s, &sl, &nd, cp_pprof_max_samples())))
      class_of = cp_locset_function_classes(&s);
   /* Then the helper reads the dump as it is written, on another core. */
   if (class_of) follow(cp_outfile_writing_path(out), opaque);

   cp_outfile_puts(out, "cycprof-stacks\t1\ncmd");
   put_field(out, cmd);
   cp_outfile_puts(out, "\ndeterministic");
   put_field(out, cp_det_describe());
   cp_outfile_printf(out, "\npid\t%d\nduration_ns\t%llu\ntotal\t%llu\n",
                     pid, VG_(read_millisecond_timer)() * 1000000ULL,
                     total);
   cp_st_zk_write_header(out, &zk);
   write_maps(out);
   write_functions(out, &s.functions);
   cp_st_zk_write_functions(out, &zk, &s);
   write_locations(out, &s);
   cp_st_zk_write_locations(out, &zk, &s);
   write_regions(out);
   write_nodes(out, &nd);
   /* The node records are written; the samples' threads are read
    * instead, never both at once (the exit's peak). */
   cp_heap_free(nd.record_parent);
   cp_heap_free(nd.record_loc);
   nd.record_parent = nd.record_loc = NULL;
   nd.tree_of = cp_context_trees_by_id();
   cpu[3] = VG_(clo_stats) ? cpu_ms() : 0;
   samples = write_samples(out, &s, &sl, &nd, class_of, &line_samples,
                           &zk);
   if (class_of)
      cp_outfile_printf(out, "end\t%llu\t%llu\n", samples, line_samples);
   else
      cp_outfile_printf(out, "end\t%llu\n", samples);
   ok = cp_outfile_commit(out);
   if (VG_(clo_stats)) {
      cpu[4] = cpu_ms();
      VG_(message)(Vg_DebugMsg, "cycprof: stacks dump: %u addresses "
                   "(%u inlined) described in %u ms, %u locations, %u "
                   "nodes, %llu samples (%llu at line level), %u ms in "
                   "all (%llu ms of CPU: code %llu, call sites %llu, nodes "
                   "%llu, samples %llu)\n", s.n_addrs, s.n_inlined,
                   t1 - t0, s.n_locations, nd.n_nodes, samples,
                   line_samples,
                   VG_(read_millisecond_timer)() - t0, cpu[4] - cpu[0],
                   cpu[1] - cpu[0], cpu[2] - cpu[1], cpu[3] - cpu[2],
                   cpu[4] - cpu[3]);
   }

   cp_heap_free(nd.record_parent);
   cp_heap_free(nd.record_loc);
   cp_heap_free(nd.foreign);
   cp_heap_free(nd.first_ctx);
   cp_heap_free(nd.next_ctx);
   cp_heap_free(nd.first_foreign);
   cp_heap_free(nd.next_foreign);
   cp_heap_free(nd.tree_of);
   if (class_of) cp_heap_free(class_of);
   cp_st_zk_free(&zk);
   cp_st_free(&sl);
   cp_locset_free(&s);
   return ok;
}
