/* cpfloor: small VEX IR builders (floor_ir.h). */
#include "pub_tool_basics.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"
#include "floor_ir.h"

IRExpr* fl_tmp(IRSB* out, IRType ty, IRExpr* e)
{
   IRTemp t = newIRTemp(out->tyenv, ty);
   addStmtToIRSB(out, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

IRExpr* fl_load64(IRSB* out, const void* where)
{
   return fl_tmp(out, Ity_I64,
                 IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)where)));
}

IRExpr* fl_word(ULong w)
{
   return IRExpr_Const(IRConst_U64(w));
}

void fl_store64(IRSB* out, void* where, IRExpr* value)
{
   addStmtToIRSB(out, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)where),
                                   value));
}

void fl_call_if(IRSB* out, IRExpr* guard, Int regparms, const HChar* name,
                void* fn, IRExpr** args)
{
   IRDirty* d = unsafeIRDirty_0_N(regparms, name,
                                  VG_(fnptr_to_fnentry)(fn), args);
   if (guard) d->guard = guard;
   addStmtToIRSB(out, IRStmt_Dirty(d));
}
