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
 *   --floor=trace|trace-bits   the stack, and instead of counting, what
 *                   a design that left the contexts to another core would
 *                   record (trace.h)
 *   --floor=running both, and a running count of instructions (pipe.h)
 *   --floor=pipe    that, and the contexts built on another core (pipe.h)
 *   --floor=pipe-check  that, and a per-superblock check (pipe.h)
 * amd64 only: the SP rule assumes calls push their return address. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"
#include "cp_ir.h"
#include "pipe.h"
#include "trace.h"

#if !defined(VGA_amd64)
#error "cpfloor: amd64 only"
#endif

static Bool keep_stack = True, count_instrs = True;

/* --- the shadow stack ------------------------------------------------- */

#define MAX_DEPTH (1 << 20)
typedef struct { Addr fn, sp; } Frame;
static Frame* frames;
static ULong depth, max_depth, calls, pops;
static ULong top_sp = ~0ULL;   /* read by the inline SP check */

static VG_REGPARM(3) void on_call(Addr target, ULong sp, UWord site_id)
{
   if (depth < MAX_DEPTH) {
      frames[depth].fn = target;
      frames[depth].sp = sp;
   }
   depth++;
   trace_call(target);
   if (pipe_mode == PipeOn) pipe_call((UInt)site_id, target);
   if (depth > max_depth) max_depth = depth;
   top_sp = sp;
   calls++;
}

