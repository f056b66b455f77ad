/* cycprof: function names for the callgrind-format file.
 *
 * Code without a symbol (stripped libraries) would all be one "???"
 * function, which callgrind_annotate then shows calling itself.  Like
 * callgrind, such code is named by address: by the entry of the frame it
 * runs in when that has no symbol either, else (a thread's first code,
 * code jumped to from another object) by the lowest unnamed address of
 * its object that ran in that context; as its object's file name and
 * its offset there ("libfoo.so.1+0x1a2b0", cp_objects.h), so names say
 * where the code is and do not change with load addresses. */
#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"
#include "cp_array.h"
#include "cp_cg_naming.h"
#include "cp_context.h"
#include "cp_heap.h"
#include "cp_objects.h"

typedef struct NamedEntry {
   SrcPos pos;
   Bool   has_symbol;
} NamedEntry;

void cp_naming_init(Naming* n, StrTab* names)
{
   n->names = names;
   n->unknown = cp_strtab_intern(names, CP_UNKNOWN_NAME);
   cp_addrmap_init(&n->unnamed_ids, 1024);
   cp_addrmap_init(&n->entry_index, 4096);
   n->entries = NULL;
   n->n_entries = n->entries_capacity = 0;
}

void cp_naming_free(Naming* n)
{
   cp_addrmap_free(&n->unnamed_ids);
   cp_addrmap_free(&n->entry_index);
   cp_heap_free(n->entries);
}

Bool cp_naming_has_symbol(const Naming* n, SrcPos p)
{
   return p.fn != n->unknown;
}

static UInt name_of_address(Naming* n, Addr a)
{
   UWord* known = cp_addrmap_find(&n->unnamed_ids, a);
   HChar name[CP_CODE_NAME_SIZE];
   UInt id;
   if (known) return *known;
   cp_object_code_name(a, name, sizeof name);
   id = cp_strtab_intern(n->names, name);
   cp_addrmap_put(&n->unnamed_ids, a, id);
   return id;
}

static const NamedEntry* entry_at(Naming* n, Addr entry)
{
   UWord* known = cp_addrmap_find(&n->entry_index, entry);
   NamedEntry* e;
   if (known) return &n->entries[*known - 1];
   n->entries = cp_room_for_one("cp.cg.entries", n->entries, n->n_entries,
                                &n->entries_capacity, sizeof(NamedEntry),
                                1024);
   e = &n->entries[n->n_entries++];
   e->pos = cp_srcpos_of(n->names, entry);
   e->has_symbol = cp_naming_has_symbol(n, e->pos);
   if (!e->has_symbol && !CP_IS_PSEUDO(entry))
      e->pos.fn = name_of_address(n, entry);
   cp_addrmap_put(&n->entry_index, entry, n->n_entries);
   return e;
}

SrcPos cp_naming_function_at(Naming* n, Addr entry)
{
   return entry_at(n, entry)->pos;
}

SrcPos cp_naming_code_at(Naming* n, SrcPos p, const Context* c,
                         Addr lowest_unnamed)
{
   if (!cp_naming_has_symbol(n, p)) {
      Bool in_unnamed_frame = False;
      Addr fn = cp_context_fn(c);
      if (c->kind == CtxCall) {
         const NamedEntry* frame = entry_at(n, fn);
         in_unnamed_frame = !frame->has_symbol && frame->pos.obj == p.obj;
      }
      p.fn = name_of_address(n, in_unnamed_frame ? fn : lowest_unnamed);
   }
   return p;
}
