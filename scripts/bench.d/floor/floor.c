/* cpfloor: the bench's floor (docs/benchmarks.md, "The floor").
 *
 * What any exact profiler of call stacks must do, and nothing more: keep a
 * shadow call stack by cycprof's rules (push on every call, pop when SP
 * rises above the top frame, checked at returns and computed jumps) and
 * count every instruction with cycprof's inline exit counters, but into
 * one array per superblock: no calling contexts, no cost per stack.  The
 * gap between this and cycprof is the price of charging each instruction
 * to its stack.  Its totals at exit equal lackey's in the same
 * environment, which shows it does all the counting.
 *   --floor=stack|count|both   which half to do (default both)
 *   --floor=trace   the stack, and instead of counting, append a word per
 *                   exit taken, call and pop to a buffer that is then
 *                   dropped: what the run of a design that left the
 *                   contexts to another core would cost at least
 * amd64 only: the SP rule assumes calls push their return address. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"

#if !defined(VGA_amd64)
#error "cpfloor: amd64 only"
#endif

static Bool keep_stack = True, count_instrs = True, trace = False;

/* --- trace mode -------------------------------------------------------- */

/* A superblock checks for room once, so that its exits need not: it
 * writes at most one word per exit. */
#define TRACE_WORDS (1u << 20)
#define TRACE_ROOM  (TRACE_WORDS - 4096)
static UInt* trace_buf;
static ULong trace_pos, trace_flushes, trace_words;
static UInt n_superblocks;

/* A consumer would take the buffer here; there is none. */
static VG_REGPARM(0) void trace_flush(void)
{
   trace_words += trace_pos;
   trace_pos = 0;
   trace_flushes++;
}

static void trace_event(UInt word)
{
   if (trace_pos >= TRACE_ROOM) trace_flush();
   trace_buf[trace_pos++] = word;
}

/* --- the shadow stack ------------------------------------------------- */

#define MAX_DEPTH (1 << 20)
typedef struct { Addr fn, sp; } Frame;
static Frame* frames;
static ULong depth, max_depth, calls, pops;
static ULong top_sp = ~0ULL;   /* read by the inline SP check */

static VG_REGPARM(2) void on_call(Addr target, ULong sp)
{
   if (depth < MAX_DEPTH) {
      frames[depth].fn = target;
      frames[depth].sp = sp;
   }
   depth++;
   if (trace) trace_event(0x80000000u | (UInt)target);
   if (depth > max_depth) max_depth = depth;
   top_sp = sp;
   calls++;
}

static VG_REGPARM(1) void on_sp_rise(ULong sp)
{
   while (depth > 0 && top_sp < sp) {
      depth--;
      pops++;
      if (trace) trace_event(0xC0000000u);
      top_sp = depth > 0 && depth <= MAX_DEPTH ? frames[depth - 1].sp
                                               : ~0ULL;
   }
}

/* --- counters: one per exit group of each superblock ------------------ */

/* Chunks that never move, so the inline code can hold their addresses;
 * beside each counter, the instructions done when it counts one. */
#define CHUNK (1 << 20)
typedef struct {
   ULong* counts;
   UInt*  instrs;
} Chunk;
static Chunk* chunks;
static UInt n_chunks, chunks_capacity, chunk_used = CHUNK;

static UInt new_counters(UInt n, ULong** counts)
{
   Chunk* c;
   tl_assert(n <= CHUNK);
   if (chunk_used + n > CHUNK) {
      if (n_chunks == chunks_capacity) {
         chunks_capacity = chunks_capacity ? 2 * chunks_capacity : 64;
         chunks = VG_(realloc)("floor.chunks", chunks,
                               chunks_capacity * sizeof *chunks);
      }
      chunks[n_chunks].counts = VG_(calloc)("floor.counts", CHUNK,
                                            sizeof(ULong));
      chunks[n_chunks].instrs = VG_(calloc)("floor.instrs", CHUNK,
                                            sizeof(UInt));
      n_chunks++;
      chunk_used = 0;
   }
   c = &chunks[n_chunks - 1];
   *counts = c->counts + chunk_used;
   chunk_used += n;
   return chunk_used - n;
}

static void set_instrs(UInt first, UInt k, UInt n_instrs)
{
   chunks[n_chunks - 1].instrs[first + k] = n_instrs;
}

