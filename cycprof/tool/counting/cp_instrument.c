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
#include "pub_tool_tooliface.h"
#include "cp_arch.h"
#include "cp_arena.h"
#include "cp_callstack.h"
#include "cp_collect_state.h"
#include "cp_context.h"
#include "cp_det.h"
#include "cp_det_insns.h"
#include "cp_functions.h"
#include "cp_instrument.h"
#include "cp_intern.h"
#include "cp_ir.h"
#include "cp_sbinfo.h"
#include "cp_types.h"
#include "cp_zkinstr.h"
#include "cp_zkmodel.h"

/* Remembered for the tail-call case of cp_on_function_entry.  A side
 * exit stores its site only if taken: by a guarded store where the host
 * has one, else by a select. */
static void note_jump_site(IRSB* out, Addr site, IRExpr* taken)
{
   IRExpr* value = cp_ir_word(site);
   if (taken && CP_GUARDED_STORES) {
      addStmtToIRSB(out, IRStmt_StoreG(Iend_LE,
                                       mkIRExpr_HWord((HWord)&cp_last_jump_site),
                                       value, taken));
      return;
   }
   if (taken)
      value = cp_ir_tmp(out, Ity_I64,
                        IRExpr_ITE(taken, value,
                                   cp_ir_load64(out, &cp_last_jump_site)));
   cp_ir_store64(out, &cp_last_jump_site, value);
}

/* Runs first in every superblock: one branch decides whether the helper
 * must run (the current frame's function does not own this superblock:
 * see cp_owners.h; or the context's counters do not reach its own yet;
 * or a function is entered other than by a call: a
 * frame may share its owner with another function, so owning the entry
 * does not mean being that function's frame).  Returns the address of
 * the superblock's counters. */
static IRExpr* add_prologue(IRSB* out, SBInfo* sb)
{
   IRExpr* distance = cp_ir_binop(out, Iop_Sub64,
                                  cp_ir_load64(out, &cp_dense.key),
                                  cp_ir_word(cp_dense_key(sb->owner,
                                                          sb->local
                                                          + sb->n_exits)));
   /* Not covered: distance >= CP_DENSE_KEY_COVERS, a power of two, so
    * the bits above it are not all 0; a function entry ORs in whether
    * the frame is another function's, and one compare decides. */
   IRExpr* uncovered =
      cp_ir_binop(out, Iop_Shr64, distance,
                  IRExpr_Const(IRConst_U8(CP_DENSE_KEY_COVERS_SHIFT)));
   IRExpr* need;
   if (sb->is_fn_entry)
      uncovered = cp_ir_binop(out, Iop_Or64, uncovered,
                              cp_ir_binop(out, Iop_Xor64,
                                          cp_ir_load64(out, &cp_top_fn),
                                          cp_ir_word(sb->addr)));
   need = cp_ir_tmp(out, Ity_I1,
                    IRExpr_Binop(Iop_CmpNE64, uncovered, cp_ir_word(0)));
   cp_ir_call_if(out, need, 1, "cp_on_block_entry", cp_on_block_entry,
                 mkIRExprVec_1(mkIRExpr_HWord((HWord)sb)));
   return cp_ir_binop(out, Iop_Add64, cp_ir_load64(out, &cp_dense.base),
                      cp_ir_word(sb->local * sizeof(ULong)));
}

/* Frames die when SP rises above their return slot.  That happens on
 * returns, and otherwise only on jumps to computed addresses (longjmp,
 * unwinders, context switches), so only superblocks ending in one check.
 * Where a call pushes nothing (arm64), a frame may end with SP back at
 * its own level: see cp_on_link_return. */
static void check_sp_rise(IRSB* out, const VexGuestLayout* layout,
                          const IRExpr* next, Bool is_ret)
{
   IRExpr* sp = cp_ir_get_sp(out, layout);
   IRExpr* top_sp = cp_ir_load64(out, &cp_top_sp);
   if (!CP_CALL_PUSHES_RETURN) {
      cp_ir_call_if(out, cp_ir_tmp(out, Ity_I1,
                                   IRExpr_Binop(Iop_CmpLE64U, top_sp, sp)),
                    3, "cp_on_link_return", cp_on_link_return,
                    mkIRExprVec_3(deepCopyIRExpr(next), sp,
                                  cp_ir_word(is_ret)));
      return;
   }
   cp_ir_call_if(out, cp_ir_tmp(out, Ity_I1,
                                IRExpr_Binop(Iop_CmpLT64U, top_sp, sp)),
                 1, "cp_on_sp_rise", cp_on_sp_rise, mkIRExprVec_1(sp));
}

/* Only jumps that may land on a function's entry record where they
 * came from (for tail calls): computed jumps, and direct ones to an
 * entry. */
static Bool may_enter_function(const IRExpr* target)
{
   return target->tag != Iex_Const
          || cp_is_function_entry((Addr)target->Iex.Const.con->Ico.U64);
}

