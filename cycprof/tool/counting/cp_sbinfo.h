/* cycprof: the static facts of translated superblocks, compactly stored.
 *
 * An SBInfo is followed by its per-exit and per-instruction facts:
 *   facts[0 .. n_exits-1]   instructions done when leaving by exit group
 *                           j, one byte each; two bytes each, low byte
 *                           first, with wide_counts (a superblock of over
 *                           255 instructions, from VEX's loop unrolling
 *                           under a raised --vex-iropt-unroll-thresh);
 *   then, unless wide_addrs, each instruction's address as a byte offset
 *   from addr: with chasing off a superblock is one straight run (or a
 *   small loop VEX unrolled) of a few dozen bytes;
 *   with wide_addrs (an offset does not fit a byte: a run over 255 bytes,
 *   or an unrolled loop reaching below addr), the whole addresses at the
 *   next 8-byte boundary.
 * Read them only through the accessors below. */
#ifndef CP_SBINFO_H
#define CP_SBINFO_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "cp_types.h"

/* Most instructions a superblock can hold.  VEX's frontend stops at
 * --vex-guest-max-insns (at most 100), but its loop unrolling then
 * repeats a small loop's body up to 8 times, bounded by
 * --vex-iropt-unroll-thresh (at most 400) statements, each instruction
 * mark being one; cp_post_clo_init keeps both options within this. */
#define CP_MAX_SB_INSTRS 512

/* The facts of superblock `in`, kept to the end; NULL if it has no
 * instruction.  Called once per translation.  Code without a symbol
 * goes to frame_owner, the owner of the frame it is first run in
 * (cp_owners.h). */
SBInfo* cp_sbinfo_describe(const IRSB* in, UInt frame_owner);

/* Every superblock ever described, by id: the exit's walks look one up
 * per cost center. */
extern SBInfo** cp_sbinfos;
extern UInt     cp_n_sbinfos;
static inline UInt    cp_sbinfo_count(void) { return cp_n_sbinfos; }
static inline SBInfo* cp_sbinfo_at(UInt id) { return cp_sbinfos[id]; }

/* An exit before the first instruction (the self-check that Valgrind puts
 * in front of code that may be rewritten: JIT code, --smc-check) stands
 * for no instruction and is not counted. */
static inline Bool cp_sbinfo_exit_before_first_instr(UInt n_instrs_so_far,
                                                     const IRStmt* st)
{
   return st->tag == Ist_Exit && n_instrs_so_far == 0;
}

/* Instructions done when leaving by exit group j: increasing in j, the
 * last group's is n_instrs. */
static inline UInt cp_sb_exit_ninstrs(const SBInfo* sb, UInt j)
{
   if (LIKELY(!sb->wide_counts)) return sb->facts[j];
   return sb->facts[2 * j] | (UInt)sb->facts[2 * j + 1] << 8;
}

/* Where the instruction addresses start: after the exit facts. */
static inline const UChar* cp_sb_addr_facts(const SBInfo* sb)
{
   return sb->facts + (sb->wide_counts ? 2 : 1) * sb->n_exits;
}

static inline const Addr* cp_sb_wide_addrs(const SBInfo* sb)
{
   Addr after_exits = (Addr)cp_sb_addr_facts(sb);
   return (const Addr*)((after_exits + sizeof(Addr) - 1)
                        & ~(Addr)(sizeof(Addr) - 1));
}

/* The guest address of instruction i (0 <= i < n_instrs). */
static inline Addr cp_sb_instr_addr(const SBInfo* sb, UInt i)
{
   if (LIKELY(!sb->wide_addrs)) return sb->addr + cp_sb_addr_facts(sb)[i];
   return cp_sb_wide_addrs(sb)[i];
}

/* addr when the superblock is a function's entry, else 0. */
static inline Addr cp_sb_fn_entry(const SBInfo* sb)
{
   return sb->is_fn_entry ? sb->addr : 0;
}

#endif
