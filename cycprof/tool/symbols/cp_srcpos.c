/* cycprof: what the debug info says about a code address. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "cp_pseudo.h"
#include "cp_ptrmemo.h"
#include "cp_srcpos.h"


const HChar* cp_pseudo_name(Addr a)
{
   static HChar buf[32];
   VG_(snprintf)(buf, sizeof buf, "<signal %d>",
                 (Int)(a - CP_SIGNAL_PSEUDO(0)));
   return buf;
}

/* Ids of joined directory and file names, and of functions by their raw
 * names (cp_ptrmemo.h; cc1plus: demangling took most of the time spent
 * naming a million addresses), tied to one string table. */
static PtrMemoSlot   path_memo[CP_PTRMEMO_SLOTS];
static PtrMemoSlot   function_memo[CP_PTRMEMO_SLOTS];
static const StrTab* memo_table;

/* A later dump's table may get a freed one's address. */
void cp_srcpos_forget(void)
{
   memo_table = NULL;
}

static void memos_for(const StrTab* names)
{
   if (memo_table == names) return;
   VG_(memset)(path_memo, 0, sizeof path_memo);
   VG_(memset)(function_memo, 0, sizeof function_memo);
   memo_table = names;
}

static UInt cached_intern(StrTab* names, const HChar* dir, const HChar* file)
{
   PtrMemoSlot* m = cp_ptrmemo_slot(path_memo, dir, file);
   HChar path[4096];
   UInt id;
   memos_for(names);
   if ((id = cp_ptrmemo_id(m, dir, file))) return id;
   if (dir && dir[0]) {
      VG_(snprintf)(path, sizeof path, "%s/%s", dir, file);
      id = cp_strtab_intern(names, path);
   } else {
      id = cp_strtab_intern(names, file);
   }
   return cp_ptrmemo_set(m, dir, file, id);
}

/* The demangled name comes from a reused buffer: it is interned at once,
 * and only its id kept. */
static UInt function_name_id(StrTab* names, DiEpoch ep, Addr a)
{
   const HChar *raw, *fn;
   PtrMemoSlot* m;
   UInt id;
   if (!VG_(get_fnname_raw)(ep, a, &raw))
      return cp_strtab_intern(names, VG_(get_fnname)(ep, a, &fn)
                                     ? fn : CP_UNKNOWN_NAME);
   memos_for(names);
   m = cp_ptrmemo_slot(function_memo, raw, NULL);
   if ((id = cp_ptrmemo_id(m, raw, NULL))) return id;
   return cp_ptrmemo_set(m, raw, NULL,
                         cp_strtab_intern(names, VG_(get_fnname)(ep, a, &fn)
                                                 ? fn : CP_UNKNOWN_NAME));
}

SrcPos cp_srcpos_of(StrTab* names, Addr a)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   const HChar *obj, *file, *dir;
   SrcPos p;
   p.line = 0;
   if (CP_IS_PSEUDO(a)) {
      p.obj = p.file = cp_strtab_intern(names, CP_UNKNOWN_NAME);
      p.fn = cp_strtab_intern(names, cp_pseudo_name(a));
      return p;
   }
   p.obj = VG_(get_objname)(ep, a, &obj)
           ? cached_intern(names, NULL, obj)
           : cp_strtab_intern(names, CP_UNKNOWN_NAME);
   /* Same file naming as cachegrind, so per-function keys compare. */
   if (VG_(get_filename_linenum)(ep, a, &file, &dir, &p.line))
      p.file = cached_intern(names, dir, file);
   else
      p.file = cp_strtab_intern(names, CP_UNKNOWN_NAME);
   p.fn = function_name_id(names, ep, a);
   return p;
}
