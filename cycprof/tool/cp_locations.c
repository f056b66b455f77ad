/* cycprof: code locations with their inlined frames.
 *
 * The tool API gives inline frames only as VG_(describe_IP) text, one
 * level per cursor step, "0xADDR: name (file:line)" or "0xADDR: name
 * (in object)"; we parse that back. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "cp_arena.h"
#include "cp_functions.h"
#include "cp_locations.h"
#include "cp_srcpos.h"
#include "cp_types.h"

/* Exported by the core but missing from the tool headers of 3.19. */
extern Bool VG_(get_fnname_raw)(DiEpoch ep, Addr a, const HChar** buf);

void cp_functiontable_init(FunctionTable* t)
{
   t->fn_keys = cp_strtab_new();
   t->fn_capacity = 1024;
   t->system_names = VG_(calloc)("cp.loc.sys", t->fn_capacity, sizeof(HChar*));
   t->start_lines = VG_(calloc)("cp.loc.start", t->fn_capacity, sizeof(UInt));
}

void cp_functiontable_free(FunctionTable* t)
{
   UInt i;
   for (i = 0; i < t->fn_capacity; i++)
      if (t->system_names[i]) VG_(free)(t->system_names[i]);
   VG_(free)(t->system_names);
   VG_(free)(t->start_lines);
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
      t->system_names = VG_(realloc)("cp.loc.sys", t->system_names,
                                     t->fn_capacity * sizeof(HChar*));
      t->start_lines = VG_(realloc)("cp.loc.start", t->start_lines,
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
      t->system_names[id] = VG_(strdup)("cp.loc.sysname", raw);
   if (VG_(get_linenum)(ep, cp_function_of(a), &line))
      t->start_lines[id] = line;
}

void cp_location_describe(FunctionTable* t, Addr a, Location* out)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   InlineLevel levels[64];
   UInt n = 0;
   out->addr = a;
   if (CP_IS_PSEUDO(a)) {
      levels[n].fn = function_id(t, cp_pseudo_name(a), "");
      levels[n++].line = 0;
   } else {
      InlIPCursor* iipc = VG_(new_IIPC)(ep, a);
      Bool more;
      do {
         HChar d[2048];
         const HChar *name, *file;
         UInt line;
         VG_(strncpy)(d, VG_(describe_IP)(ep, a, iipc), sizeof d - 1);
         d[sizeof d - 1] = 0;
         parse_description(d, &name, &file, &line);
         more = VG_(next_IIPC)(iipc);
         if (n < 64) {
            levels[n].fn = function_id(t, name, file);
            levels[n].line = line;
            if (!more) note_real_function(t, levels[n].fn, a);
            n++;
         }
      } while (more);
      VG_(delete_IIPC)(iipc);
   }
   out->n_levels = n;
   out->levels = cp_arena_alloc(n * sizeof(InlineLevel));
   VG_(memcpy)(out->levels, levels, n * sizeof(InlineLevel));
}
