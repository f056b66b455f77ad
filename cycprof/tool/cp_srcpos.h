/* cycprof: what the debug info says about a code address, for the
 * callgrind-format file (keys like cachegrind's: object, file, function). */
#ifndef CP_SRCPOS_H
#define CP_SRCPOS_H

#include "pub_tool_basics.h"
#include "cp_strtab.h"

typedef struct {
   UInt obj;    /* string ids in the table given to cp_srcpos_of */
   UInt file;
   UInt fn;
   UInt line;
} SrcPos;

/* The name of what the debug info does not know (object, file, function). */
#define CP_UNKNOWN_NAME "???"

/* Pseudo addresses (see cp_types.h) get names like "<signal 14>". */
SrcPos cp_srcpos_of(StrTab* names, Addr a);
/* The name of a pseudo frame, in a static buffer. */
const HChar* cp_pseudo_name(Addr a);

/* Forgets the names cached for the last string table. */
void   cp_srcpos_forget(void);

#endif
