/* cycprof: the cost of each call line (see cp_cg_arcs.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_addrmap.h"
#include "cp_array.h"
#include "cp_cg_arcs.h"
#include "cp_context.h"
#include "cp_heap.h"

/* One context of the current chain, and where its walk stands. */
typedef struct {
   UInt id;
   UInt next_child; /* the next child to visit, 0: none left */
   Int  fn;         /* function index, -1 for a root */
   Bool outermost;  /* this node set outer_depth[fn] */
} PathEntry;

/* Depth-first, each node before its children, the children from the
 * highest id down and the roots from the lowest id up: the order names
 * are first met in decides their numbers in the file, so it stays the
 * one the file has always been written in.  The work list is the chain
 * itself (bounded by the depth, not by the number of contexts). */
struct ArcWalk {
   ULong*     arc;          /* [n + 1], the caller's inclusive costs */
   UInt*      first_child;  /* [n + 1], the highest id first */
   UInt*      next_sibling; /* [n + 1], the next lower id; roots: higher */
   UInt       next_root;    /* 0: no more roots */
   /* Grafts (cp_context_graft) are walked after the roots, in id order,
    * each below its parent's chain again: in the order the trees of
    * region sets of their own were walked in, which named code. */
   UInt       next_graft;   /* 0: no more; the next in next_sibling */
   Int*       fn_of;        /* [n + 1], the function index a node set */
   PathEntry* path;         /* the chain of the current context */
   UInt       depth, path_capacity;
   /* Function keys -> dense indexes, and per index the depth of its
    * outermost node on the current path (-1: not active). */
   ULong*     keys;         /* [key_capacity], 0: empty */
   UInt*      key_index;
   UInt       key_capacity, n_keys;
   Int*       outer_depth;  /* [n_keys capacity] */
   UInt       outer_capacity;
};

static UWord key_slot(const ArcWalk* w, ULong key)
{
   UWord mask = w->key_capacity - 1, i = cp_hash_word((UWord)key) & mask;
   while (w->keys[i] && w->keys[i] != key) i = (i + 1) & mask;
   return i;
}

static void grow_keys(ArcWalk* w)
{
   ULong* old_keys = w->keys;
   UInt* old_index = w->key_index;
   UInt k, old = w->key_capacity;
   w->key_capacity = old ? 2 * old : 1024;
   w->keys = cp_heap_calloc("cp.arcs.keys", w->key_capacity, sizeof(ULong));
   w->key_index = cp_heap_malloc("cp.arcs.kidx", w->key_capacity * sizeof(UInt));
   for (k = 0; k < old; k++)
      if (old_keys[k]) {
         UWord s = key_slot(w, old_keys[k]);
         w->keys[s] = old_keys[k];
         w->key_index[s] = old_index[k];
      }
   if (old_keys) cp_heap_free(old_keys);
   if (old_index) cp_heap_free(old_index);
}

static Int function_index(ArcWalk* w, ULong key)
{
   UWord s;
   if (2 * (w->n_keys + 1) > w->key_capacity) grow_keys(w);
   s = key_slot(w, key);
   if (!w->keys[s]) {
      if (w->n_keys == w->outer_capacity) {
         UInt k, old = w->outer_capacity;
         w->outer_capacity = old ? 2 * old : 1024;
         w->outer_depth = cp_heap_realloc("cp.arcs.outer", w->outer_depth,
                                       w->outer_capacity * sizeof(Int));
         for (k = old; k < w->outer_capacity; k++) w->outer_depth[k] = -1;
      }
      w->keys[s] = key;
      w->key_index[s] = w->n_keys++;
   }
   return (Int)w->key_index[s];
}

/* Children are linked in from the lowest id up, each in front of the
 * ones before it; roots are appended, so they stay in id order. */
static void link_children(ArcWalk* w, UInt n)
{
   UInt id, last_root = 0, last_graft = 0;
   for (id = 1; id <= n; id++) {
      const Context* c = cp_context_by_id(id);
      if (cp_context_is_graft(c)) {
         if (last_graft) w->next_sibling[last_graft] = id;
         else w->next_graft = id;
         last_graft = id;
      } else if (c->parent_id) {
         w->next_sibling[id] = w->first_child[c->parent_id];
         w->first_child[c->parent_id] = id;
      } else {
         if (last_root) w->next_sibling[last_root] = id;
         else w->next_root = id;
         last_root = id;
      }
   }
}

