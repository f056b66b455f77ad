/* cycprof: superblocks of one function class (cp_st_classes.h). */
#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"
#include "cp_array.h"
#include "cp_heap.h"
#include "cp_sbinfo.h"
#include "cp_st_classes.h"

/* Whether superblock k's code that ever ran is all at one location
 * without a symbol, in one object (simple): whatever name a context gives
 * it, one name for all of it (cp_st_name_superblock), hence one location.
 * A program without symbols or line info (cc1plus) has nearly only such
 * superblocks. */
static Bool of_one_unnamed_location(const SuperblockLocations* sl, UInt k)
{
   const SuperblockFacts* f = &sl->facts[k];
   const UInt* loc = sl->loc + sl->first[k];
   UInt i;
   if (f->first_unnamed != 0 || !f->simple) return False;
   for (i = 1; i < f->n_ran; i++)
      if (loc[i] != loc[0]) return False;
   return True;
}

/* Whether superblock k's code that ever ran is of one class, all named,
 * or all at one unnamed location (named per context). */
static Bool of_one_class(const SuperblockLocations* sl, const UInt* class_of,
                         UInt k)
{
   const SuperblockFacts* f = &sl->facts[k];
   const UInt* loc = sl->loc + sl->first[k];
   UInt i;
   if (f->n_ran == 0) return False;
   if (f->first_unnamed < f->n_ran) return of_one_unnamed_location(sl, k);
   for (i = 0; i < f->n_ran; i++)
      if (loc[i] == 0 || class_of[loc[i]] != class_of[loc[0]]) return False;
   return True;
}

void cp_st_classes_init(ClassSuperblocks* cs, const SuperblockLocations* sl,
                        const UInt* class_of)
{
   UInt n_sbs = cp_sbinfo_count(), k, i, e, used = 0, capacity = 1024;
   cs->first = cp_heap_malloc("cp.st.classes", (n_sbs + 1) * sizeof(UInt));
   cs->at = cp_heap_malloc("cp.st.classes.at",
                        capacity * sizeof(PrefixLocation));
   for (k = 0; k < n_sbs; k++) {
      const UInt* loc = sl->loc + sl->first[k];
      cs->first[k] = used;
      if (!of_one_class(sl, class_of, k)) continue;
      for (i = 0; i < sl->facts[k].n_ran; i++) {
         for (e = cs->first[k]; e < used && cs->at[e].loc != loc[i]; e++) ;
         if (e < used) continue;
         cs->at = cp_room_for_one("cp.st.classes.at", cs->at, used,
                                  &capacity, sizeof(PrefixLocation), 1024);
         cs->at[used].loc = loc[i];
         cs->at[used].first_instr = i;
         used++;
      }
   }
   cs->first[n_sbs] = used;
}

void cp_st_classes_free(ClassSuperblocks* cs)
{
   cp_heap_free(cs->first);
   cp_heap_free(cs->at);
}
