/* cycprof: code without a symbol is named, in both output files, after
 * the lowest such address of its object that ran in the context (unless
 * its frame's entry names it: cp_cg_naming.h).  Per context, those
 * addresses: a short list, few objects run in one context. */
#ifndef CP_UNNAMED_H
#define CP_UNNAMED_H

#include "pub_tool_basics.h"

typedef struct {
   UWord obj;     /* any word that tells the objects apart */
   Addr  lowest;
} UnnamedBase;

typedef struct {
   UnnamedBase* items;
   UInt         used, capacity;
} UnnamedBases;

/* Unnamed code of obj at a ran in the context. */
void cp_unnamed_note(UnnamedBases* b, UWord obj, Addr a);
/* The lowest address noted for obj, 0 if none. */
Addr cp_unnamed_lowest(const UnnamedBases* b, UWord obj);

#endif
