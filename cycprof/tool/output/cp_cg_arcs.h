/* cycprof: the cost each call line of the callgrind file carries, so that
 * a function's inclusive cost as callgrind_annotate, KCachegrind and
 * `cycprof report` compute it (the sum of the calls it receives) is
 * exactly the number of instructions run while it was active, through
 * recursion of any shape.
 *
 * A function is active in the subtrees of its outermost nodes on each
 * chain, and those subtrees are disjoint.  So the call into a node
 * carries the node's inclusive cost when the node is the outermost of
 * its function on its chain, and nothing when the function is active
 * further up already (an inner activation of mutual recursion): the
 * outer call counts it.  Code of another function run in a frame is
 * charged the same way.  See docs/attribution.md. */
#ifndef CP_CG_ARCS_H
#define CP_CG_ARCS_H

#include "pub_tool_basics.h"
#include "cp_types.h"

typedef struct ArcWalk ArcWalk;

/* Walks every context depth-first; inclusive[id] is each context's
 * inclusive cost, and becomes the cost of the call line into it as the
 * walk goes (no copy: it is 8 bytes per context). */
ArcWalk* cp_arcs_begin(ULong* inclusive);
/* The next context, or NULL at the end.  fn_key names the function of
 * its frame (0 for a root: no function). */
const Context* cp_arcs_next(ArcWalk* w);
void  cp_arcs_set_function(ArcWalk* w, ULong fn_key);
/* Function fn_key is active in the current context or above it. */
Bool  cp_arcs_active(ArcWalk* w, ULong fn_key);
/* Frees the walk; once it has visited every context, inclusive[id] is
 * the cost of the call line into context id. */
void  cp_arcs_finish(ArcWalk* w);

#endif
