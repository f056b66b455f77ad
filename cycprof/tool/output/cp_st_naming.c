/* cycprof: the stacks dump's locations of executed code and the naming of
 * code without a symbol (cp_st_naming.h). */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_addrmap.h"
#include "cp_array.h"
#include "cp_context.h"
#include "cp_costs.h"
#include "cp_heap.h"
#include "cp_sbinfo.h"
#include "cp_st_naming.h"

static AddrMap object_of_page;   /* page -> cp_st_debug_object, memoized */

UWord cp_st_debug_object(Addr a)
{
   const HChar* name;
   UWord h = 14695981039346656037ULL;
   UWord* known;
   /* Mappings start and end on page boundaries: one lookup per page. */
   if (!cp_addrmap_ready(&object_of_page))
      cp_addrmap_init(&object_of_page, 1024);
   known = cp_addrmap_find(&object_of_page, (a >> 12) + 1);
   if (known) return *known;
   if (VG_(get_objname)(VG_(current_DiEpoch)(), a, &name)) {
      for (; *name; name++) h = (h ^ (UChar)*name) * 1099511628211ULL;
      h |= 1;
   } else {
      h = 0;
   }
   cp_addrmap_put(&object_of_page, (a >> 12) + 1, h);
   return h;
}

static void note_unnamed_code(const LocationSet* s, const SBInfo* sb,
                              const UInt* loc, SuperblockFacts* f)
{
   UInt i;
   f->first_unnamed = f->n_ran;
   f->simple = True;
   for (i = 0; i < f->n_ran; i++) {
      Addr a = cp_sb_instr_addr(sb, i);
      if (!cp_locset_unnamed(s, loc[i])) continue;
      if (f->first_unnamed == f->n_ran) {
         f->first_unnamed = i;
         f->obj = cp_st_debug_object(a);
      } else if (cp_st_debug_object(a) != f->obj
                 || a < cp_sb_instr_addr(sb, f->first_unnamed)) {
         f->simple = False;
      }
   }
}

void cp_st_locate(LocationSet* s, SuperblockLocations* sl,
                  const SuperblockRuns* runs)
{
   UInt n_sbs = cp_sbinfo_count(), k, i, n_slots;
   UWord n_ran = 0;
   VG_(memset)(sl, 0, sizeof *sl);
   sl->facts = cp_heap_calloc("cp.st.facts", n_sbs + 1, sizeof(SuperblockFacts));
   /* An exit taken in some context has a nonzero sum: the furthest one
    * bounds what ever ran. */
   for (k = 0; k < n_sbs; k++) {
      sl->facts[k].n_ran = cp_ran_prefix(cp_sbinfo_at(k),
                                         runs->runs + runs->first[k]);
      n_ran += sl->facts[k].n_ran;
   }
   /* At most that many addresses, and a few call sites and entries. */
   cp_keymap_reserve(&s->ids, n_ran + 1024);
   sl->first = cp_heap_malloc("cp.st.first", (n_sbs + 1) * sizeof(UInt));
   sl->first[0] = 0;
   for (k = 0; k < n_sbs; k++)
      sl->first[k + 1] = sl->first[k] + cp_sbinfo_at(k)->n_instrs;
   n_slots = sl->first[n_sbs] + 1;
   sl->loc = cp_heap_calloc("cp.st.loc", n_slots, sizeof(UInt));
   sl->named = cp_heap_malloc("cp.st.named", n_slots * sizeof(UInt));
   sl->named_as = cp_heap_calloc("cp.st.namedas", n_slots, sizeof(UInt));
   sl->all_named_as = cp_heap_calloc("cp.st.allnamed", n_sbs + 1, sizeof(UInt));
   for (k = 0; k < n_sbs; k++) {
      const SBInfo* sb = cp_sbinfo_at(k);
      UInt* loc = sl->loc + sl->first[k];
      for (i = 0; i < sl->facts[k].n_ran; i++)
         loc[i] = cp_locset_id(s, cp_sb_instr_addr(sb, i));
      note_unnamed_code(s, sb, loc, &sl->facts[k]);
   }
   /* Contexts name their frame's function by an interned id: a table
    * by id, not a hash map, for the 4 M contexts of a compiler. */
   sl->n_fn_ids = cp_context_fns.n;
   sl->frame_of_fn = cp_heap_calloc("cp.st.frameof", sl->n_fn_ids + 1,
                                 sizeof(UInt));
   sl->n_site_ids = cp_context_sites.n;
   sl->site_location = cp_heap_calloc("cp.st.siteloc", sl->n_site_ids + 1,
                                   sizeof(UInt));
}

void cp_st_free(SuperblockLocations* sl)
{
   cp_heap_free(sl->facts);
   cp_heap_free(sl->first);
   cp_heap_free(sl->loc);
   cp_heap_free(sl->named);
   cp_heap_free(sl->named_as);
   cp_heap_free(sl->all_named_as);
   cp_heap_free(sl->frame);
   cp_heap_free(sl->frame_of_fn);
   cp_heap_free(sl->site_location);
}

FrameFacts cp_st_frame(LocationSet* s, SuperblockLocations* sl,
                       const Context* c)
{
   UInt fn_id = cp_context_fn_id(c);
   UInt* known;
   Addr fn;
   FrameFacts f;
   tl_assert(fn_id <= sl->n_fn_ids);
   known = &sl->frame_of_fn[fn_id];
   if (*known) return sl->frame[*known - 1];
   fn = cp_context_fn(c);
   f.base = cp_locset_id(s, fn);
   f.entry = cp_locset_id_as(s, fn, fn);
   f.unnamed = cp_locset_unnamed(s, f.base);
   f.obj = cp_st_debug_object(fn);
   sl->frame = cp_room_for_one("cp.st.frames", sl->frame, sl->n_frames,
                               &sl->frames_capacity, sizeof(FrameFacts), 1024);
   sl->frame[sl->n_frames++] = f;
   *known = sl->n_frames;
   return f;
}

