/* cycprof: architecture-specific recognition of code. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_vki.h"
#include "cp_arch.h"

#if defined(VGA_arm64)
/* The PLT entry GNU ld and lld write for arm64, optionally after a
 * `bti c`: adrp x16, GOT page; ldr x17, [x16, slot]; add x16, x16, slot;
 * br x17.  Matched with the immediates masked out. */
static Bool is_plt_entry_at(const UInt* insn)
{
   return (insn[0] & 0x9f00001fu) == 0x90000010u
       && (insn[1] & 0xffc003ffu) == 0xf9400211u
       && (insn[2] & 0xffc003ffu) == 0x91000210u
       && insn[3] == 0xd61f0220u;
}

Bool cp_arch_is_plt_stub(Addr a)
{
   const UInt bti_c = 0xd503245fu;
   const UInt* insn = (const UInt*)a;
   if ((a & 3) || !VG_(am_is_valid_for_client)(a, 5 * sizeof(UInt),
                                                VKI_PROT_READ))
      return False;
   return is_plt_entry_at(insn) || (insn[0] == bti_c && is_plt_entry_at(insn + 1));
}

/* BL imm26, and BLR/BLRAA/BLRAAZ/BLRAB/BLRABZ Rn (the register forms
 * differ only in their pointer-authentication bits). */
Bool cp_arch_insn_calls(Addr a)
{
   UInt insn;
   if ((a & 3) || !VG_(am_is_valid_for_client)(a, sizeof(UInt), VKI_PROT_READ))
      return True;   /* cannot tell: keep Valgrind's word */
   insn = *(const UInt*)a;
   return (insn & 0xfc000000u) == 0x94000000u
       || (insn & 0xfefff000u) == 0xd63f0000u;
}
#else
/* Valgrind knows the PLT sections of x86 objects (Vg_SectPLT). */
Bool cp_arch_is_plt_stub(Addr a)
{
   (void)a;
   return False;
}

/* x86 front ends mark only `call` as Ijk_Call. */
Bool cp_arch_insn_calls(Addr a)
{
   (void)a;
   return True;
}
#endif
