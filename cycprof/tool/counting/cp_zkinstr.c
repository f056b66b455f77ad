/* cycprof: the zkVM model's IR (cp_zkinstr.h).
 *
 * A segment can only close in a superblock run that starts near its end:
 * one compare at the entry (the budget against the most the run can
 * take) decides.  Far from the end, the run calls the model only where
 * an instruction reaches a code page the instructions before it did not
 * (and only while its code is not known loaded), and where a load or
 * store finds its page not known loaded or dirty; its instructions leave
 * the budget at its exits, as the counters count them.  Near the end,
 * the entry calls the model, and every access calls it too, with its
 * instruction's index: the model then plays the run's instructions
 * forward (cp_zkpager.c), closing the segment before the right one. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"
#include "cp_arena.h"
#include "cp_ir.h"
#include "cp_sbinfo.h"
#include "cp_zkinstr.h"
#include "cp_zkmodel.h"
#include "cp_zkpager.h"

static IRExpr* shift(IRSB* out, IROp op, IRExpr* e, UInt bits)
{
   return cp_ir_binop(out, op, e, IRExpr_Const(IRConst_U8((UChar)bits)));
}

/* Whether the access [addr, addr+size) may cost something: the entry of
 * its first block in cp_zk_known does not say its last block is loaded
 * (a load) or dirty (a store) in this segment (two blocks: it spans).
 * tag: the run's cp_zk_known_tag | 3, with bit 63 in a run near the
 * segment's end, which no entry has. */
static IRExpr* may_page(IRSB* out, IRExpr* addr, Int size, Bool write,
                        IRExpr* tag)
{
   const ULong block_bytes = 1ULL << CP_ZK_BLOCK_SHIFT;
   const ULong slots = ((1ULL << CP_ZK_KNOWN_BITS) - 1) << 3;
   /* the slot's byte offset: block number * 8, in one shift */
   IRExpr* offset = cp_ir_binop(out, Iop_And64,
                                shift(out, Iop_Shr64, addr,
                                      CP_ZK_BLOCK_SHIFT - 3),
                                cp_ir_word(slots));
   IRExpr* slot = cp_ir_binop(out, Iop_Add64, cp_ir_word((HWord)cp_zk_known),
                              offset);
   IRExpr* entry = cp_ir_tmp(out, Ity_I64,
                             IRExpr_Load(Iend_LE, Ity_I64, slot));
   IRExpr* last = size > 1 ? cp_ir_binop(out, Iop_Add64, addr,
                                         cp_ir_word(size - 1))
                           : addr;
   IRExpr* want = cp_ir_binop(out, Iop_Or64,
                              cp_ir_binop(out, Iop_And64, last,
                                          cp_ir_word(~(block_bytes - 1))),
                              tag);
   /* a load is content with dirty (3) or loaded (1): OR in the 2 */
   IRExpr* seen = write ? entry
                        : cp_ir_binop(out, Iop_Or64, entry, cp_ir_word(2));
   return cp_ir_tmp(out, Ity_I1,
                    IRExpr_Binop(Iop_CmpNE64, seen, want));
}

/* The superblock being instrumented: its facts for the model, the most
 * cycles a run of it can take, its fetch sites, and the IR values its
 * entry computes: CP_ZK_NEAR when the run is near the segment's end (else
 * 0), and the tag its accesses look for. */
static ZkBlock* blk;
static ULong    blk_most;
static UChar    fetch_site[CP_MAX_SB_INSTRS];
static UInt     n_seen, last_site;
static IRExpr*  near_word;
static IRExpr*  run_tag;

/* Every access of statement st: addr, size, whether a store, and the
 * guard (NULL when none).  Returns False when st accesses no memory. */
typedef struct {
   IRExpr* addr;
   Int     size;
   Bool    write;
   IRExpr* guard;
} Access;

static Int size_of(const IRTypeEnv* env, const IRExpr* e)
{
   return sizeofIRType(typeOfIRExpr(env, e));
}

