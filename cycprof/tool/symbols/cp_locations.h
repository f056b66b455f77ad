/* cycprof: code locations with their inlined frames, for the pprof
 * profile (functions keyed by name and source file). */
#ifndef CP_LOCATIONS_H
#define CP_LOCATIONS_H

#include "pub_tool_basics.h"
#include "cp_addrmap.h"
#include "cp_keymap.h"
#include "cp_ptrmemo.h"
#include "cp_strtab.h"

#define CP_MAX_INLINE_LEVELS 64

typedef struct {
   UInt fn;     /* id in the function table */
   UInt line;
} InlineLevel;

typedef struct {
   Addr         addr;        /* by line: the lowest address that maps here */
   UInt         n_levels;    /* innermost first */
   Bool         unnamed;     /* the outermost level has no symbol */
   UInt         renamed_as;  /* by instruction: the name given in place */
   InlineLevel* levels;
} Location;

typedef struct {
   StrTab*      fn_keys;        /* "name\tfile" -> function id */
   PtrMemoSlot* memo;           /* (raw name, file) -> function id */
   HChar**      system_names;   /* [fn id], NULL: same as name */
   UInt*        start_lines;    /* [fn id] */
   UInt         fn_capacity;
} FunctionTable;

/* The locations of one stacks dump.  Each address is described once.
 * By instruction every address is its own location; by line, addresses
 * of one object with the same inline chain of (function, line) share one
 * (so code without line info gets one location per function). */
typedef struct {
   Bool          by_line;
   KeyMap        ids;           /* address -> location id */
   StrTab*       keys;          /* by line: "obj fn:line,..." -> id */
   AddrMap       line_ids;      /* by line: the same, for one level */
   Location*     locations;     /* [id - 1] */
   UInt          n_locations, capacity;
   UInt          n_addrs;       /* addresses described */
   UInt          n_inlined;     /* ... of which had inline info */
   FunctionTable functions;
   /* Code without a symbol, named after an address (cp_locset_id_as):
    * naming address -> small index, and (location, index) -> id. */
   AddrMap       name_index;
   AddrMap       renamed;
   UInt          n_names;
} LocationSet;

void cp_locset_init(LocationSet* s, Bool by_line);
void cp_locset_free(LocationSet* s);
/* The location id of a (from 1), describing a the first time. */
UInt cp_locset_id(LocationSet* s, Addr a);
/* Frees what cp_locset_id needs (a million addresses in a compiler's
 * dump), once every address the caller will ask about has its id: no
 * cp_locset_id or cp_locset_id_as after this. */
void cp_locset_forget_addresses(LocationSet* s);
/* The same, but code without a symbol is named "0x<offset>" after
 * name_addr, as the callgrind file names it (cp_cg_naming.h). */
UInt cp_locset_id_as(LocationSet* s, Addr a, Addr name_addr);
/* cp_locset_id_as in two steps, for callers that name many addresses
 * after one: the small index of a naming address, then the location of
 * unnamed base (a's location) under that name. */
UInt cp_locset_name_index(LocationSet* s, Addr name_addr);
UInt cp_locset_renamed(LocationSet* s, UInt base, Addr a, UInt name,
                       Addr name_addr);
/* class[id], for every location id: the lowest id of the locations of
 * the same object and function without inlined levels, which pprof at
 * function granularity makes one location (cycprof/cli/formats/pprof_coarsen.h);
 * id itself for the others (inlined frames may be renamed apart there,
 * inline_renamer.h).  Free with cp_heap_free. */
UInt* cp_locset_function_classes(const LocationSet* s);
static inline Bool cp_locset_unnamed(const LocationSet* s, UInt id)
{
   return s->locations[id - 1].unnamed;
}

#endif
