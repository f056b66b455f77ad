/* cycprof: interned strings with dense ids, for name compression. */
#ifndef CP_STRTAB_H
#define CP_STRTAB_H

#include "pub_tool_basics.h"

typedef struct StrTab StrTab;

StrTab*      cp_strtab_new(void);
/* Id (from 1) of s, copying s the first time it is seen. */
UInt         cp_strtab_intern(StrTab* t, const HChar* s);
const HChar* cp_strtab_get(const StrTab* t, UInt id);
UInt         cp_strtab_count(const StrTab* t);
/* Frees the table that finds a string's id, which only interning reads:
 * ids keep their strings; no interning may follow. */
void         cp_strtab_forget_lookups(StrTab* t);
void         cp_strtab_free(StrTab* t);

#endif
