/* cycprof: code locations with their inlined frames.
 *
 * The tool API gives inline frames only as VG_(describe_IP) text, one
 * level per cursor step, "0xADDR: name (file:line)" or "0xADDR: name
 * (in object)"; we parse that back. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "cp_arena.h"
#include "cp_array.h"
#include "cp_functions.h"
#include "cp_heap.h"
#include "cp_inline_info.h"
#include "cp_locations.h"
#include "cp_objects.h"
#include "cp_pseudo.h"
#include "cp_ptrmemo.h"
#include "cp_srcpos.h"

static void functiontable_init(FunctionTable* t)
{
   t->fn_keys = cp_strtab_new();
   t->memo = cp_heap_calloc("cp.loc.memo", CP_PTRMEMO_SLOTS,
                         sizeof(PtrMemoSlot));
   t->fn_capacity = 1024;
   t->system_names = cp_heap_calloc("cp.loc.sys", t->fn_capacity, sizeof(HChar*));
   t->start_lines = cp_heap_calloc("cp.loc.start", t->fn_capacity, sizeof(UInt));
}

static void functiontable_free(FunctionTable* t)
{
   UInt i;
   for (i = 0; i < t->fn_capacity; i++)
      if (t->system_names[i]) cp_heap_free(t->system_names[i]);
   cp_heap_free(t->system_names);
   cp_heap_free(t->start_lines);
   cp_heap_free(t->memo);
   cp_strtab_free(t->fn_keys);
}

static UInt function_id(FunctionTable* t, const HChar* name,
                        const HChar* file)
{
   HChar key[2048];
   UInt id;
   VG_(snprintf)(key, sizeof key, "%s\t%s", name, file);
   id = cp_strtab_intern(t->fn_keys, key);
   if (id >= t->fn_capacity) {
      UInt old = t->fn_capacity;
      t->fn_capacity = 2 * id;
      t->system_names = cp_heap_realloc("cp.loc.sys", t->system_names,
                                     t->fn_capacity * sizeof(HChar*));
      t->start_lines = cp_heap_realloc("cp.loc.start", t->start_lines,
                                    t->fn_capacity * sizeof(UInt));
      VG_(memset)(t->system_names + old, 0, (t->fn_capacity - old)
                                            * sizeof(HChar*));
      VG_(memset)(t->start_lines + old, 0, (t->fn_capacity - old)
                                           * sizeof(UInt));
   }
   return id;
}

/* Splits "0xADDR: name (file:line)" in place. */
static void parse_description(HChar* d, const HChar** name_out,
                              const HChar** file, UInt* line)
{
   HChar* s = VG_(strstr)(d, ": ");
   HChar* name = s ? s + 2 : d;
   HChar* open = NULL;
   HChar* p;
   SizeT len = VG_(strlen)(name);
   *name_out = name;
   *file = "";
   *line = 0;
   if (len == 0 || name[len - 1] != ')') return;
   for (p = name; (p = VG_(strstr)(p, " (")) != NULL; p++)
      open = p;
   if (!open) return;
   *open = 0;
   name[len - 1] = 0;
   if (VG_(strncmp)(open + 2, "in ", 3) == 0) return;
   p = VG_(strrchr)(open + 2, ':');
   if (!p) return;
   *p = 0;
   *file = open + 2;
   *line = (UInt)VG_(strtoll10)(p + 1, NULL);
}

/* Facts about the outermost (real, not inlined) function at a. */
static void note_real_function(FunctionTable* t, UInt id, Addr a)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   const HChar* raw;
   UInt line;
   if (t->system_names[id] || t->start_lines[id]) return;
   if (VG_(get_fnname_raw)(ep, a, &raw))
      t->system_names[id] = cp_heap_strdup("cp.loc.sysname", raw);
   if (VG_(get_linenum)(ep, cp_function_of(a), &line))
      t->start_lines[id] = line;
}

/* The name of code without a symbol; memoized by this array's address,
 * which no name of the debug info has. */
static const HChar unknown_name[] = "???";

