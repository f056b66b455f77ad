/* cycprof: (parent, edge) -> the context made for it; an edge is a
 * (call site, function) pair, interned (cp_context_edge).
 *
 * Looked up at every call-site cache miss (cc1plus: 49 M times among
 * 4 M contexts), so a lookup should cost one cache miss in the table and
 * one in the context it wants; and it holds an entry per context, so an
 * entry should cost few bytes.  Cache-line buckets of 12 context ids,
 * each with a byte of its key's hash, give both: 5.3 bytes an entry, and
 * the contexts of other keys are rarely read.  Keys are the parent and
 * edge the context keeps, so checking one reads it alone (by
 * its id, cp_context_store.h); the parent is compared by address.  A
 * direct-mapped cache of the ids of the contexts found last (2 MB)
 * answers most lookups with one miss at most.  A context made right
 * after its parent, its first child, is not in the table: it is found
 * beside the parent (a region set's new tree adds nothing). */
#ifndef CP_CHILDREN_H
#define CP_CHILDREN_H

#include "pub_tool_basics.h"
#include "cp_types.h"

UWord    cp_children_hash(const Context* parent, UInt edge);
void     cp_children_init(void);
/* The context with that key, hash being cp_children_hash of it, or NULL. */
Context* cp_children_find(const Context* parent, UInt edge, UWord hash);
/* c, of that id: its own parent and edge are its key; not there yet. */
void     cp_children_add(const Context* c, UInt id);
ULong    cp_children_bytes(void);
/* After this, nothing may be found or added (the final dump). */
void     cp_children_free(void);

#endif
