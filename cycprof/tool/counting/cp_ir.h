/* cycprof: small VEX IR builders, and the inline exit counter.  Shared
 * with the bench's floor tool (scripts/bench.d/floor/), which must count
 * with the very code cycprof counts with. */
#ifndef CP_IR_H
#define CP_IR_H

#include "pub_tool_basics.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"

static inline IRExpr* cp_ir_tmp(IRSB* out, IRType ty, IRExpr* e)
{
   IRTemp t = newIRTemp(out->tyenv, ty);
   addStmtToIRSB(out, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

static inline IRExpr* cp_ir_word(ULong w)
{
   return IRExpr_Const(IRConst_U64(w));
}

static inline IRExpr* cp_ir_load64(IRSB* out, const void* where)
{
   return cp_ir_tmp(out, Ity_I64,
                    IRExpr_Load(Iend_LE, Ity_I64,
                                mkIRExpr_HWord((HWord)where)));
}

static inline void cp_ir_store64(IRSB* out, const void* where,
                                 IRExpr* value)
{
   addStmtToIRSB(out, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)where),
                                   value));
}

static inline IRExpr* cp_ir_binop(IRSB* out, IROp op, IRExpr* a, IRExpr* b)
{
   return cp_ir_tmp(out, Ity_I64, IRExpr_Binop(op, a, b));
}

/* The guest's stack pointer, wherever its architecture keeps it. */
static inline IRExpr* cp_ir_get_sp(IRSB* out, const VexGuestLayout* layout)
{
   return cp_ir_tmp(out, Ity_I64, IRExpr_Get(layout->offset_SP, Ity_I64));
}

/* A call of fn, only when guard (an Ity_I1) holds if there is one. */
static inline void cp_ir_call_if(IRSB* out, IRExpr* guard, Int regparms,
                                 const HChar* name, void* fn, IRExpr** args)
{
   IRDirty* d = unsafeIRDirty_0_N(regparms, name,
                                  VG_(fnptr_to_fnentry)(fn), args);
   if (guard) d->guard = guard;
   addStmtToIRSB(out, IRStmt_Dirty(d));
}

/* *slot += n if taken (an Ity_I1), or always when taken is NULL; n may
 * be a negative number's two's complement. */
static inline void cp_ir_add_if(IRSB* out, IRExpr* slot, ULong n,
                                IRExpr* taken)
{
   IRExpr* old = cp_ir_tmp(out, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, slot));
   IRExpr* inc = taken
      ? cp_ir_tmp(out, Ity_I64, IRExpr_ITE(taken, cp_ir_word(n), cp_ir_word(0)))
      : cp_ir_word(n);
   IRExpr* sum = cp_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, old, inc));
   addStmtToIRSB(out, IRStmt_Store(Iend_LE, slot, sum));
}

/* counters[group] += taken (an Ity_I1), or += 1 when taken is NULL */
static inline void cp_ir_count_exit(IRSB* out, IRExpr* counters, UInt group,
                                    IRExpr* taken)
{
   IRExpr* slot = cp_ir_binop(out, Iop_Add64, counters,
                              cp_ir_word(8 * (ULong)group));
   IRExpr* old = cp_ir_tmp(out, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, slot));
   IRExpr* inc = taken
      ? cp_ir_tmp(out, Ity_I64, IRExpr_Unop(Iop_1Uto64, taken))
      : cp_ir_word(1);
   IRExpr* sum = cp_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, old, inc));
   addStmtToIRSB(out, IRStmt_Store(Iend_LE, slot, sum));
}

#endif
