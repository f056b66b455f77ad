/* cycprof: the static facts of translated superblocks (cp_sbinfo.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_arena.h"
#include "cp_array.h"
#include "cp_functions.h"
#include "cp_owners.h"
#include "cp_sbinfo.h"

/* n_instrs, n_exits and wide exit facts are 16 bits. */
STATIC_ASSERT(CP_MAX_SB_INSTRS <= 65535);

/* Every SBInfo, by id; kept because cost centers point in. */
SBInfo** cp_sbinfos;
UInt     cp_n_sbinfos;
static UInt sbinfos_capacity;

static void register_sbinfo(SBInfo* sb)
{
   cp_sbinfos = cp_room_for_one("cp.sbinfos", cp_sbinfos, cp_n_sbinfos,
                                &sbinfos_capacity, sizeof(SBInfo*), 256);
   sb->id = cp_n_sbinfos;
   cp_sbinfos[cp_n_sbinfos++] = sb;
}

/* The instruction addresses of `in` and its exit groups.  Exits that
 * leave after the same number of instructions share one group (one
 * counter): the instructions they stand for are the same.  Most
 * superblocks end in a conditional branch whose side exit and final exit
 * both come after the last instruction, so they need a single counter. */
typedef struct {
   UInt  n_instrs, n_exits;
   Addr  addr[CP_MAX_SB_INSTRS];
   UInt  exit_ninstrs[CP_MAX_SB_INSTRS];
} Shape;

static void read_shape(const IRSB* in, Shape* s)
{
   UInt i;
   s->n_instrs = s->n_exits = 0;
   for (i = 0; i < (UInt)in->stmts_used; i++) {
      const IRStmt* st = in->stmts[i];
      if (st->tag == Ist_IMark) {
         tl_assert(s->n_instrs < CP_MAX_SB_INSTRS);
         s->addr[s->n_instrs++] = (Addr)st->Ist.IMark.addr;
      }
      if (cp_sbinfo_exit_before_first_instr(s->n_instrs, st)) continue;
      if (st->tag == Ist_Exit
          && (s->n_exits == 0
              || s->exit_ninstrs[s->n_exits - 1] != s->n_instrs))
         s->exit_ninstrs[s->n_exits++] = s->n_instrs;
   }
   if (s->n_instrs > 0
       && (s->n_exits == 0
           || s->exit_ninstrs[s->n_exits - 1] != s->n_instrs))
      s->exit_ninstrs[s->n_exits++] = s->n_instrs;
}

static Bool offsets_fit_a_byte(const Shape* s)
{
   UInt i;
   for (i = 0; i < s->n_instrs; i++)
      if (s->addr[i] < s->addr[0] || s->addr[i] - s->addr[0] > 255)
         return False;
   return True;
}

static SBInfo* store_shape(const Shape* s)
{
   Bool wide = !offsets_fit_a_byte(s);
   Bool wide_counts = s->n_instrs > 255;
   UInt count_bytes = wide_counts ? 2 : 1;
   SizeT exits_end = offsetof(SBInfo, facts) + count_bytes * s->n_exits;
   SizeT size = wide ? VG_ROUNDUP(exits_end, sizeof(Addr))
                       + s->n_instrs * sizeof(Addr)
                     : exits_end + s->n_instrs;
   SBInfo* sb = cp_arena_alloc(size);
   UChar* offsets;
   UInt i;
   sb->addr = s->addr[0];
   sb->n_instrs = s->n_instrs;
   sb->n_exits = s->n_exits;
   sb->wide_addrs = wide;
   sb->wide_counts = wide_counts;
   for (i = 0; i < s->n_exits; i++) {
      sb->facts[count_bytes * i] = (UChar)s->exit_ninstrs[i];
      if (wide_counts)
         sb->facts[2 * i + 1] = (UChar)(s->exit_ninstrs[i] >> 8);
   }
   offsets = (UChar*)cp_sb_addr_facts(sb);
   if (wide)
      VG_(memcpy)((Addr*)cp_sb_wide_addrs(sb), s->addr,
                  s->n_instrs * sizeof(Addr));
   else
      for (i = 0; i < s->n_instrs; i++)
         offsets[i] = (UChar)(s->addr[i] - sb->addr);
   /* Cheap next to the translation, and it checks every layout on
    * every superblock. */
   for (i = 0; i < s->n_exits; i++)
      tl_assert(cp_sb_exit_ninstrs(sb, i) == s->exit_ninstrs[i]);
   for (i = 0; i < s->n_instrs; i++)
      tl_assert(cp_sb_instr_addr(sb, i) == s->addr[i]);
   return sb;
}

SBInfo* cp_sbinfo_describe(const IRSB* in, UInt frame_owner)
{
   Shape shape;
   Addr owner_fn;
   SBInfo* sb;
   read_shape(in, &shape);
   if (shape.n_instrs == 0) return NULL;

   sb = store_shape(&shape);
   register_sbinfo(sb);   /* its id first: the owner's counters name it */
   sb->is_fn_entry = cp_is_function_entry(sb->addr);
   /* Code without a symbol belongs to the frame it is first run in: to
    * the owner that frame counts with, which is not always its function's
    * own (cp_owner_of_frame). */
   cp_owner_take(cp_function_named(sb->addr, &owner_fn)
                    ? cp_owner_id(owner_fn) : frame_owner, sb);
   return sb;
}