static VG_REGPARM(1) void on_sp_rise(ULong sp)
{
   UInt popped = 0;
   while (depth > 0 && top_sp < sp) {
      depth--;
      pops++;
      trace_pop();
      popped++;
      top_sp = depth > 0 && depth <= MAX_DEPTH ? frames[depth - 1].sp
                                               : ~0ULL;
   }
   if (pipe_mode == PipeOn && popped) pipe_pop(popped);
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

/* --- IR: cycprof's own builders and exit counter (cp_ir.h) ------------ */

/* Where a superblock's final instruction (a call's) is. */
static Addr last_instr(const IRSB* in)
{
   Int i;
   for (i = in->stmts_used - 1; i >= 0; i--)
      if (in->stmts[i]->tag == Ist_IMark)
         return (Addr)in->stmts[i]->Ist.IMark.addr;
   return 0;
}

/* The pipe's id of the call ending in (0 when there is no pipe). */
static UInt call_site_id(const IRSB* in)
{
   Addr target = in->next->tag == Iex_Const
                 ? (Addr)in->next->Iex.Const.con->Ico.U64 : 0;
   return pipe_mode == PipeOn ? pipe_site(last_instr(in), target) : 0;
}

static void track_stack(IRSB* out, const IRSB* in,
                        const VexGuestLayout* layout)
{
   IRExpr* sp;
   IRExpr* top;
   if (in->jumpkind == Ijk_Call) {
      cp_ir_call_if(out, NULL, 3, "on_call", on_call,
                    mkIRExprVec_3(in->next, cp_ir_get_sp(out, layout),
                                  cp_ir_word(call_site_id(in))));
      return;
   }
   if (in->jumpkind != Ijk_Ret
       && !(in->jumpkind == Ijk_Boring && in->next->tag != Iex_Const))
      return;
   sp = cp_ir_get_sp(out, layout);
   top = cp_ir_load64(out, &top_sp);
   cp_ir_call_if(out, cp_ir_tmp(out, Ity_I1,
                                IRExpr_Binop(Iop_CmpLT64U, top, sp)),
                 1, "on_sp_rise", on_sp_rise, mkIRExprVec_1(sp));
}

/* How many of in's statements are of kind tag (instructions: Ist_IMark,
 * side exits: Ist_Exit). */
static UInt count_stmts(const IRSB* in, IRStmtTag tag)
{
   UInt i, n = 0;
   for (i = 0; i < (UInt)in->stmts_used; i++)
      if (in->stmts[i]->tag == tag) n++;
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
   UInt total = pipe_mode != PipeOff ? count_stmts(in, Ist_IMark) : 0;
   Bool running_counted = False;
   ULong* counts = NULL;
   (void)closure; (void)vge; (void)archinfo_host; (void)gWordTy; (void)hWordTy;

   if (trace_mode != TraceNone) {
      trace_superblock(out, in);
      if (keep_stack) track_stack(out, in, layout);
      return out;
   }
   if (pipe_check) pipe_add_check(out);
   if (count_instrs) {
      /* One counter per group of exits after the same instruction, and
       * one for falling through: at most exits + 1. */
      n_exits = count_stmts(in, Ist_Exit);
      first = new_counters(n_exits + 1, &counts);
   }
   for (i = 0; i < (UInt)in->stmts_used; i++) {
      IRStmt* st = in->stmts[i];
      if (st->tag == Ist_IMark) n_instrs++;
      if (count_instrs && st->tag == Ist_Exit && n_instrs > 0) {
         if (group_instrs && n_instrs != group_instrs) group++;
         group_instrs = n_instrs;
         cp_ir_count_exit(out, mkIRExpr_HWord((HWord)counts), group,
                          st->Ist.Exit.guard);
         if (pipe_mode != PipeOff)
            pipe_count_side_exit(out, n_instrs, total, st->Ist.Exit.guard,
                                 &running_counted);
         set_instrs(first, group, n_instrs);
      }
      addStmtToIRSB(out, st);
   }
   if (count_instrs) {
      cp_ir_count_exit(out, mkIRExpr_HWord((HWord)counts), n_exits, NULL);
      if (pipe_mode != PipeOff) pipe_count_end(out, total, running_counted);
      set_instrs(first, n_exits, n_instrs);
   }
   if (keep_stack) track_stack(out, in, layout);
   return out;
}

static void fl_post_clo_init(void)
{
   /* As cycprof: one superblock is one straight run. */
   VG_(clo_vex_control).guest_chase = False;
   frames = VG_(malloc)("floor.frames", MAX_DEPTH * sizeof *frames);
   trace_init();
   pipe_init();
}

static void fl_fini(Int exitcode)
{
   ULong instrs = 0;
   UInt c, k;
   (void)exitcode;
   for (c = 0; c < n_chunks; c++)
      for (k = 0; k < CHUNK; k++)
         instrs += chunks[c].counts[k] * chunks[c].instrs[k];
   trace_report();
   pipe_finish();
   VG_(umsg)("cpfloor: guest instrs %llu, calls %llu, pops %llu, "
             "max depth %llu\n", instrs, calls, pops, max_depth);
}

static Bool fl_option(const HChar* arg)
{
   const HChar* v;
   if (!VG_STR_CLO(arg, "--floor", v)) return False;
   if (VG_(strcmp)(v, "stack") && VG_(strcmp)(v, "count")
       && VG_(strcmp)(v, "both") && VG_(strcmp)(v, "trace")
       && VG_(strcmp)(v, "trace-bits") && VG_(strcmp)(v, "running")
       && VG_(strcmp)(v, "pipe") && VG_(strcmp)(v, "pipe-check"))
      return False;
   trace_mode = VG_(strcmp)(v, "trace") == 0 ? TraceWords
                : VG_(strcmp)(v, "trace-bits") == 0 ? TraceBits : TraceNone;
   pipe_check = VG_(strcmp)(v, "pipe-check") == 0;
   pipe_mode = VG_(strcmp)(v, "pipe") == 0 || pipe_check ? PipeOn
               : VG_(strcmp)(v, "running") == 0 ? PipeRunningCount : PipeOff;
   keep_stack = VG_(strcmp)(v, "count") != 0;
   count_instrs = trace_mode == TraceNone && VG_(strcmp)(v, "stack") != 0;
   return True;
}

static void fl_usage(void)
{
   VG_(printf)("    --floor=stack|count|both|trace|trace-bits|running|pipe|"
               "pipe-check   what to do [both]\n");
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
