/* cycprof: the zkVM model's IR (cp_zkinstr.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"
#include "cp_arena.h"
#include "cp_ir.h"
#include "cp_zkinstr.h"
#include "cp_zkpager.h"

/* Whether the access [addr, addr+size) must call its helper: it spans
 * two blocks, or its block's entry in cp_zk_known does not say it is
 * loaded (a load) or dirty (a store) in this segment. */
static IRExpr* shift(IRSB* out, IROp op, IRExpr* e, UInt bits)
{
   return cp_ir_binop(out, op, e, IRExpr_Const(IRConst_U8((UChar)bits)));
}

static IRExpr* needs_helper(IRSB* out, IRExpr* addr, Int size, Bool write)
{
   const ULong index_mask = (1u << CP_ZK_KNOWN_BITS) - 1;
   IRExpr* block = shift(out, Iop_Shr64, addr, CP_ZK_BLOCK_SHIFT);
   IRExpr* end = cp_ir_binop(out, Iop_Add64, addr,
                             cp_ir_word(size > 0 ? size - 1 : 0));
   IRExpr* last = shift(out, Iop_Shr64, end, CP_ZK_BLOCK_SHIFT);
   IRExpr* index = cp_ir_binop(out, Iop_And64, block, cp_ir_word(index_mask));
   IRExpr* slot = cp_ir_binop(out, Iop_Add64, cp_ir_word((HWord)cp_zk_known),
                              shift(out, Iop_Shl64, index, 3));
   IRExpr* entry = cp_ir_tmp(out, Ity_I64,
                             IRExpr_Load(Iend_LE, Ity_I64, slot));
   IRExpr* tag = cp_ir_binop(out, Iop_Or64,
                             cp_ir_load64(out, &cp_zk_known_tag),
                             cp_ir_word(3));
   IRExpr* want = cp_ir_binop(out, Iop_Or64,
                              shift(out, Iop_Shl64, block, 2), tag);
   /* a load is content with dirty (3) or loaded (1): OR in the 2 */
   IRExpr* seen = write ? entry
                        : cp_ir_binop(out, Iop_Or64, entry, cp_ir_word(2));
   IRExpr* differs = cp_ir_binop(out, Iop_Or64,
                                 cp_ir_binop(out, Iop_Xor64, seen, want),
                                 cp_ir_binop(out, Iop_Xor64, block, last));
   return cp_ir_tmp(out, Ity_I1,
                    IRExpr_Binop(Iop_CmpNE64, differs, cp_ir_word(0)));
}

/* addr and size to the load or store helper, when guard (if any) holds
 * and the inline check cannot tell the access costs nothing. */
static void access(IRSB* out, IRExpr* addr, Int size, Bool write,
                   IRExpr* guard)
{
   IRExpr* need = needs_helper(out, addr, size, write);
   if (guard)
      need = cp_ir_tmp(out, Ity_I1, IRExpr_Binop(Iop_And1, guard, need));
   guard = need;
   if (write)
      cp_ir_call_if(out, guard, 2, "cp_zk_on_store", cp_zk_on_store,
                    mkIRExprVec_2(addr, mkIRExpr_HWord((HWord)size)));
   else
      cp_ir_call_if(out, guard, 2, "cp_zk_on_load", cp_zk_on_load,
                    mkIRExprVec_2(addr, mkIRExpr_HWord((HWord)size)));
}

static Int size_of(IRSB* out, const IRExpr* e)
{
   return sizeofIRType(typeOfIRExpr(out->tyenv, e));
}

/* The superblock being instrumented: its cell (the epoch in which all
 * its code was last fetched), the cell's value at its start, how many
 * instructions it has and how many were seen. */
static ULong*  sb_cell;
static IRExpr* sb_cell_value;
static UInt    sb_instrs, sb_seen;

void cp_zk_instrument_begin(const IRSB* in)
{
   Int i;
   sb_instrs = sb_seen = 0;
   for (i = 0; i < in->stmts_used; i++)
      if (in->stmts[i]->tag == Ist_IMark) sb_instrs++;
   sb_cell = cp_arena_alloc(sizeof(ULong));
   *sb_cell = 0;
   sb_cell_value = NULL;
}

