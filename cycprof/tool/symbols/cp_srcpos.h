/* cycprof: what the debug info says about a code address, for the
 * callgrind-format file (keys like cachegrind's: object, file, function). */
#ifndef CP_SRCPOS_H
#define CP_SRCPOS_H

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "cp_strtab.h"

/* Exported by the core but missing from the tool headers of 3.19: the
 * symbol's name as the object file has it (no demangling), a pointer
 * into the debug info's tables that stays put. */
extern Bool VG_(get_fnname_raw)(DiEpoch ep, Addr a, const HChar** buf);

typedef struct {
   UInt obj;    /* string ids in the table given to cp_srcpos_of */
   UInt file;
   UInt fn;
   UInt line;
} SrcPos;

/* The name of what the debug info does not know (object, file, function). */
#define CP_UNKNOWN_NAME "???"

/* Pseudo addresses (cp_pseudo.h) get names like "<signal 14>". */
SrcPos cp_srcpos_of(StrTab* names, Addr a);
/* The name of a pseudo frame, in a static buffer. */
const HChar* cp_pseudo_name(Addr a);

/* Forgets the names cached for the last string table. */
void   cp_srcpos_forget(void);

#endif
