/* cycprof: where contexts live.  Contexts by id, in chunks of their own:
 * id -> address is arithmetic (no table of 8-byte pointers), and walks by
 * id read memory in order.  Ids run from 1, in creation order.  A
 * context's id is where it lies, not a field: address -> id looks its
 * chunk up among the chunks' addresses (cp_context_id), which only the
 * making of a context and cold paths need.  Below both the context tree
 * (cp_context.h), which makes them, and the table that finds them by key
 * (cp_children.h). */
#ifndef CP_CONTEXT_STORE_H
#define CP_CONTEXT_STORE_H

#include "pub_tool_basics.h"
#include "cp_types.h"

/* A zeroed context with the next id, cp_context_count() once made. */
Context*    cp_context_store_next(void);

UInt        cp_context_count(void);
ULong       cp_context_bytes(void);      /* the contexts themselves */
Context*    cp_context_by_id(UInt id);   /* ids run from 1 to count */
UInt        cp_context_id(const Context* c);

/* Contexts live in chunks by id: the id gives the address.  Each chunk
 * ends with a context that is never made, zero: the one after any
 * context may be read (cp_children.c's first-born check). */
#define CP_CONTEXT_CHUNK_SHIFT 14
extern Context** cp_context_chunks;

/* cp_context_by_id without the check, for the hot paths. */
static inline Context* cp_context_at(UInt id)
{
   return &cp_context_chunks[id >> CP_CONTEXT_CHUNK_SHIFT]
                            [id & ((1u << CP_CONTEXT_CHUNK_SHIFT) - 1)];
}

#endif
