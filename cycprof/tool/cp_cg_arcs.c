/* cycprof: the cost of each call line (see cp_cg_arcs.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_addrmap.h"
#include "cp_cg_arcs.h"
#include "cp_context.h"

typedef struct {
   UInt id;
   Int  fn;        /* function index, -1 for a root */
   Bool outermost; /* this node set outer_depth[fn] */
} PathEntry;

typedef struct {
   UInt id, depth;
} Pending;

struct ArcWalk {
   ULong*     arc;          /* [n + 1] */
   UChar*     inner;        /* [n + 1] */
   UInt*      first_child;  /* [n + 1] */
   UInt*      next_sibling; /* [n + 1] */
   Pending*   todo;         /* depth-first work list */
   UInt       n_todo;
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
   w->keys = VG_(calloc)("cp.arcs.keys", w->key_capacity, sizeof(ULong));
   w->key_index = VG_(malloc)("cp.arcs.kidx", w->key_capacity * sizeof(UInt));
   for (k = 0; k < old; k++)
      if (old_keys[k]) {
         UWord s = key_slot(w, old_keys[k]);
         w->keys[s] = old_keys[k];
         w->key_index[s] = old_index[k];
      }
   if (old_keys) VG_(free)(old_keys);
   if (old_index) VG_(free)(old_index);
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
         w->outer_depth = VG_(realloc)("cp.arcs.outer", w->outer_depth,
                                       w->outer_capacity * sizeof(Int));
         for (k = old; k < w->outer_capacity; k++) w->outer_depth[k] = -1;
      }
      w->keys[s] = key;
      w->key_index[s] = w->n_keys++;
   }
   return (Int)w->key_index[s];
}

ArcWalk* cp_arcs_begin(const ULong* inclusive)
{
   UInt n = cp_context_count(), id;
   ArcWalk* w = VG_(calloc)("cp.arcs", 1, sizeof(ArcWalk));
   w->arc = VG_(malloc)("cp.arcs.arc", (n + 1) * sizeof(ULong));
   VG_(memcpy)(w->arc, inclusive, (n + 1) * sizeof(ULong));
   w->inner = VG_(calloc)("cp.arcs.inner", n + 1, 1);
   w->first_child = VG_(calloc)("cp.arcs.child", n + 1, sizeof(UInt));
   w->next_sibling = VG_(calloc)("cp.arcs.sib", n + 1, sizeof(UInt));
   w->todo = VG_(malloc)("cp.arcs.todo", (n + 1) * sizeof(Pending));
   for (id = n; id >= 1; id--) {
      const Context* c = cp_context_by_id(id);
      if (c->parent_id) {
         w->next_sibling[id] = w->first_child[c->parent_id];
         w->first_child[c->parent_id] = id;
      } else {
         w->todo[w->n_todo].id = id;
         w->todo[w->n_todo++].depth = 0;
      }
   }
   return w;
}

static void leave_path_to(ArcWalk* w, UInt depth)
{
   while (w->depth > depth) {
      PathEntry* p = &w->path[--w->depth];
      if (p->outermost) w->outer_depth[p->fn] = -1;
   }
}

const Context* cp_arcs_next(ArcWalk* w)
{
   Pending next;
   UInt child;
   if (w->n_todo == 0) {
      leave_path_to(w, 0);
      return NULL;
   }
   next = w->todo[--w->n_todo];
   leave_path_to(w, next.depth);
   if (w->depth == w->path_capacity) {
      w->path_capacity = w->path_capacity ? 2 * w->path_capacity : 256;
      w->path = VG_(realloc)("cp.arcs.path", w->path,
                             w->path_capacity * sizeof(PathEntry));
   }
   w->path[w->depth].id = next.id;
   w->path[w->depth].fn = -1;
   w->path[w->depth].outermost = False;
   w->depth++;
   for (child = w->first_child[next.id]; child;
        child = w->next_sibling[child]) {
      w->todo[w->n_todo].id = child;
      w->todo[w->n_todo++].depth = next.depth + 1;
   }
   return cp_context_by_id(next.id);
}

void cp_arcs_set_function(ArcWalk* w, ULong fn_key)
{
   PathEntry* p = &w->path[w->depth - 1];
   if (fn_key == 0) return;
   p->fn = function_index(w, fn_key);
   if (w->outer_depth[p->fn] >= 0) {
      w->inner[p->id] = 1;
   } else {
      w->outer_depth[p->fn] = (Int)(w->depth - 1);
      p->outermost = True;
   }
}

Bool cp_arcs_active(ArcWalk* w, ULong fn_key)
{
   return w->outer_depth[function_index(w, fn_key)] >= 0;
}

ULong* cp_arcs_finish(ArcWalk* w)
{
   UInt id, n = cp_context_count();
   ULong* arc = w->arc;
   for (id = 1; id <= n; id++)
      if (w->inner[id]) arc[id] = 0;
   VG_(free)(w->inner);
   VG_(free)(w->first_child);
   VG_(free)(w->next_sibling);
   VG_(free)(w->todo);
   VG_(free)(w->path);
   VG_(free)(w->keys);
   VG_(free)(w->key_index);
   VG_(free)(w->outer_depth);
   VG_(free)(w);
   return arc;
}