/* arm64's front end marks a plain `B` as a call, as it marks `BL`.  A `B`
 * to another place in its own function (a loop, a shared exit path) is a
 * jump: as a call, its frame would show the function under itself.  A `B`
 * to another function stays a call, as before (its frame ends with the
 * frame below it, by the link-register rule of cp_on_link_return). */
static Bool branches_within_function(Addr insn, const IRExpr* target)
{
   Addr to, from_fn, to_fn;
   if (target->tag != Iex_Const || cp_arch_insn_calls(insn)) return False;
   to = (Addr)target->Iex.Const.con->Ico.U64;
   return !cp_is_function_entry(to) && cp_function_named(insn, &from_fn)
          && cp_function_named(to, &to_fn) && from_fn == to_fn;
}

static IRExpr* exit_target(const IRStmt* exit)
{
   return IRExpr_Const(exit->Ist.Exit.dst);
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
   IRExpr* running = NULL;
   UInt i, n_instrs = 0, group = 0, last_group_instrs = ~0u;
   Bool final_group_counted = False;
   Addr current_instr = 0;
   IRJumpKind jump;
   (void)closure; (void)vge; (void)archinfo_host;

   if (gWordTy != hWordTy || gWordTy != Ity_I64 || layout->sizeof_SP != 8)
      VG_(tool_panic)("cycprof: only 64-bit guests on the same host "
                      "(amd64, arm64)");
   if (cp_det_on) cp_det_rewrite_insns(in);
   if (!cp_instr_on) return in;
   sb = cp_sbinfo_describe(in, cp_context_owner(cp_cur_ctx));
   if (!sb) return in;

   out = deepCopyIRSBExceptStmts(in);
   if (cp_zk_model) cp_zk_instrument_begin(in);
   for (i = 0; i < (UInt)in->stmts_used; i++) {
      IRStmt* st = in->stmts[i];
      if (!counters && st->tag == Ist_IMark) {
         counters = add_prologue(out, sb);
         if (cp_running_on) running = cp_ir_load64(out, &cp_dense.running);
      }
      /* The zkVM model's calls: after the prologue, which sets the
       * context they charge. */
      if (cp_zk_model) cp_zk_instrument_stmt(out, st);
      if (st->tag == Ist_IMark) {
         current_instr = (Addr)st->Ist.IMark.addr;
         n_instrs++;
      }
      if (st->tag == Ist_Exit && !cp_sbinfo_exit_before_first_instr(n_instrs, st)) {
         if (last_group_instrs != ~0u && n_instrs != last_group_instrs)
            group++;
         last_group_instrs = n_instrs;
         /* Whoever gets here leaves through the last group, whichever
          * of its exits: count once, unconditionally. */
         if (n_instrs == sb->n_instrs) {
            if (!final_group_counted) {
               cp_ir_count_exit(out, counters, group, NULL);
               if (running) cp_ir_add_if(out, running, n_instrs, NULL);
            }
            final_group_counted = True;
         } else {
            cp_ir_count_exit(out, counters, group, st->Ist.Exit.guard);
            if (running)
               cp_ir_add_if(out, running, n_instrs, st->Ist.Exit.guard);
         }
         /* The model's helpers of the rest of the run see the budget
          * without the run: take it only where the run leaves. */
         if (cp_zk_model) cp_zk_count_exit(out, n_instrs, st->Ist.Exit.guard);
         if (st->Ist.Exit.jk == Ijk_Boring
             && may_enter_function(exit_target(st)))
            note_jump_site(out, current_instr, st->Ist.Exit.guard);
      }
      addStmtToIRSB(out, st);
   }

   if (!final_group_counted) {
      cp_ir_count_exit(out, counters, sb->n_exits - 1, NULL);
      if (running) cp_ir_add_if(out, running, n_instrs, NULL);
   }
   if (cp_zk_model) cp_zk_count_exit(out, n_instrs, NULL);
   jump = in->jumpkind;
   if (jump == Ijk_Call && branches_within_function(current_instr, in->next))
      jump = Ijk_Boring;
   if (jump == Ijk_Boring && may_enter_function(in->next))
      note_jump_site(out, current_instr, NULL);
   if (jump == Ijk_Ret
       || (jump == Ijk_Boring && in->next->tag != Iex_Const))
      check_sp_rise(out, layout, in->next, jump == Ijk_Ret);
   if (jump == Ijk_ClientReq)
      cp_ir_store64(out, &cp_request_sb, mkIRExpr_HWord((HWord)sb));
   if (jump == Ijk_Call) {
      CallSiteCache* site = cp_arena_alloc(sizeof(CallSiteCache));
      IRExpr* sp = cp_ir_get_sp(out, layout);
      site->callsite = current_instr;
      site->site_id = cp_intern(&cp_context_sites, current_instr);
      cp_ir_call_if(out, NULL, 3, "cp_on_call", cp_on_call,
                    mkIRExprVec_3(mkIRExpr_HWord((HWord)site), in->next, sp));
   }
   return out;
}
