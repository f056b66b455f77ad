/* cycprof: the loaded objects (executable, libc, ld.so, ...) at exit. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "cp_heap.h"
#include "cp_objects.h"

static LoadedObject* objects;
static UInt n_objects;

static Int by_start(const void* a, const void* b)
{
   Addr x = ((const LoadedObject*)a)->start;
   Addr y = ((const LoadedObject*)b)->start;
   return x < y ? -1 : x > y ? 1 : 0;
}

static ULong file_offset_of(Addr start)
{
   NSegment const* seg = VG_(am_find_nsegment)(start);
   if (!seg || seg->kind != SkFileC) return 0;
   return seg->offset + (start - seg->start);
}

void cp_objects_collect(void)
{
   const DebugInfo* di;
   UInt n = 0;
   for (di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di))
      n++;
   /* Collected again by every dump (CALLGRIND_DUMP_STATS). */
   if (objects) cp_heap_free(objects);
   n_objects = 0;
   objects = cp_heap_calloc("cp.objects", n ? n : 1, sizeof(LoadedObject));
   for (di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di)) {
      LoadedObject* o = &objects[n_objects];
      SizeT size = VG_(DebugInfo_get_text_size)(di);
      if (size == 0) continue;
      o->start = VG_(DebugInfo_get_text_avma)(di);
      o->limit = o->start + size;
      o->bias = VG_(DebugInfo_get_text_bias)(di);
      o->file_offset = file_offset_of(o->start);
      o->path = VG_(DebugInfo_get_filename)(di);
      n_objects++;
   }
   VG_(ssort)(objects, n_objects, sizeof(LoadedObject), by_start);
}

UInt cp_objects_count(void)
{
   return n_objects;
}

const LoadedObject* cp_object(UInt index)
{
   return &objects[index];
}

Int cp_object_index_of(Addr a)
{
   Int lo = 0, hi = (Int)n_objects - 1;
   while (lo <= hi) {
      Int mid = (lo + hi) / 2;
      if (a < objects[mid].start) hi = mid - 1;
      else if (a >= objects[mid].limit) lo = mid + 1;
      else return mid;
   }
   return -1;
}

/* The object of a when it lies outside every object's text: the one of
 * the file Valgrind names for a whose text is nearest to a (a file
 * mapped twice has two). */
static Int object_by_name(Addr a)
{
   const HChar* path;
   Int best = -1;
   Addr best_distance = 0;
   UInt k;
   if (!VG_(get_objname)(VG_(current_DiEpoch)(), a, &path)) return -1;
   for (k = 0; k < n_objects; k++) {
      Addr d;
      if (!objects[k].path || VG_(strcmp)(objects[k].path, path) != 0)
         continue;
      d = a < objects[k].start ? objects[k].start - a : a - objects[k].start;
      if (best < 0 || d < best_distance) {
         best = (Int)k;
         best_distance = d;
      }
   }
   return best;
}

void cp_object_code_name(Addr a, HChar* buf, SizeT size)
{
   Int obj = cp_object_index_of(a);
   const HChar *path, *slash;
   if (obj < 0) obj = object_by_name(a);
   if (obj < 0) {
      VG_(snprintf)(buf, size, "0x%lx", a);
      return;
   }
   path = objects[obj].path ? objects[obj].path : "???";
   slash = VG_(strrchr)(path, '/');
   VG_(snprintf)(buf, size, "%s+0x%lx", slash ? slash + 1 : path,
                 a - objects[obj].bias);
}
