/* cycprof: VEX IR instrumentation.
 *
 * Guest chasing is off, so a superblock is one straight run of guest
 * instructions with side exits.  Before each exit the code adds to the
 * exit's counter (1 if taken, 0 if not: no branch); instructions per
 * address follow at dump time from which exits were taken.  Helpers run
 * only when the shadow stack changes (calls, SP rising above the top
 * frame, entering a function not through a call) or when the superblock
 * runs in another context than last time. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_xarray.h"
#include "libvex_guest_offsets.h"
#include "cp_arena.h"
#include "cp_callstack.h"
#include "cp_costs.h"
#include "cp_functions.h"
#include "cp_instrument.h"
#include "cp_types.h"

static XArray* all_sbinfos;   /* SBInfo*; kept because cost centers point in */

UInt cp_sbinfo_count(void)
{
   return all_sbinfos ? VG_(sizeXA)(all_sbinfos) : 0;
}

SBInfo* cp_sbinfo_at(UInt i)
{
   return *(SBInfo**)VG_(indexXA)(all_sbinfos, i);
}

static SBInfo* describe_superblock(const IRSB* in)
{
   UInt n_instrs = 0, n_exits = 1, i;
   SBInfo* sb;
   for (i = 0; i < (UInt)in->stmts_used; i++) {
      if (in->stmts[i]->tag == Ist_IMark) n_instrs++;
      if (in->stmts[i]->tag == Ist_Exit) n_exits++;
   }
   if (n_instrs == 0) return NULL;
   tl_assert(n_instrs <= CP_MAX_SB_INSTRS);

   sb = cp_arena_alloc(sizeof(SBInfo));
   sb->n_instrs = n_instrs;
   sb->n_exits = n_exits;
   sb->instr_addr = cp_arena_alloc(n_instrs * sizeof(Addr));
   sb->exit_ninstrs = cp_arena_alloc(n_exits * sizeof(UInt));
   n_instrs = n_exits = 0;
   for (i = 0; i < (UInt)in->stmts_used; i++) {
      const IRStmt* st = in->stmts[i];
      if (st->tag == Ist_IMark)
         sb->instr_addr[n_instrs++] = (Addr)st->Ist.IMark.addr;
      if (st->tag == Ist_Exit)
         sb->exit_ninstrs[n_exits++] = n_instrs;
   }
   sb->exit_ninstrs[n_exits] = n_instrs;
   sb->addr = sb->instr_addr[0];
   sb->fn_entry = cp_is_function_entry(sb->addr) ? sb->addr : 0;
   if (in->jumpkind == Ijk_Call)
      sb->call = cp_arena_alloc(sizeof(CallSiteCache));

   if (!all_sbinfos)
      all_sbinfos = VG_(newXA)(VG_(malloc), "cp.sbinfos", VG_(free),
                               sizeof(SBInfo*));
   sb->id = VG_(sizeXA)(all_sbinfos);
   VG_(addToXA)(all_sbinfos, &sb);
   return sb;
}

/* --- small IR builders ------------------------------------------------ */

static IRExpr* new_tmp(IRSB* out, IRType ty, IRExpr* e)
{
   IRTemp t = newIRTemp(out->tyenv, ty);
   addStmtToIRSB(out, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

static IRExpr* load64(IRSB* out, const void* where)
{
   return new_tmp(out, Ity_I64,
                  IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)where)));
}

static void call_if(IRSB* out, IRExpr* guard, Int regparms,
                    const HChar* name, void* fn, IRExpr** args)
{
   IRDirty* d = unsafeIRDirty_0_N(regparms, name,
                                  VG_(fnptr_to_fnentry)(fn), args);
   if (guard) d->guard = guard;
   addStmtToIRSB(out, IRStmt_Dirty(d));
}

/* counters[exit] += taken (an Ity_I1 or NULL for "always") */
static void count_exit(IRSB* out, IRExpr* counters, UInt exit,
                       IRExpr* taken)
{
   IRExpr* slot = new_tmp(out, Ity_I64,
                          IRExpr_Binop(Iop_Add64, counters,
                                       IRExpr_Const(IRConst_U64(8 * exit))));
   IRExpr* old = new_tmp(out, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, slot));
   IRExpr* inc = taken
      ? new_tmp(out, Ity_I64, IRExpr_Unop(Iop_1Uto64, taken))
      : IRExpr_Const(IRConst_U64(1));
   IRExpr* sum = new_tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, old, inc));
   addStmtToIRSB(out, IRStmt_Store(Iend_LE, slot, sum));
}