/* executor.rs: before the instruction, a full segment closes; the
 * instruction is one user cycle of the budget left. */
static void count_instruction(IRSB* out)
{
   IRExpr* left = cp_ir_load64(out, &cp_zk_budget);
   IRExpr* full = cp_ir_tmp(out, Ity_I1,
                            IRExpr_Binop(Iop_CmpLT64S, left, cp_ir_word(0)));
   cp_ir_call_if(out, full, 0, "cp_zk_close_segment", cp_zk_close_segment,
                 mkIRExprVec_0());
   cp_ir_store64(out, &cp_zk_budget,
                 cp_ir_binop(out, Iop_Sub64, cp_ir_load64(out, &cp_zk_budget),
                             cp_ir_word(1)));
}

/* The fetch, called only while the superblock's code is not known to be
 * loaded in this segment. */
static void fetch(IRSB* out, const IRStmt* st)
{
   UWord flags = st->Ist.IMark.len & CP_ZK_FETCH_LEN;
   IRExpr* stale;
   if (!sb_cell_value) sb_cell_value = cp_ir_load64(out, sb_cell);
   if (sb_seen == 0) flags |= CP_ZK_FETCH_FIRST;
   if (++sb_seen == sb_instrs) flags |= CP_ZK_FETCH_LAST;
   stale = cp_ir_tmp(out, Ity_I1,
                     IRExpr_Binop(Iop_CmpNE64, sb_cell_value,
                                  cp_ir_load64(out, &cp_zk_epoch)));
   cp_ir_call_if(out, stale, 3, "cp_zk_fetch", cp_zk_fetch,
                 mkIRExprVec_3(mkIRExpr_HWord((HWord)st->Ist.IMark.addr),
                               mkIRExpr_HWord(flags),
                               mkIRExpr_HWord((HWord)sb_cell)));
}

void cp_zk_instrument_stmt(IRSB* out, const IRStmt* st)
{
   switch (st->tag) {
   case Ist_IMark:
      count_instruction(out);
      fetch(out, st);
      break;
   case Ist_WrTmp:
      if (st->Ist.WrTmp.data->tag == Iex_Load) {
         const IRExpr* ld = st->Ist.WrTmp.data;
         access(out, ld->Iex.Load.addr, sizeofIRType(ld->Iex.Load.ty),
                False, NULL);
      }
      break;
   case Ist_Store:
      access(out, st->Ist.Store.addr, size_of(out, st->Ist.Store.data),
             True, NULL);
      break;
   case Ist_StoreG: {
      const IRStoreG* sg = st->Ist.StoreG.details;
      access(out, sg->addr, size_of(out, sg->data), True, sg->guard);
      break;
   }
   case Ist_LoadG: {
      const IRLoadG* lg = st->Ist.LoadG.details;
      IRType wide = Ity_INVALID, narrow = Ity_INVALID;
      typeOfIRLoadGOp(lg->cvt, &wide, &narrow);
      access(out, lg->addr, sizeofIRType(narrow), False, lg->guard);
      break;
   }
   case Ist_Dirty: {
      const IRDirty* d = st->Ist.Dirty.details;
      if (d->mFx == Ifx_None) break;
      /* A modify is a store, which pages in first. */
      access(out, d->mAddr, d->mSize, d->mFx != Ifx_Read, d->guard);
      break;
   }
   case Ist_CAS: {
      const IRCAS* cas = st->Ist.CAS.details;
      Int size = size_of(out, cas->dataLo) * (cas->dataHi ? 2 : 1);
      access(out, cas->addr, size, True, NULL);
      break;
   }
   case Ist_LLSC:
      if (st->Ist.LLSC.storedata)
         access(out, st->Ist.LLSC.addr, size_of(out, st->Ist.LLSC.storedata),
                True, NULL);
      else
         access(out, st->Ist.LLSC.addr,
                sizeofIRType(typeOfIRTemp(out->tyenv, st->Ist.LLSC.result)),
                False, NULL);
      break;
   default:
      break;
   }
}
