/* cycprof: which function an address belongs to, as the shadow stack sees it. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "cp_addrmap.h"
#include "cp_arch.h"
#include "cp_functions.h"
#include "cp_inline_info.h"

/* Exported by the core but missing from the tool headers of 3.19. */
extern Bool VG_(get_inst_offset_in_function)(DiEpoch ep, Addr a,
                                             PtrdiffT* offset);

static AddrMap function_of_addr;   /* address -> function entry */
static AddrMap trampoline_flag;    /* function entry -> 1 + is_trampoline */

void cp_functions_init(void)
{
   cp_addrmap_init(&function_of_addr, 256);
   cp_addrmap_init(&trampoline_flag, 64);
}

Addr cp_function_of(Addr a)
{
   UWord* known = cp_addrmap_find(&function_of_addr, a);
   Addr fn;
   if (known) return *known;
   if (!cp_function_named(a, &fn)) fn = a;
   cp_addrmap_put(&function_of_addr, a, fn);
   return fn;
}

Bool cp_function_named(Addr a, Addr* fn)
{
   PtrdiffT offset;
   cp_inline_info_before_lookup(a);
   if (!VG_(get_inst_offset_in_function)(VG_(current_DiEpoch)(), a, &offset)
       || offset < 0)
      return False;
   *fn = a - offset;
   return True;
}

Bool cp_is_function_entry(Addr a)
{
   const HChar* name;
   cp_inline_info_before_lookup(a);
   return VG_(get_fnname_if_entry)(VG_(current_DiEpoch)(), a, &name);
}

static Bool looks_like_resolver(const HChar* name)
{
   return VG_(strncmp)(name, "_dl_runtime_resolve", 19) == 0
       || VG_(strncmp)(name, "_dl_runtime_profile", 19) == 0;
}

Bool cp_is_trampoline(Addr fn)
{
   UWord* known = cp_addrmap_find(&trampoline_flag, fn);
   const HChar* name;
   Bool is;
   if (known) return *known == 2;
   cp_inline_info_before_lookup(fn);
   is = VG_(DebugInfo_sect_kind)(NULL, fn) == Vg_SectPLT
        || cp_arch_is_plt_stub(fn)
        || (VG_(get_fnname)(VG_(current_DiEpoch)(), fn, &name)
            && looks_like_resolver(name));
   cp_addrmap_put(&trampoline_flag, fn, is ? 2 : 1);
   return is;
}
