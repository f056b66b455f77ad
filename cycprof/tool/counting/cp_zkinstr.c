/* cycprof: the zkVM model's IR (cp_zkinstr.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"
#include "cp_ir.h"
#include "cp_zkinstr.h"
#include "cp_zkpager.h"

/* addr and size to the load or store helper, when guard (if any) holds. */
static void access(IRSB* out, IRExpr* addr, Int size, Bool write,
                   IRExpr* guard)
{
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

void cp_zk_instrument_stmt(IRSB* out, const IRStmt* st)
{
   switch (st->tag) {
   case Ist_IMark:
      cp_ir_call_if(out, NULL, 2, "cp_zk_on_insn", cp_zk_on_insn,
                    mkIRExprVec_2(mkIRExpr_HWord((HWord)st->Ist.IMark.addr),
                                  mkIRExpr_HWord((HWord)st->Ist.IMark.len)));
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
