/* cpfloor: small VEX IR builders shared by the floor and its traces. */
#ifndef FLOOR_IR_H
#define FLOOR_IR_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

IRExpr* fl_tmp(IRSB* out, IRType ty, IRExpr* e);
IRExpr* fl_load64(IRSB* out, const void* where);
IRExpr* fl_word(ULong w);
void    fl_store64(IRSB* out, void* where, IRExpr* value);
/* A dirty call to fn, only when guard (an Ity_I1) holds, if given. */
void    fl_call_if(IRSB* out, IRExpr* guard, Int regparms, const HChar* name,
                   void* fn, IRExpr** args);

#endif