/* --- IR --------------------------------------------------------------- */

static IRExpr* new_tmp(IRSB* out, IRType ty, IRExpr* e)
{
   IRTemp t = newIRTemp(out->tyenv, ty);
   addStmtToIRSB(out, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

/* *slot += taken (an Ity_I1), or += 1 when taken is NULL: cycprof's code */
static void count_exit(IRSB* out, ULong* slot, IRExpr* taken)
{
   IRExpr* where = mkIRExpr_HWord((HWord)slot);
   IRExpr* old = new_tmp(out, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, where));
   IRExpr* inc = taken
      ? new_tmp(out, Ity_I64, IRExpr_Unop(Iop_1Uto64, taken))
      : IRExpr_Const(IRConst_U64(1));
   IRExpr* sum = new_tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, old, inc));
   addStmtToIRSB(out, IRStmt_Store(Iend_LE, where, sum));
}

static IRExpr* load64(IRSB* out, const void* where)
{
   return new_tmp(out, Ity_I64,
                  IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)where)));
}

/* trace_buf[trace_pos] = word; trace_pos += taken (or 1 when NULL) */
static void trace_exit(IRSB* out, UInt word, IRExpr* taken)
{
   IRExpr* pos = load64(out, &trace_pos);
   IRExpr* offset = new_tmp(out, Ity_I64,
                            IRExpr_Binop(Iop_Shl64, pos,
                                         IRExpr_Const(IRConst_U8(2))));
   IRExpr* at = new_tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64,
                                                   load64(out, &trace_buf),
                                                   offset));
   IRExpr* inc = taken
      ? new_tmp(out, Ity_I64, IRExpr_Unop(Iop_1Uto64, taken))
      : IRExpr_Const(IRConst_U64(1));
   addStmtToIRSB(out, IRStmt_Store(Iend_LE, at,
                                   IRExpr_Const(IRConst_U32(word))));
   addStmtToIRSB(out, IRStmt_Store(Iend_LE,
                                   mkIRExpr_HWord((HWord)&trace_pos),
                                   new_tmp(out, Ity_I64,
                                           IRExpr_Binop(Iop_Add64, pos,
                                                        inc))));
}

static IRExpr* get_sp(IRSB* out, const VexGuestLayout* layout)
{
   return new_tmp(out, Ity_I64, IRExpr_Get(layout->offset_SP, Ity_I64));
}

static void call_if(IRSB* out, IRExpr* guard, Int regparms,
                    const HChar* name, void* fn, IRExpr** args)
{
   IRDirty* d = unsafeIRDirty_0_N(regparms, name,
                                  VG_(fnptr_to_fnentry)(fn), args);
   if (guard) d->guard = guard;
   addStmtToIRSB(out, IRStmt_Dirty(d));
}

static void trace_room(IRSB* out)
{
   IRExpr* full = new_tmp(out, Ity_I1,
                          IRExpr_Binop(Iop_CmpLE64U,
                                       IRExpr_Const(IRConst_U64(TRACE_ROOM)),
                                       load64(out, &trace_pos)));
   call_if(out, full, 0, "trace_flush", trace_flush, mkIRExprVec_0());
}

/* One counter, or one trace word, per exit group of the superblock. */
static void count_or_trace(IRSB* out, ULong* counts, UInt sb, UInt group,
                           IRExpr* taken)
{
   if (trace) trace_exit(out, sb << 8 | (group & 0xff), taken);
   else count_exit(out, counts + group, taken);
}

static void track_stack(IRSB* out, const IRSB* in,
                        const VexGuestLayout* layout)
{
   IRExpr* sp;
   IRExpr* top;
   if (in->jumpkind == Ijk_Call) {
      call_if(out, NULL, 2, "on_call", on_call,
              mkIRExprVec_2(in->next, get_sp(out, layout)));
      return;
   }
   if (in->jumpkind != Ijk_Ret
       && !(in->jumpkind == Ijk_Boring && in->next->tag != Iex_Const))
      return;
   sp = get_sp(out, layout);
   top = new_tmp(out, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64,
                                           mkIRExpr_HWord((HWord)&top_sp)));
   call_if(out, new_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpLT64U, top, sp)),
           1, "on_sp_rise", on_sp_rise, mkIRExprVec_1(sp));
}