/* The function id of the symbol at a with source file `file`.  The raw
 * name identifies the symbol without demangling it: demangling every
 * address of a C++ program's functions took a quarter of the time spent
 * describing them (cc1plus).  Code without a symbol is "???": the
 * demangled name's lookup is the raw one's, which failed, and a program
 * without symbols (cc1plus) has a million such addresses to intern.
 * *has_symbol says whether a has one. */
static UInt plain_function_id(FunctionTable* t, DiEpoch ep, Addr a,
                              const HChar* file, Bool* has_symbol)
{
   const HChar *raw, *name;
   PtrMemoSlot* m;
   UInt id;
   *has_symbol = VG_(get_fnname_raw)(ep, a, &raw);
   if (!*has_symbol) raw = unknown_name;
   m = cp_ptrmemo_slot(t->memo, raw, file);
   if ((id = cp_ptrmemo_id(m, raw, file))) return id;
   if (!*has_symbol || !VG_(get_fnname)(ep, a, &name)) name = unknown_name;
   return cp_ptrmemo_set(m, raw, file, function_id(t, name, file));
}

/* One level from the symbol and line tables: what VG_(describe_IP)
 * prints for an address without inline info, without formatting the text
 * and parsing it back (measured on python3: 179,000 addresses, 96% of
 * them without inline info, take 300 ms instead of 445 ms). */
static void describe_plain(FunctionTable* t, DiEpoch ep, Addr a,
                           InlineLevel* level)
{
   const HChar *file, *dir;
   UInt line = 0;
   Bool has_line = VG_(get_filename_linenum)(ep, a, &file, &dir, &line);
   Bool has_symbol;
   if (!has_line) {
      file = "";
      line = 0;
   }
   level->fn = plain_function_id(t, ep, a, file, &has_symbol);
   level->line = line;
   /* Without a symbol nor a line at a, note_real_function would find
    * neither (the same lookups: a is then its own function): a program
    * without symbols (cc1plus, a million addresses) would look both up
    * again for nothing. */
   if (has_symbol || has_line) note_real_function(t, level->fn, a);
}

/* Symbolizes a into levels[CP_MAX_INLINE_LEVELS], innermost first;
 * returns the number of levels (>= 1).  A pseudo address gives one
 * "<signal N>" level.  *inlined says whether inline info was found. */
static UInt location_describe(FunctionTable* t, Addr a, InlineLevel* levels,
                              Bool* inlined)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   InlIPCursor* iipc;
   UInt n = 0;
   Bool more;
   *inlined = False;
   if (CP_IS_PSEUDO(a)) {
      levels[0].fn = function_id(t, cp_pseudo_name(a), "");
      levels[0].line = 0;
      return 1;
   }
   /* NULL: no inline info at a (or none read). */
   cp_inline_info_before_describe();
   iipc = VG_(new_IIPC)(ep, a);
   if (!iipc) {
      describe_plain(t, ep, a, &levels[0]);
      return 1;
   }
   *inlined = True;
   do {
      HChar d[2048];
      const HChar *name, *file;
      UInt line;
      /* Not strncpy: it pads all of d, for each inlined level. */
      VG_(strlcpy)(d, VG_(describe_IP)(ep, a, iipc), sizeof d);
      parse_description(d, &name, &file, &line);
      more = VG_(next_IIPC)(iipc);
      if (n < CP_MAX_INLINE_LEVELS) {
         levels[n].fn = function_id(t, name, file);
         levels[n].line = line;
         if (!more) note_real_function(t, levels[n].fn, a);
         n++;
      }
   } while (more);
   VG_(delete_IIPC)(iipc);
   return n;
}

void cp_locset_init(LocationSet* s, Bool by_line)
{
   VG_(memset)(s, 0, sizeof *s);
   s->by_line = by_line;
   cp_keymap_init(&s->ids, 4096);
   cp_addrmap_init(&s->name_index, 64);
   cp_addrmap_init(&s->renamed, 256);
   cp_addrmap_init(&s->line_ids, 1024);
   if (by_line) s->keys = cp_strtab_new();
   functiontable_init(&s->functions);
}

