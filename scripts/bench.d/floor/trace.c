/* cpfloor: recording what ran instead of counting it (trace.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"
#include "cp_ir.h"
#include "trace.h"

TraceMode trace_mode = TraceNone;

/* One buffer of words: 32-bit events (TraceWords) or 64-bit bit groups and
 * targets (TraceBits).  A superblock checks for room once, so that its
 * exits need not: it writes fewer than BUFFER_SLACK words. */
#define BUFFER_BYTES (4u << 20)
#define BUFFER_SLACK 512
static UChar* buffer;
static ULong  used, room, written, flushes;   /* in words */
static UInt   n_superblocks;

/* TraceBits: the bits not yet written, above a leading 1 that marks how
 * many there are. */
static ULong  bits = 1;
#define MAX_BITS_AT_ONCE 56

/* Where a reader would take the buffer over. */
static VG_REGPARM(0) void flush(void)
{
   written += used;
   used = 0;
   flushes++;
}

static VG_REGPARM(0) void flush_bits(void)
{
   if (used >= room) flush();
   ((ULong*)buffer)[used++] = bits;
   bits = 1;
}

void trace_init(void)
{
   UInt word = trace_mode == TraceWords ? sizeof(UInt) : sizeof(ULong);
   if (trace_mode == TraceNone) return;
   buffer = VG_(malloc)("floor.trace", BUFFER_BYTES);
   room = BUFFER_BYTES / word - BUFFER_SLACK;
}

void trace_report(void)
{
   if (trace_mode == TraceNone) return;
   VG_(umsg)("cpfloor: trace of %llu words in %llu flushes\n",
             written + used, flushes);
}

void trace_call(Addr target)
{
   if (trace_mode != TraceWords) return;
   if (used >= room) flush();
   ((UInt*)buffer)[used++] = 0x80000000u | (UInt)target;
}

void trace_pop(void)
{
   if (trace_mode != TraceWords) return;
   if (used >= room) flush();
   ((UInt*)buffer)[used++] = 0xC0000000u;
}

/* flush() unless fewer than room words are in the buffer */
static void check_room(IRSB* out)
{
   IRExpr* full = cp_ir_tmp(out, Ity_I1,
                            IRExpr_Binop(Iop_CmpLE64U, cp_ir_word(room),
                                         cp_ir_load64(out, &used)));
   cp_ir_call_if(out, full, 0, "flush", flush, mkIRExprVec_0());
}

static IRExpr* shifted(IRSB* out, IRExpr* w, UInt shift)
{
   IRExpr* by = IRExpr_Const(IRConst_U8(shift));
   return cp_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Shl64, w, by));
}

/* buffer[used] = value (Ity_I32 or Ity_I64); used += taken, or 1 */
static void append(IRSB* out, IRExpr* value, UInt shift, IRExpr* taken)
{
   IRExpr* at = cp_ir_load64(out, &used);
   IRExpr* inc = taken ? cp_ir_tmp(out, Ity_I64,
                                   IRExpr_Unop(Iop_1Uto64, taken))
                       : cp_ir_word(1);
   IRExpr* where = cp_ir_binop(out, Iop_Add64, cp_ir_word((HWord)buffer),
                               shifted(out, at, shift));
   addStmtToIRSB(out, IRStmt_Store(Iend_LE, where, value));
   cp_ir_store64(out, &used, cp_ir_binop(out, Iop_Add64, at, inc));
}

/* flush_bits() unless n more bits fit */
static void check_bits(IRSB* out, UInt n)
{
   IRExpr* high = cp_ir_tmp(out, Ity_I64,
                            IRExpr_Binop(Iop_Shr64, cp_ir_load64(out, &bits),
                                         IRExpr_Const(IRConst_U8(63 - n))));
   cp_ir_call_if(out, cp_ir_tmp(out, Ity_I1,
                                IRExpr_Binop(Iop_CmpNE64, high,
                                             cp_ir_word(0))),
                 0, "flush_bits", flush_bits, mkIRExprVec_0());
}

/* bits = bits << 1 | taken */
static void append_bit(IRSB* out, IRExpr* taken)
{
   IRExpr* bit = cp_ir_tmp(out, Ity_I64, IRExpr_Unop(Iop_1Uto64, taken));
   cp_ir_store64(out, &bits,
                 cp_ir_binop(out, Iop_Or64,
                             shifted(out, cp_ir_load64(out, &bits), 1), bit));
}

static UInt exits_after_first_instr(const IRSB* in)
{
   UInt i, n = 0;
   Bool started = False;
   for (i = 0; i < (UInt)in->stmts_used; i++) {
      if (in->stmts[i]->tag == Ist_IMark) started = True;
      if (in->stmts[i]->tag == Ist_Exit && started) n++;
   }
   return n;
}

static Bool ends_in_computed_jump(const IRSB* in)
{
   return in->next->tag != Iex_Const && in->jumpkind != Ijk_Ret;
}

void trace_superblock(IRSB* out, const IRSB* in)
{
   UInt i, sb = n_superblocks++, n_exits = exits_after_first_instr(in);
   UInt exits_seen = 0, group = 0, group_instrs = 0, n_instrs = 0;
   for (i = 0; i < (UInt)in->stmts_used; i++) {
      IRStmt* st = in->stmts[i];
      if (st->tag == Ist_IMark && n_instrs++ == 0
          && (trace_mode == TraceWords || ends_in_computed_jump(in)))
         check_room(out);
      if (st->tag == Ist_Exit && n_instrs > 0) {
         if (trace_mode == TraceWords) {
            if (group_instrs && n_instrs != group_instrs) group++;
            group_instrs = n_instrs;
            append(out, IRExpr_Const(IRConst_U32(sb << 8 | (group & 0xff))),
                   2, st->Ist.Exit.guard);
         } else {
            if (exits_seen % MAX_BITS_AT_ONCE == 0)
               check_bits(out, n_exits - exits_seen < MAX_BITS_AT_ONCE
                               ? n_exits - exits_seen : MAX_BITS_AT_ONCE);
            append_bit(out, st->Ist.Exit.guard);
         }
         exits_seen++;
      }
      addStmtToIRSB(out, st);
   }
   if (trace_mode == TraceWords)
      append(out, IRExpr_Const(IRConst_U32(sb << 8 | (n_exits & 0xff))), 2,
             NULL);
   else if (ends_in_computed_jump(in))
      append(out, in->next, 3, NULL);
}
