/* cycprof: a direct-mapped memo of ids keyed by one or two pointers that
 * the debug info hands out: object, directory and file names and a
 * symbol's raw (mangled) name point into its own tables, which stay put
 * while a dump is written.  A hit saves joining, demangling and interning
 * the same names again for each of a function's addresses. */
#ifndef CP_PTRMEMO_H
#define CP_PTRMEMO_H

#include "pub_tool_basics.h"
#include "cp_wordmap.h"

#define CP_PTRMEMO_SLOTS 4096

typedef struct {
   const void* a;
   const void* b;
   UInt        id;   /* 0: empty */
} PtrMemoSlot;

/* The slot of (a, b) in memo[CP_PTRMEMO_SLOTS]. */
static inline PtrMemoSlot* cp_ptrmemo_slot(PtrMemoSlot* memo, const void* a,
                                           const void* b)
{
   return &memo[cp_hash_word((UWord)a * 31 ^ (UWord)b)
                & (CP_PTRMEMO_SLOTS - 1)];
}

/* The id the slot holds for (a, b), 0 when it holds another's. */
static inline UInt cp_ptrmemo_id(const PtrMemoSlot* s, const void* a,
                                 const void* b)
{
   return s->a == a && s->b == b ? s->id : 0;
}

static inline UInt cp_ptrmemo_set(PtrMemoSlot* s, const void* a,
                                  const void* b, UInt id)
{
   s->a = a;
   s->b = b;
   s->id = id;
   return id;
}

#endif
