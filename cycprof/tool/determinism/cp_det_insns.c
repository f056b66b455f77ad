/* cycprof: --deterministic=yes for rdtsc, rdtscp, rdrand, rdseed and
 * cntvct_el0.
 *
 * VEX turns each into a dirty call to a helper of its own that runs the
 * real instruction.  Matching the callee by name (the names are the same
 * from Valgrind 3.19 to 3.27) and swapping in a helper with the same
 * signature gives the program the virtual clock and the seeded stream
 * instead; the IR around the call, and so what the program computes with
 * the result, stays as VEX made it. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_tooliface.h"
#include "cp_det.h"
#include "cp_det_insns.h"
#if defined(VGA_amd64)
#  include "libvex_guest_amd64.h"
#endif

#if defined(VGA_amd64)
/* A 3 GHz time-stamp counter on the virtual clock. */
static ULong virtual_tsc(void)
{
   return cp_det_monotonic_ns() * 3;
}

static ULong det_rdtsc(void)
{
   return virtual_tsc();
}

/* RDTSCP also gives IA32_TSC_AUX, which Linux sets to the CPU number. */
static void det_rdtscp(VexGuestAMD64State* st)
{
   ULong tsc = virtual_tsc();
   st->guest_RAX = tsc & 0xffffffffull;
   st->guest_RDX = tsc >> 32;
   st->guest_RCX = 0;
}

/* As VEX's helpers: 32 random bits, and the carry flag (success) above
 * them. */
static ULong det_rdrand(void)
{
   return (1ull << 32) | (cp_det_next64() & 0xffffffffull);
}
#endif

#if defined(VGA_arm64)
static ULong counter_frequency(void)
{
   ULong f;
   __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
   return f ? f : 1000000000ull;
}

/* The generic timer's count, at its real frequency, on the virtual
 * clock. */
static ULong det_cntvct(void)
{
   static ULong freq;
   ULong ns = cp_det_monotonic_ns();
   if (!freq) freq = counter_frequency();
   return (ns / 1000000000ull) * freq
          + (ns % 1000000000ull) * freq / 1000000000ull;
}
#endif

typedef struct {
   const HChar* vex_name;
   const HChar* name;
   void*        addr;
} Swap;

static const Swap swaps[] = {
#if defined(VGA_amd64)
   { "amd64g_dirtyhelper_RDTSC",  "cp_det_rdtsc",  det_rdtsc },
   { "amd64g_dirtyhelper_RDTSCP", "cp_det_rdtscp", det_rdtscp },
   { "amd64g_dirtyhelper_RDRAND", "cp_det_rdrand", det_rdrand },
   { "amd64g_dirtyhelper_RDSEED", "cp_det_rdseed", det_rdrand },
#endif
#if defined(VGA_arm64)
   { "arm64g_dirtyhelper_MRS_CNTVCT_EL0",  "cp_det_cntvct", det_cntvct },
   { "arm64g_dirtyhelper_MRS_ACNTVCT_EL0", "cp_det_cntvct", det_cntvct },
#endif
   { NULL, NULL, NULL }
};

void cp_det_rewrite_insns(IRSB* sb)
{
   Int i;
   for (i = 0; i < sb->stmts_used; i++) {
      IRStmt* st = sb->stmts[i];
      const Swap* s;
      IRDirty* d;
      if (st->tag != Ist_Dirty) continue;
      d = st->Ist.Dirty.details;
      for (s = swaps; s->vex_name; s++) {
         if (VG_(strcmp)(d->cee->name, s->vex_name) != 0) continue;
         d->cee = mkIRCallee(d->cee->regparms, s->name, s->addr);
         break;
      }
   }
}
