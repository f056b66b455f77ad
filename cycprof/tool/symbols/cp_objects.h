/* cycprof: the loaded objects (executable, libc, ld.so, ...) at exit. */
#ifndef CP_OBJECTS_H
#define CP_OBJECTS_H

#include "pub_tool_basics.h"

typedef struct {
   Addr         start, limit;   /* text mapping, limit exclusive */
   PtrdiffT     bias;           /* run-time address - link-time address */
   ULong        file_offset;    /* of start within the file */
   const HChar* path;
} LoadedObject;

void                 cp_objects_collect(void);
UInt                 cp_objects_count(void);
const LoadedObject*  cp_object(UInt index);
/* Index of the object whose text holds a, or -1. */
Int                  cp_object_index_of(Addr a);

/* The name of code without a symbol at a: "<file name of its object>+0x<offset>",
 * the offset being the address nm and objdump -d show for that code in the
 * object (run-time address minus the object's bias; for a PIE or a shared
 * library, the distance from its load address).  Code of a known object
 * outside its .text (.plt, .init) is found through Valgrind's object name.
 * Code in no object (JIT code) is "0x<run-time address>". */
#define CP_CODE_NAME_SIZE 300
void                 cp_object_code_name(Addr a, HChar* buf, SizeT size);

#endif