ArcWalk* cp_arcs_begin(ULong* inclusive)
{
   UInt n = cp_context_count();
   ArcWalk* w = cp_heap_calloc("cp.arcs", 1, sizeof(ArcWalk));
   w->arc = inclusive;
   w->first_child = cp_heap_calloc("cp.arcs.child", n + 1, sizeof(UInt));
   w->next_sibling = cp_heap_calloc("cp.arcs.sib", n + 1, sizeof(UInt));
   w->fn_of = cp_heap_malloc("cp.arcs.fnof", (n + 1) * sizeof(Int));
   VG_(memset)(w->fn_of, 0xff, (n + 1) * sizeof(Int));   /* -1: none */
   link_children(w, n);
   return w;
}

static void leave_path_to(ArcWalk* w, UInt depth)
{
   while (w->depth > depth) {
      PathEntry* p = &w->path[--w->depth];
      if (p->outermost) w->outer_depth[p->fn] = -1;
   }
}

static void enter(ArcWalk* w, UInt id)
{
   PathEntry* p;
   w->path = cp_room_for_one("cp.arcs.path", w->path, w->depth,
                             &w->path_capacity, sizeof(PathEntry), 256);
   p = &w->path[w->depth++];
   p->id = id;
   p->next_child = w->first_child[id];
   p->fn = -1;
   p->outermost = False;
}

/* The chain a graft hangs from, as the walk left it: its functions are
 * active above the graft's frames. */
static void enter_chain_of(ArcWalk* w, UInt id)
{
   UInt from = w->depth, k;
   for (; id; id = cp_context_by_id(id)->parent_id) {
      enter(w, id);
      w->path[w->depth - 1].next_child = 0;
   }
   /* Entered innermost first: turned round, outermost first. */
   for (k = 0; from + k < w->depth - 1 - k; k++) {
      PathEntry t = w->path[from + k];
      w->path[from + k] = w->path[w->depth - 1 - k];
      w->path[w->depth - 1 - k] = t;
   }
   for (k = from; k < w->depth; k++) {
      PathEntry* p = &w->path[k];
      p->fn = w->fn_of[p->id];
      if (p->fn >= 0 && w->outer_depth[p->fn] < 0) {
         w->outer_depth[p->fn] = (Int)k;
         p->outermost = True;
      }
   }
}

const Context* cp_arcs_next(ArcWalk* w)
{
   UInt id;
   /* Back up to the deepest context with a child left to visit. */
   while (w->depth > 0 && w->path[w->depth - 1].next_child == 0)
      leave_path_to(w, w->depth - 1);
   if (w->depth > 0) {
      PathEntry* top = &w->path[w->depth - 1];
      id = top->next_child;
      top->next_child = w->next_sibling[id];
   } else if (w->next_root) {
      id = w->next_root;
      w->next_root = w->next_sibling[id];
   } else if (w->next_graft) {
      id = w->next_graft;
      w->next_graft = w->next_sibling[id];
      enter_chain_of(w, cp_context_by_id(id)->parent_id);
   } else {
      return NULL;
   }
   enter(w, id);
   return cp_context_by_id(id);
}

void cp_arcs_set_function(ArcWalk* w, ULong fn_key)
{
   PathEntry* p = &w->path[w->depth - 1];
   if (fn_key == 0) return;
   p->fn = function_index(w, fn_key);
   w->fn_of[p->id] = p->fn;
   if (w->outer_depth[p->fn] >= 0) {
      /* An inner activation: the outer call counts it. */
      w->arc[p->id] = 0;
   } else {
      w->outer_depth[p->fn] = (Int)(w->depth - 1);
      p->outermost = True;
   }
}

Bool cp_arcs_active(ArcWalk* w, ULong fn_key)
{
   return w->outer_depth[function_index(w, fn_key)] >= 0;
}

void cp_arcs_finish(ArcWalk* w)
{
   cp_heap_free(w->first_child);
   cp_heap_free(w->next_sibling);
   cp_heap_free(w->fn_of);
   cp_heap_free(w->path);
   cp_heap_free(w->keys);
   cp_heap_free(w->key_index);
   cp_heap_free(w->outer_depth);
   cp_heap_free(w);
}