UInt cp_st_callsite_base(LocationSet* s, SuperblockLocations* sl,
                         const Context* c)
{
   UInt site_id = cp_context_site_id(c);
   UInt* known;
   tl_assert(site_id <= sl->n_site_ids);
   known = &sl->site_location[site_id];
   if (!*known) *known = cp_locset_id(s, cp_context_callsite(c));
   return *known;
}

/* Notes the unnamed code of one of c's cost centers in b. */
static void note_unnamed_code_run(const LocationSet* s,
                                  const SuperblockLocations* sl,
                                  const SBInfo* sb, const ULong* counts,
                                  UnnamedBases* b)
{
   const SuperblockFacts* f = &sl->facts[sb->id];
   const UInt* loc = sl->loc + sl->first[sb->id];
   UInt ran, i;
   if (f->first_unnamed == f->n_ran) return;
   ran = cp_ran_prefix(sb, counts);
   if (f->simple) {
      if (ran > f->first_unnamed)
         cp_unnamed_note(b, f->obj, cp_sb_instr_addr(sb, f->first_unnamed));
      return;
   }
   for (i = f->first_unnamed; i < ran; i++)
      if (cp_locset_unnamed(s, loc[i])) {
         Addr a = cp_sb_instr_addr(sb, i);
         cp_unnamed_note(b, cp_st_debug_object(a), a);
      }
}

void cp_st_gather(const LocationSet* s, const SuperblockLocations* sl,
                  const Context* c, RanBlocks* r, UnnamedBases* b)
{
   static RanBlocks scratch;
   UInt k;
   if (!r) r = &scratch;
   b->used = 0;
   cp_context_gather(c, r);
   for (k = 0; k < r->used; k++)
      note_unnamed_code_run(s, sl, r->items[k].sb, r->items[k].counts, b);
}

/* The address unnamed code of obj at a is named after in context c. */
static Addr naming_address(LocationSet* s, SuperblockLocations* sl,
                           const Context* c, UWord obj, Addr a,
                           const UnnamedBases* b)
{
   if (c->kind == CtxCall) {
      FrameFacts frame = cp_st_frame(s, sl, c);
      if (frame.unnamed && frame.obj == obj) return cp_context_fn(c);
   }
   return b ? cp_unnamed_lowest(b, obj) : a;
}

UInt cp_st_code_location(LocationSet* s, SuperblockLocations* sl,
                         const Context* c, Addr a, UInt base,
                         const UnnamedBases* b)
{
   Addr name_addr;
   if (!cp_locset_unnamed(s, base)) return base;
   /* cp_locset_id_as without looking a up again: base is its id, and
    * the samples are named after cp_locset_forget_addresses. */
   name_addr = naming_address(s, sl, c, cp_st_debug_object(a), a, b);
   return cp_locset_renamed(s, base, a, cp_locset_name_index(s, name_addr),
                            name_addr);
}

void cp_st_name_superblock(LocationSet* s, SuperblockLocations* sl,
                           const Context* c, const UnnamedBases* b,
                           const SBInfo* sb, UInt n, UInt* locs)
{
   const SuperblockFacts* f = &sl->facts[sb->id];
   UInt slot = sl->first[sb->id];
   const UInt* loc = sl->loc + slot;
   UInt* named = sl->named + slot;
   UInt* named_as = sl->named_as + slot;
   UInt i, name = 0;
   Addr name_addr = 0;
   for (i = 0; i < n; i++) {
      Addr a;
      if (i < f->first_unnamed || !cp_locset_unnamed(s, loc[i])) {
         locs[i] = loc[i];
         continue;
      }
      a = cp_sb_instr_addr(sb, i);
      if (!f->simple) {
         locs[i] = cp_st_code_location(s, sl, c, a, loc[i], b);
      } else {
         /* One object: one naming address for the whole superblock. */
         if (name == 0) {
            name_addr = naming_address(s, sl, c, f->obj, a, b);
            name = cp_locset_name_index(s, name_addr);
         }
         if (named_as[i] != name || name == 0) {
            named[i] = cp_locset_renamed(s, loc[i], a, name, name_addr);
            named_as[i] = name;
         }
         locs[i] = named[i];
      }
   }
   if (f->simple && name != 0)
      sl->all_named_as[sb->id] = n >= f->n_ran ? name
                               : sl->all_named_as[sb->id] == name ? name : 0;
}

void cp_st_name_ran_code(LocationSet* s, SuperblockLocations* sl,
                         const Context* c, const UnnamedBases* b,
                         const SBInfo* sb)
{
   const SuperblockFacts* f = &sl->facts[sb->id];
   UInt locs[CP_MAX_SB_INSTRS];
   if (f->first_unnamed >= f->n_ran) return;
   if (f->simple) {
      /* What cp_st_name_superblock names it after (and in the same
       * order: a new name gets its index here as it would there). */
      Addr a = naming_address(s, sl, c, f->obj,
                              cp_sb_instr_addr(sb, f->first_unnamed), b);
      if (sl->all_named_as[sb->id] == cp_locset_name_index(s, a)) return;
   }
   cp_st_name_superblock(s, sl, c, b, sb, f->n_ran, locs);
}