/* Remembered for the tail-call case of cp_on_function_entry. */
static void note_jump_site(IRSB* out, Addr site, IRExpr* taken)
{
   IRExpr* where = mkIRExpr_HWord((HWord)&cp_last_jump_site);
   IRExpr* value = IRExpr_Const(IRConst_U64(site));
   if (taken)
      addStmtToIRSB(out, IRStmt_StoreG(Iend_LE, where, value, taken));
   else
      addStmtToIRSB(out, IRStmt_Store(Iend_LE, where, value));
}

static IRExpr* as_word(IRSB* out, IRExpr* bit)
{
   return new_tmp(out, Ity_I64,
                  IRExpr_Unop(Iop_1Uto64, new_tmp(out, Ity_I1, bit)));
}

static IRExpr* or_words(IRSB* out, IRExpr* a, IRExpr* b)
{
   return new_tmp(out, Ity_I64, IRExpr_Binop(Iop_Or64, a, b));
}

/* Runs first in every superblock: one branch decides whether the shadow
 * stack or this superblock's counters need the helper (SP rose above the
 * top frame; a function entered other than by a call; the superblock last
 * ran in another context); then the counters are loaded. */
static IRExpr* add_prologue(IRSB* out, SBInfo* sb)
{
   IRExpr* sp = new_tmp(out, Ity_I64, IRExpr_Get(OFFSET_amd64_RSP, Ity_I64));
   IRExpr* top_sp = load64(out, &cp_top_sp);
   IRExpr* ctx = load64(out, &cp_cur_ctx);
   IRExpr* cached = load64(out, &sb->cache_ctx);
   /* Nonzero iff the contexts differ. */
   IRExpr* need = new_tmp(out, Ity_I64,
                          IRExpr_Binop(Iop_Xor64, ctx, cached));
   need = or_words(out, need,
                   as_word(out, IRExpr_Binop(Iop_CmpLT64U, top_sp, sp)));
   if (sb->fn_entry) {
      IRExpr* top_fn = load64(out, &cp_top_fn);
      IRExpr* entry = IRExpr_Const(IRConst_U64(sb->fn_entry));
      need = or_words(out, need,
                      as_word(out, IRExpr_Binop(Iop_CmpNE64, top_fn, entry)));
   }
   call_if(out, new_tmp(out, Ity_I1,
                        IRExpr_Binop(Iop_CmpNE64, need,
                                     IRExpr_Const(IRConst_U64(0)))),
           2, "cp_on_block_entry", cp_on_block_entry,
           mkIRExprVec_2(mkIRExpr_HWord((HWord)sb), sp));
   return load64(out, &sb->cache_counters);
}

IRSB* cp_instrument(VgCallbackClosure* closure, IRSB* in,
                    const VexGuestLayout* layout,
                    const VexGuestExtents* vge,
                    const VexArchInfo* archinfo_host,
                    IRType gWordTy, IRType hWordTy)
{
   SBInfo* sb;
   IRSB* out;
   IRExpr* counters = NULL;
   UInt i, exit = 0;
   Addr current_instr = 0;
   (void)closure; (void)layout; (void)vge; (void)archinfo_host;

   if (gWordTy != hWordTy || gWordTy != Ity_I64)
      VG_(tool_panic)("cycprof: only amd64 guests on amd64 hosts");
   sb = describe_superblock(in);
   if (!sb) return in;

   out = deepCopyIRSBExceptStmts(in);
   for (i = 0; i < (UInt)in->stmts_used; i++) {
      IRStmt* st = in->stmts[i];
      if (!counters && st->tag == Ist_IMark)
         counters = add_prologue(out, sb);
      if (st->tag == Ist_IMark)
         current_instr = (Addr)st->Ist.IMark.addr;
      if (st->tag == Ist_Exit) {
         count_exit(out, counters, exit++, st->Ist.Exit.guard);
         if (st->Ist.Exit.jk == Ijk_Boring)
            note_jump_site(out, current_instr, st->Ist.Exit.guard);
      }
      addStmtToIRSB(out, st);
   }

   count_exit(out, counters, exit, NULL);
   if (in->jumpkind == Ijk_Boring)
      note_jump_site(out, current_instr, NULL);
   if (in->jumpkind == Ijk_Call) {
      IRExpr* sp = new_tmp(out, Ity_I64,
                           IRExpr_Get(OFFSET_amd64_RSP, Ity_I64));
      call_if(out, NULL, 3, "cp_on_call", cp_on_call,
              mkIRExprVec_3(mkIRExpr_HWord((HWord)sb), in->next, sp));
   }
   return out;
}
