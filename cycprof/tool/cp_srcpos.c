/* cycprof: what the debug info says about a code address. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "cp_srcpos.h"
#include "cp_types.h"


const HChar* cp_pseudo_name(Addr a)
{
   static HChar buf[32];
   VG_(snprintf)(buf, sizeof buf, "<signal %d>",
                 (Int)(a - CP_SIGNAL_PSEUDO(0)));
   return buf;
}

SrcPos cp_srcpos_of(StrTab* names, Addr a)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   const HChar *obj, *file, *dir, *fn;
   SrcPos p;
   p.line = 0;
   if (CP_IS_PSEUDO(a)) {
      p.obj = p.file = cp_strtab_intern(names, CP_UNKNOWN_NAME);
      p.fn = cp_strtab_intern(names, cp_pseudo_name(a));
      return p;
   }
   p.obj = cp_strtab_intern(names,
                            VG_(get_objname)(ep, a, &obj) ? obj : CP_UNKNOWN_NAME);
   /* Same file naming as cachegrind, so per-function keys compare. */
   if (VG_(get_filename_linenum)(ep, a, &file, &dir, &p.line)) {
      if (dir[0]) {
         HChar path[4096];
         VG_(snprintf)(path, sizeof path, "%s/%s", dir, file);
         p.file = cp_strtab_intern(names, path);
      } else {
         p.file = cp_strtab_intern(names, file);
      }
   } else {
      p.file = cp_strtab_intern(names, CP_UNKNOWN_NAME);
   }
   p.fn = cp_strtab_intern(names, VG_(get_fnname)(ep, a, &fn) ? fn : CP_UNKNOWN_NAME);
   return p;
}