static Bool access_of(const IRTypeEnv* env, const IRStmt* st, Access* a)
{
   a->guard = NULL;
   a->write = False;
   switch (st->tag) {
   case Ist_WrTmp:
      if (st->Ist.WrTmp.data->tag != Iex_Load) return False;
      a->addr = st->Ist.WrTmp.data->Iex.Load.addr;
      a->size = sizeofIRType(st->Ist.WrTmp.data->Iex.Load.ty);
      return True;
   case Ist_Store:
      a->addr = st->Ist.Store.addr;
      a->size = size_of(env, st->Ist.Store.data);
      a->write = True;
      return True;
   case Ist_StoreG: {
      const IRStoreG* sg = st->Ist.StoreG.details;
      a->addr = sg->addr;
      a->size = size_of(env, sg->data);
      a->write = True;
      a->guard = sg->guard;
      return True;
   }
   case Ist_LoadG: {
      const IRLoadG* lg = st->Ist.LoadG.details;
      IRType wide = Ity_INVALID, narrow = Ity_INVALID;
      typeOfIRLoadGOp(lg->cvt, &wide, &narrow);
      a->addr = lg->addr;
      a->size = sizeofIRType(narrow);
      a->guard = lg->guard;
      return True;
   }
   case Ist_Dirty: {
      const IRDirty* d = st->Ist.Dirty.details;
      if (d->mFx == Ifx_None) return False;
      /* A modify is a store, which pages in first. */
      a->addr = d->mAddr;
      a->size = d->mSize;
      a->write = d->mFx != Ifx_Read;
      a->guard = d->guard;
      return True;
   }
   case Ist_CAS: {
      const IRCAS* cas = st->Ist.CAS.details;
      a->addr = cas->addr;
      a->size = size_of(env, cas->dataLo) * (cas->dataHi ? 2 : 1);
      a->write = True;
      return True;
   }
   case Ist_LLSC:
      a->addr = st->Ist.LLSC.addr;
      a->write = st->Ist.LLSC.storedata != NULL;
      a->size = a->write
         ? size_of(env, st->Ist.LLSC.storedata)
         : sizeofIRType(typeOfIRTemp(env, st->Ist.LLSC.result));
      return True;
   default:
      return False;
   }
}

/* Whether the 1 KiB blocks of [pc, pc+len) are all among those of
 * [prev, prev+prev_len): then the fetch costs nothing after the one
 * before it, in a run that closes no segment between them. */
static Bool same_code_pages(Addr prev, UInt prev_len, Addr pc, UInt len)
{
   Addr shift_bits = CP_ZK_BLOCK_SHIFT;
   Addr p0 = prev >> shift_bits, p1 = (prev + prev_len - 1) >> shift_bits;
   Addr q0 = pc >> shift_bits, q1 = (pc + len - 1) >> shift_bits;
   return q0 >= p0 && q1 <= p1;
}

void cp_zk_instrument_begin(const IRSB* in)
{
   const CpZkModel* m = cp_zk_model;
   ULong touch_most = 2 * ((ULong)m->page_cycles
                           + (ULong)m->node_cycles * cp_zk_tree_depth(m));
   UInt n = 0, i;
   Addr* pc;
   UChar* len;
   for (i = 0; i < (UInt)in->stmts_used; i++)
      if (in->stmts[i]->tag == Ist_IMark) n++;
   tl_assert(n <= CP_MAX_SB_INSTRS);
   blk = cp_arena_alloc(sizeof(ZkBlock));
   pc = cp_arena_alloc((n ? n : 1) * sizeof(Addr));
   len = cp_arena_alloc(n ? n : 1);
   blk->cell = cp_arena_alloc(sizeof(ULong));
   *blk->cell = 0;
   blk->pc = pc;
   blk->len = len;
   blk_most = n;
   n = 0;
   last_site = 0;
   for (i = 0; i < (UInt)in->stmts_used; i++) {
      const IRStmt* st = in->stmts[i];
      Access a;
      if (st->tag == Ist_IMark) {
         pc[n] = (Addr)st->Ist.IMark.addr;
         len[n] = (UChar)(st->Ist.IMark.len ? st->Ist.IMark.len : 1);
         fetch_site[n] = m->fetch_loads
            && (n == 0 || !same_code_pages(pc[n - 1], len[n - 1],
                                           pc[n], len[n]));
         if (fetch_site[n]) {
            last_site = n;
            blk_most += touch_most;   /* loads of at most two pages */
         }
         n++;
      } else if (access_of(in->tyenv, st, &a)) {
         ULong pages = (ULong)(a.size > 0 ? a.size : 1) / m->page_bytes + 2;
         blk_most += pages * touch_most;
      }
   }
   n_seen = 0;
   near_word = run_tag = NULL;
}

