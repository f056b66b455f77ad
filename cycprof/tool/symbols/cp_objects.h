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

#endif
