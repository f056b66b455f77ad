/* cycprof: code locations with their inlined frames, for the pprof
 * profile (functions keyed by name and source file). */
#ifndef CP_LOCATIONS_H
#define CP_LOCATIONS_H

#include "pub_tool_basics.h"
#include "cp_strtab.h"

typedef struct {
   UInt fn;     /* id in the function table */
   UInt line;
} InlineLevel;

typedef struct {
   Addr         addr;
   UInt         n_levels;    /* innermost first */
   InlineLevel* levels;
} Location;

typedef struct {
   StrTab*      fn_keys;        /* "name\tfile" -> function id */
   HChar**      system_names;   /* [fn id], NULL: same as name */
   UInt*        start_lines;    /* [fn id] */
   UInt         fn_capacity;
} FunctionTable;

void cp_functiontable_init(FunctionTable* t);
void cp_functiontable_free(FunctionTable* t);
/* Symbolizes a (a pseudo address gives one "<signal N>" level). */
void cp_location_describe(FunctionTable* t, Addr a, Location* out);

#endif