/* The flags of fetch site index. */
static UWord site_flags(UInt index)
{
   return index | (index == 0 ? CP_ZK_FIRST : 0)
          | (index == last_site ? CP_ZK_LAST : 0);
}

/* Whether the block's code is not known loaded in this segment (the epoch
 * is read at each site: a segment may close in the run before it). */
static IRExpr* code_stale(IRSB* out)
{
   return cp_ir_tmp(out, Ity_I1,
                    IRExpr_Binop(Iop_CmpNE64, cp_ir_load64(out, blk->cell),
                                 cp_ir_load64(out, &cp_zk_epoch)));
}

/* At the run's first instruction: whether the budget is below the most
 * the run can take; if so, or if its code is not known loaded, the model
 * is called (it settles the run before and fetches this instruction). */
static void enter(IRSB* out)
{
   IRExpr* left = cp_ir_load64(out, &cp_zk_budget);
   IRExpr* near = cp_ir_tmp(out, Ity_I1,
                            IRExpr_Binop(Iop_CmpLT64S, left,
                                         cp_ir_word(blk_most)));
   IRExpr* near64 = cp_ir_tmp(out, Ity_I64, IRExpr_Unop(Iop_1Uto64, near));
   IRExpr* call = near;
   UWord flags = fetch_site[0] ? site_flags(0) : 0;
   if (fetch_site[0])
      call = cp_ir_tmp(out, Ity_I1,
                       IRExpr_Binop(Iop_Or1, near, code_stale(out)));
   near_word = shift(out, Iop_Shl64, near64, CP_ZK_NEAR_BIT);
   cp_ir_call_if(out, call, 2, "cp_zk_enter", cp_zk_enter,
                 mkIRExprVec_2(mkIRExpr_HWord((HWord)blk),
                               cp_ir_binop(out, Iop_Or64, near_word,
                                           cp_ir_word(flags))));
   run_tag = cp_ir_binop(out, Iop_Or64,
                         cp_ir_binop(out, Iop_Or64,
                                     cp_ir_load64(out, &cp_zk_known_tag),
                                     cp_ir_word(3)),
                         shift(out, Iop_Shl64, near64, 63));
}

static void fetch(IRSB* out, UInt index)
{
   cp_ir_call_if(out, code_stale(out), 2, "cp_zk_fetch", cp_zk_fetch,
                 mkIRExprVec_2(mkIRExpr_HWord((HWord)blk),
                               cp_ir_binop(out, Iop_Or64, near_word,
                                           cp_ir_word(site_flags(index)))));
}

static void access(IRSB* out, const Access* a)
{
   IRExpr* need = may_page(out, a->addr, a->size, a->write, run_tag);
   UWord word = (n_seen - 1) | ((UWord)a->size << CP_ZK_SIZE_SHIFT);
   IRExpr** args = mkIRExprVec_2(a->addr,
                                 cp_ir_binop(out, Iop_Or64, near_word,
                                             cp_ir_word(word)));
   if (a->guard)
      need = cp_ir_tmp(out, Ity_I1, IRExpr_Binop(Iop_And1, a->guard, need));
   if (a->write)
      cp_ir_call_if(out, need, 2, "cp_zk_on_store", cp_zk_on_store, args);
   else
      cp_ir_call_if(out, need, 2, "cp_zk_on_load", cp_zk_on_load, args);
}

void cp_zk_instrument_stmt(IRSB* out, const IRStmt* st)
{
   Access a;
   if (st->tag == Ist_IMark) {
      if (n_seen == 0) enter(out);
      else if (fetch_site[n_seen]) fetch(out, n_seen);
      n_seen++;
   } else if (n_seen > 0 && access_of(out->tyenv, st, &a)) {
      access(out, &a);
   }
}

void cp_zk_count_exit(IRSB* out, UInt n_instrs, IRExpr* taken)
{
   cp_ir_add_if(out, mkIRExpr_HWord((HWord)&cp_zk_budget),
                -(ULong)n_instrs, taken);
}