void cp_locset_free(LocationSet* s)
{
   functiontable_free(&s->functions);
   if (s->keys) cp_strtab_free(s->keys);
   cp_heap_free(s->locations);
   cp_keymap_free(&s->ids);
   cp_addrmap_free(&s->name_index);
   cp_addrmap_free(&s->renamed);
   cp_addrmap_free(&s->line_ids);
}

/* The identity of a location by line: its object and its inline chain.
 * The object is part of it so that a location's address always lies in
 * the mapping the location names. */
static void line_key(HChar* key, SizeT size, Addr a,
                     const InlineLevel* levels, UInt n)
{
   Int obj = CP_IS_PSEUDO(a) ? -1 : cp_object_index_of(a);
   SizeT used = VG_(snprintf)(key, size, "%d", obj);
   UInt k;
   for (k = 0; k < n && used + 24 < size; k++)
      used += VG_(snprintf)(key + used, size - used, " %u:%u",
                            levels[k].fn, levels[k].line);
}

/* A one-level line key (object, function, line) packed in a word, or 0
 * when a field does not fit: a million addresses then skip formatting
 * and interning their text key. */
static UWord packed_line_key(Addr a, const InlineLevel* levels, UInt n)
{
   Int obj;
   if (n != 1 || CP_IS_PSEUDO(a) || levels[0].fn >= (1u << 24)
       || levels[0].line >= (1u << 24))
      return 0;
   obj = cp_object_index_of(a);
   if (obj < 0 || obj >= (1 << 15)) return 0;
   return ((UWord)1 << 63) | ((UWord)obj << 48)
          | ((UWord)levels[0].fn << 24) | levels[0].line;
}

/* The id by line: the text key's id in s->keys, which hands out the ids
 * in order of first appearance. */
static UInt line_location_id(LocationSet* s, Addr a,
                             const InlineLevel* levels, UInt n)
{
   HChar key[CP_MAX_INLINE_LEVELS * 24 + 16];
   UWord packed = packed_line_key(a, levels, n);
   UWord* known = packed ? cp_addrmap_find(&s->line_ids, packed) : NULL;
   UInt id;
   if (known) return *known;
   line_key(key, sizeof key, a, levels, n);
   id = cp_strtab_intern(s->keys, key);
   if (packed) cp_addrmap_put(&s->line_ids, packed, id);
   return id;
}

/* The id of the location with these levels at a (by line: shared with
 * the other addresses of the same object and inline chain). */
static UInt location_with(LocationSet* s, Addr a, const InlineLevel* levels,
                          UInt n, Bool unnamed)
{
   UInt id = s->by_line ? line_location_id(s, a, levels, n)
                        : s->n_locations + 1;
   if (id <= s->n_locations) {
      /* Another address of the same line: keep the lowest, so the
       * location's address does not depend on the order of discovery. */
      Location* l = &s->locations[id - 1];
      if (a < l->addr) l->addr = a;
   } else {
      Location* l;
      s->locations = cp_room_for_one("cp.loc.locs", s->locations,
                                     s->n_locations, &s->capacity,
                                     sizeof(Location), 4096);
      l = &s->locations[s->n_locations++];
      l->addr = a;
      l->n_levels = n;
      l->unnamed = unnamed;
      l->renamed_as = 0;
      l->levels = cp_arena_alloc(n * sizeof(InlineLevel));
      VG_(memcpy)(l->levels, levels, n * sizeof(InlineLevel));
   }
   return id;
}

#define CP_UNNAMED_KEY CP_UNKNOWN_NAME "\t"

static Bool level_unnamed(const FunctionTable* t, const InlineLevel* l)
{
   return VG_(strncmp)(cp_strtab_get(t->fn_keys, l->fn), CP_UNNAMED_KEY,
                       sizeof CP_UNNAMED_KEY - 1) == 0;
}