static UInt count_exits(const IRSB* in)
{
   UInt i, n = 0;
   for (i = 0; i < (UInt)in->stmts_used; i++)
      if (in->stmts[i]->tag == Ist_Exit) n++;
   return n;
}

static IRSB* fl_instrument(VgCallbackClosure* closure, IRSB* in,
                           const VexGuestLayout* layout,
                           const VexGuestExtents* vge,
                           const VexArchInfo* archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{
   IRSB* out = deepCopyIRSBExceptStmts(in);
   UInt i, n_instrs = 0, n_exits = 0, group = 0, group_instrs = 0, first = 0;
   UInt sb = n_superblocks++;
   ULong* counts = NULL;
   (void)closure; (void)vge; (void)archinfo_host; (void)gWordTy; (void)hWordTy;

   if (count_instrs) {
      /* One counter per group of exits after the same instruction, and
       * one for falling through: at most exits + 1. */
      n_exits = count_exits(in);
      first = new_counters(n_exits + 1, &counts);
   }
   for (i = 0; i < (UInt)in->stmts_used; i++) {
      IRStmt* st = in->stmts[i];
      if (st->tag == Ist_IMark && n_instrs++ == 0 && trace) trace_room(out);
      if ((count_instrs || trace) && st->tag == Ist_Exit && n_instrs > 0) {
         if (group_instrs && n_instrs != group_instrs) group++;
         group_instrs = n_instrs;
         count_or_trace(out, counts, sb, group, st->Ist.Exit.guard);
         if (count_instrs) set_instrs(first, group, n_instrs);
      }
      addStmtToIRSB(out, st);
   }
   if (count_instrs || trace)
      count_or_trace(out, counts, sb, n_exits, NULL);
   if (count_instrs) set_instrs(first, n_exits, n_instrs);
   if (keep_stack) track_stack(out, in, layout);
   return out;
}

static void fl_post_clo_init(void)
{
   /* As cycprof: one superblock is one straight run. */
   VG_(clo_vex_control).guest_chase = False;
   frames = VG_(malloc)("floor.frames", MAX_DEPTH * sizeof *frames);
   if (trace)
      trace_buf = VG_(malloc)("floor.trace", TRACE_WORDS * sizeof(UInt));
}

static void fl_fini(Int exitcode)
{
   ULong instrs = 0;
   UInt c, k;
   (void)exitcode;
   for (c = 0; c < n_chunks; c++)
      for (k = 0; k < CHUNK; k++)
         instrs += chunks[c].counts[k] * chunks[c].instrs[k];
   if (trace)
      VG_(umsg)("cpfloor: trace words %llu in %llu flushes\n",
                trace_words + trace_pos, trace_flushes);
   VG_(umsg)("cpfloor: guest instrs %llu, calls %llu, pops %llu, "
             "max depth %llu\n", instrs, calls, pops, max_depth);
}

static Bool fl_option(const HChar* arg)
{
   const HChar* v;
   if (!VG_STR_CLO(arg, "--floor", v)) return False;
   if (VG_(strcmp)(v, "stack") && VG_(strcmp)(v, "count")
       && VG_(strcmp)(v, "both") && VG_(strcmp)(v, "trace"))
      return False;
   trace = VG_(strcmp)(v, "trace") == 0;
   keep_stack = VG_(strcmp)(v, "count") != 0;
   count_instrs = VG_(strcmp)(v, "stack") != 0 && !trace;
   return True;
}

static void fl_usage(void)
{
   VG_(printf)("    --floor=stack|count|both|trace   what to do [both]\n");
}

static void fl_debug_usage(void) {}

static void fl_pre_clo_init(void)
{
   VG_(details_name)("cpfloor");
   VG_(details_version)(NULL);
   VG_(details_description)("the bench's floor: exact stack and counts, "
                            "no contexts");
   VG_(details_copyright_author)("Copyright (C) the cycprof developers.");
   VG_(details_bug_reports_to)("the cycprof issue tracker");
   VG_(basic_tool_funcs)(fl_post_clo_init, fl_instrument, fl_fini);
   VG_(needs_command_line_options)(fl_option, fl_usage, fl_debug_usage);
}

VG_DETERMINE_INTERFACE_VERSION(fl_pre_clo_init)
