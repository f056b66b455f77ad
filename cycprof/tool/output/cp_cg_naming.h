/* cycprof: function names for the callgrind-format file, including
 * names for code without a symbol. */
#ifndef CP_CG_NAMING_H
#define CP_CG_NAMING_H

#include "pub_tool_basics.h"
#include "cp_addrmap.h"
#include "cp_srcpos.h"
#include "cp_types.h"

typedef struct {
   StrTab* names;
   UInt    unknown;       /* id of CP_UNKNOWN_NAME */
   AddrMap unnamed_ids;   /* address -> id of its "obj+0x..." name */
   AddrMap entry_index;   /* address -> 1 + index into entries */
   struct NamedEntry* entries;
   UInt    n_entries, entries_capacity;
} Naming;

void   cp_naming_init(Naming* n, StrTab* names);
void   cp_naming_free(Naming* n);
Bool   cp_naming_has_symbol(const Naming* n, SrcPos p);
/* The function starting at entry, with the line of the entry (cached:
 * function entries and call sites are looked up once per context). */
SrcPos cp_naming_function_at(Naming* n, Addr entry);
/* Where code whose debug-info position is p is charged when it runs in
 * context c (p itself unless the code has no symbol); lowest_unnamed:
 * the lowest address without a symbol of p's object that ran in c. */
SrcPos cp_naming_code_at(Naming* n, SrcPos p, const Context* c,
                         Addr lowest_unnamed);

#endif