UInt cp_locset_id(LocationSet* s, Addr a)
{
   Bool added;
   /* Nothing else enters s->ids before *known is set. */
   UInt* known;
   InlineLevel levels[CP_MAX_INLINE_LEVELS];
   Bool inlined;
   UInt n;
   tl_assert(cp_keymap_ready(&s->ids));   /* not after forget_addresses */
   known = cp_keymap_slot(&s->ids, a, &added);
   if (!added) return *known;
   n = location_describe(&s->functions, a, levels, &inlined);
   s->n_addrs++;
   s->n_inlined += inlined;
   *known = location_with(s, a, levels, n,
                          !CP_IS_PSEUDO(a)
                          && level_unnamed(&s->functions, &levels[n - 1]));
   return *known;
}

void cp_locset_forget_addresses(LocationSet* s)
{
   cp_keymap_free(&s->ids);
}

UInt* cp_locset_function_classes(const LocationSet* s)
{
   UInt* cls = cp_heap_malloc("cp.loc.classes",
                           (s->n_locations + 1) * sizeof(UInt));
   AddrMap first;
   UInt id;
   cp_addrmap_init(&first, 2 * cp_strtab_count(s->functions.fn_keys));
   cls[0] = 0;
   for (id = 1; id <= s->n_locations; id++) {
      const Location* l = &s->locations[id - 1];
      /* The dump's map id of the location (write_locations): 0 for a
       * pseudo address, else 1 + the object's index. */
      ULong map = CP_IS_PSEUDO(l->addr) ? 0
                                        : cp_object_index_of(l->addr) + 1;
      /* Never 0: function ids start at 1. */
      ULong key = (map << 32) | l->levels[0].fn;
      Bool added;
      UWord* known;
      cls[id] = id;
      /* A word too small for the key: no classes. */
      if (l->n_levels != 1 || (UWord)key != key) continue;
      known = cp_addrmap_slot(&first, (UWord)key, &added);
      if (added) *known = id;
      cls[id] = *known;
   }
   cp_addrmap_free(&first);
   return cls;
}

UInt cp_locset_name_index(LocationSet* s, Addr name_addr)
{
   UWord* known = cp_addrmap_find(&s->name_index, name_addr);
   if (known) return *known;
   cp_addrmap_put(&s->name_index, name_addr, ++s->n_names);
   return s->n_names;
}

UInt cp_locset_id_as(LocationSet* s, Addr a, Addr name_addr)
{
   UInt base = cp_locset_id(s, a);
   if (!s->locations[base - 1].unnamed) return base;
   return cp_locset_renamed(s, base, a, cp_locset_name_index(s, name_addr),
                            name_addr);
}

UInt cp_locset_renamed(LocationSet* s, UInt base, Addr a, UInt name,
                       Addr name_addr)
{
   UWord* known;
   InlineLevel levels[CP_MAX_INLINE_LEVELS];
   const Location* l;
   HChar fn[CP_CODE_NAME_SIZE];
   UInt n;
   known = cp_addrmap_find(&s->renamed, ((UWord)base << 32) | name);
   if (known) return *known;
   l = &s->locations[base - 1];
   if (!s->by_line && l->renamed_as == name) return base;
   n = l->n_levels;
   VG_(memcpy)(levels, l->levels, n * sizeof(InlineLevel));
   cp_object_code_name(name_addr, fn, sizeof fn);
   {
      /* Keep the source file the debug info gives, if any. */
      const HChar* key = cp_strtab_get(s->functions.fn_keys, levels[n - 1].fn);
      const HChar* tab = VG_(strchr)(key, '\t');
      levels[n - 1].fn = function_id(&s->functions, fn, tab ? tab + 1 : "");
   }
   /* By instruction the location is the address's own: the first name
    * it gets replaces "???", so that an address has two locations only
    * when contexts name its code differently. */
   if (!s->by_line && !l->renamed_as) {
      s->locations[base - 1].renamed_as = name;
      s->locations[base - 1].levels[n - 1] = levels[n - 1];
      cp_addrmap_put(&s->renamed, ((UWord)base << 32) | name, base);
      return base;
   }
   {
      UInt id = location_with(s, a, levels, n, False);
      cp_addrmap_put(&s->renamed, ((UWord)base << 32) | name, id);
      return id;
   }
}
