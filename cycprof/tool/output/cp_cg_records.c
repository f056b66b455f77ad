/* cycprof: gathering the callgrind-format file's records.
 *
 * The file is per function like callgrind's, so that callgrind_annotate
 * and KCachegrind show what users know: self costs are summed over all
 * contexts, and a call line sums every context entered from that call
 * site into that callee.  Exact stacks live in the pprof profile.
 *
 * Memory stays small at exit: self costs are summed per superblock
 * before being expanded to instructions, and records are merged by place
 * whenever the list fills up. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "cp_addrmap.h"
#include "cp_array.h"
#include "cp_cg_arcs.h"
#include "cp_cg_naming.h"
#include "cp_cg_records.h"
#include "cp_context.h"
#include "cp_costs.h"
#include "cp_heap.h"
#include "cp_objects.h"
#include "cp_options.h"
#include "cp_owner_purity.h"
#include "cp_sbinfo.h"
#include "cp_sys.h"
#include "cp_unnamed.h"
#include "cp_zkmodel.h"
#include "cp_zkpager.h"

static Int cmp_uint(UInt a, UInt b) { return a < b ? -1 : a > b; }
static Int cmp_addr(Addr a, Addr b) { return a < b ? -1 : a > b; }

/* Records at the same position of a function are merged: per line, or
 * per instruction with --dump-instr=yes. */
static Addr position_key(const Record* r)
{
   return cp_opts.dump_instr ? r->addr : r->at.line;
}

static Int record_order(const void* pa, const void* pb)
{
   const Record* a = pa;
   const Record* b = pb;
   Int c;
   if ((c = cmp_uint(a->at.obj, b->at.obj))) return c;
   if ((c = cmp_uint(a->at.file, b->at.file))) return c;
   if ((c = cmp_uint(a->at.fn, b->at.fn))) return c;
   if ((c = cmp_uint(a->is_call, b->is_call))) return c;
   if ((c = cmp_addr(position_key(a), position_key(b)))) return c;
   if ((c = cmp_uint(a->callee.obj, b->callee.obj))) return c;
   if ((c = cmp_uint(a->callee.file, b->callee.file))) return c;
   return cmp_uint(a->callee.fn, b->callee.fn);
}

static UWord place_hash(const Record* r)
{
   UWord h = cp_hash_word(((UWord)r->at.obj << 32) ^ r->at.file);
   h = cp_hash_word(h ^ ((UWord)r->at.fn << 1) ^ r->is_call);
   h = cp_hash_word(h ^ position_key(r));
   h = cp_hash_word(h ^ ((UWord)r->callee.obj << 32) ^ r->callee.file);
   return cp_hash_word(h ^ r->callee.fn);
}

/* The index maps a place to 1 + its record's position; kept at most
 * half full. */
static UInt* index_slot(const RecordList* l, const Record* r)
{
   UWord mask = l->index_size - 1, i = place_hash(r) & mask;
   while (l->index[i]
          && record_order(&l->items[l->index[i] - 1], r) != 0)
      i = (i + 1) & mask;
   return &l->index[i];
}

static void grow_records(RecordList* l)
{
   UInt k;
   l->capacity = l->capacity ? 2 * l->capacity : 4096;
   l->items = cp_heap_realloc("cp.cg.records", l->items,
                           l->capacity * sizeof(Record));
   cp_heap_free(l->index);
   l->index_size = 2 * l->capacity;
   l->index = cp_heap_calloc("cp.cg.index", l->index_size, sizeof(UInt));
   for (k = 0; k < l->used; k++) *index_slot(l, &l->items[k]) = k + 1;
}

/* A record to fill in, then hand to keep_record(). */
static Record* new_record(RecordList* l)
{
   if (l->used == l->capacity) grow_records(l);
   VG_(memset)(&l->items[l->used], 0, sizeof(Record));
   return &l->items[l->used];
}

/* Each place is kept once, its costs and calls summed, so memory follows
 * the number of distinct (function, position, callee) places. */
static void keep_record(RecordList* l)
{
   Record* r = &l->items[l->used];
   UInt* slot = index_slot(l, r);
   if (r->zk == 0) r->zk = r->cost;   /* instructions: one cycle each */
   if (*slot) {
      l->items[*slot - 1].zk += r->zk;
      l->items[*slot - 1].cost += r->cost;
      l->items[*slot - 1].calls += r->calls;
   } else {
      *slot = ++l->used;
   }
}

static Bool same_function(SrcPos a, SrcPos b)
{
   return a.obj == b.obj && a.file == b.file && a.fn == b.fn;
}

/* Code of the frame's own function from another source file (inlined
 * from a header) is not foreign: like callgrind, no call line joins the
 * parts, which KCachegrind would show as the function calling itself. */
static Bool foreign_to(SrcPos code, SrcPos frame)
{
   return code.obj != frame.obj || code.fn != frame.fn;
}

/* The function block a context's own costs and calls belong to: its
 * frame's function (a root has none: then the code's own function). */
static SrcPos frame_function(Naming* nm, const Context* c, Addr fallback)
{
   SrcPos p = cp_naming_function_at(nm, c->kind == CtxRoot
                                            ? fallback : cp_context_fn(c));
   p.line = 0;
   return p;
}

static void new_call_zk(RecordList* l, SrcPos caller, Addr addr,
                        SrcPos callee, Addr callee_addr, ULong calls,
                        ULong cost, ULong zk)
{
   Record* r = new_record(l);
   r->zk = zk;
   r->is_call = True;
   r->at = caller;
   r->addr = addr;
   r->callee = callee;
   r->callee_addr = callee_addr;
   r->calls = calls;
   r->cost = cost;
   keep_record(l);
}

static void new_call(RecordList* l, SrcPos caller, Addr addr, SrcPos callee,
                     Addr callee_addr, ULong calls, ULong cost)
{
   new_call_zk(l, caller, addr, callee, callee_addr, calls, cost, 0);
}

/* What the code of each superblock belongs to, computed once for all
 * contexts the superblock ran in. */
typedef enum {
   OneFunction,      /* all of it: function */
   SeveralFunctions, /* all with symbols */
   SomeUnnamed       /* some code has no symbol: named per context */
} SuperblockKind;

typedef struct {
   SrcPos         function;
   SuperblockKind kind;
   /* SomeUnnamed: all its code without a symbol is of one object, so
    * in one context it all gets one name. */
   Bool           one_unnamed_object;
   /* SomeUnnamed: its first instruction without a symbol, and whether
    * that one has the lowest address of them all (one object, none
    * below it): then a run that reaches it has it as its lowest. */
   UInt           first_unnamed;
   Bool           first_is_lowest;
   SrcPos*        instr_pos;   /* [n_instrs], unless OneFunction */
} SuperblockFunction;

/* Self costs: each superblock's counters summed over all contexts, then
 * expanded once to its instructions.  Code without a symbol is left for
 * the per-context pass, since its name depends on the context. */
static void collect_self_costs(Naming* nm, RecordList* l,
                               SuperblockFunction* sb_fn,
                               const SuperblockRuns* sums)
{
   UInt n_sbs = cp_sbinfo_count(), k, i;
   SrcPos at[CP_MAX_SB_INSTRS];
   for (k = 0; k < n_sbs; k++) {
      const SBInfo* sb = cp_sbinfo_at(k);
      SuperblockFunction* info = &sb_fn[k];
      ULong per_instr[CP_MAX_SB_INSTRS];
      cp_instr_counts(sb, sums->runs + sums->first[k], per_instr);
      info->kind = OneFunction;
      for (i = 0; i < sb->n_instrs; i++) {
         at[i] = cp_srcpos_of(nm->names, cp_sb_instr_addr(sb, i));
         if (!cp_naming_has_symbol(nm, at[i])) {
            info->kind = SomeUnnamed;
            continue;
         }
         if (info->kind == OneFunction && i > 0
             && !same_function(at[0], at[i]))
            info->kind = SeveralFunctions;
         if (per_instr[i]) {
            Record* r = new_record(l);
            r->at = at[i];
            r->addr = cp_sb_instr_addr(sb, i);
            r->cost = per_instr[i];
            keep_record(l);
         }
      }
      info->function = at[0];
      if (info->kind == SomeUnnamed) {
         UInt obj = 0;
         Addr first = 0;
         info->one_unnamed_object = True;
         info->first_is_lowest = True;
         for (i = 0; i < sb->n_instrs; i++) {
            if (cp_naming_has_symbol(nm, at[i])) continue;
            if (obj && at[i].obj + 1 != obj) info->one_unnamed_object = False;
            if (!obj) {
               info->first_unnamed = i;
               first = cp_sb_instr_addr(sb, i);
            } else if (cp_sb_instr_addr(sb, i) < first) {
               info->first_is_lowest = False;
            }
            obj = at[i].obj + 1;
         }
         if (!info->one_unnamed_object) info->first_is_lowest = False;
      }
      /* Kept for the per-context pass, which looks at each instruction
       * of these superblocks once per context. */
      if (info->kind != OneFunction) {
         info->instr_pos = cp_heap_malloc("cp.cg.instrpos",
                                       sb->n_instrs * sizeof(SrcPos));
         VG_(memcpy)(info->instr_pos, at, sb->n_instrs * sizeof(SrcPos));
      }
   }
}

static void find_unnamed_bases(const Naming* nm, const RanBlocks* ran,
                               const SuperblockFunction* sb_fn,
                               UnnamedBases* b)
{
   UInt k, i;
   b->used = 0;
   for (k = 0; k < ran->used; k++) {
      const SBInfo* sb = ran->items[k].sb;
      const ULong* counts = ran->items[k].counts;
      const SuperblockFunction* info = &sb_fn[sb->id];
      ULong per_instr[CP_MAX_SB_INSTRS];
      if (info->kind != SomeUnnamed) continue;
      /* What ran is a prefix: the cheap case needs only its length. */
      if (info->first_is_lowest) {
         if (cp_ran_prefix(sb, counts) > info->first_unnamed)
            cp_unnamed_note(b, info->instr_pos[info->first_unnamed].obj,
                            cp_sb_instr_addr(sb, info->first_unnamed));
         continue;
      }
      cp_instr_counts(sb, counts, per_instr);
      for (i = 0; i < sb->n_instrs; i++)
         if (per_instr[i] && !cp_naming_has_symbol(nm, info->instr_pos[i]))
            cp_unnamed_note(b, info->instr_pos[i].obj,
                            cp_sb_instr_addr(sb, i));
   }
}

typedef struct {
   SrcPos code;     /* line: of the lowest address seen */
   Addr   first;    /* the lowest address seen */
   ULong  cost;
} ForeignCost;

typedef struct {
   ForeignCost* items;
   UInt         used, capacity;
} ForeignList;

static void add_foreign(ForeignList* f, SrcPos code, Addr addr, ULong cost)
{
   UInt k;
   ForeignCost* e;
   for (k = 0; k < f->used; k++)
      if (same_function(f->items[k].code, code)) break;
   if (k == f->used) {
      f->items = cp_room_for_one("cp.cg.foreign", f->items, f->used,
                                 &f->capacity, sizeof(ForeignCost), 16);
      f->items[f->used].first = ~(Addr)0;
      f->items[f->used].cost = 0;
      f->used++;
   }
   e = &f->items[k];
   if (addr < e->first) {
      e->first = addr;
      e->code = code;
   }
   e->cost += cost;
}

static Bool same_position(const Record* r, SrcPos at, Addr addr)
{
   return same_function(r->at, at) && r->at.line == at.line
          && (!cp_opts.dump_instr || r->addr == addr);
}

static void keep_unnamed_cost(RecordList* l, const Record* pending)
{
   Record* r = new_record(l);
   r->at = pending->at;
   r->addr = pending->addr;
   r->cost = pending->cost;
   keep_record(l);
}

/* The code of one superblock run in context c that is not c's frame's
 * function goes to f; unnamed code's self cost is recorded here. */
static void charge_superblock(Naming* nm, RecordList* l, ForeignList* f,
                              const UnnamedBases* bases,
                              const Context* c, SrcPos frame,
                              const SBInfo* sb, const ULong* counts,
                              const SuperblockFunction* info)
{
   Bool rooted = c->kind == CtxRoot;
   ULong per_instr[CP_MAX_SB_INSTRS];
   UInt i;
   Record pending;        /* unnamed code not yet kept */
   UInt named_fn = 0;     /* its name here, when one_unnamed_object */
   pending.cost = 0;
   if (info->kind == OneFunction) {
      if (!rooted && foreign_to(info->function, frame))
         add_foreign(f, info->function, sb->addr, cp_counts_total(sb, counts));
      return;
   }
   if (rooted && info->kind != SomeUnnamed) return;
   cp_instr_counts(sb, counts, per_instr);
   for (i = 0; i < sb->n_instrs; i++) {
      Addr a = cp_sb_instr_addr(sb, i);
      SrcPos code = info->instr_pos[i];
      if (!per_instr[i]) continue;
      if (!cp_naming_has_symbol(nm, code)) {
         if (!info->one_unnamed_object || !named_fn) {
            code = cp_naming_code_at(nm, code, c,
                                     cp_unnamed_lowest(bases, code.obj));
            named_fn = code.fn;
         } else {
            code.fn = named_fn;
         }
         /* Instructions at one position make one record: sum them
          * before looking the record up. */
         if (pending.cost && !same_position(&pending, code, a)) {
            keep_unnamed_cost(l, &pending);
            pending.cost = 0;
         }
         if (!pending.cost) {
            pending.at = code;
            pending.addr = a;
         }
         pending.cost += per_instr[i];
      }
      if (!rooted && foreign_to(code, frame))
         add_foreign(f, code, a, per_instr[i]);
   }
   if (pending.cost) keep_unnamed_cost(l, &pending);
}

static ULong function_key(SrcPos p)
{
   return ((ULong)(p.obj + 1) << 32) | p.fn;
}

/* What an owner's purity asks (cp_owner_purity.h), of sb_fn. */
static Bool superblock_of(UInt id, ULong frame_fn, const void* sb_fn)
{
   const SuperblockFunction* info = &((const SuperblockFunction*)sb_fn)[id];
   return info->kind == OneFunction && function_key(info->function) == frame_fn;
}

/* Code of another function running in a frame (a jump into its middle,
 * a part inlined from a header, a signal trampoline) is shown as one call
 * per (context, function) from the frame's function, so inclusive costs
 * add up.  Its count is how often the frame was entered:
 * callgrind_annotate takes a cost after "calls=0" as self cost.
 * Contexts are walked depth first so that a call line into a function
 * active further up carries nothing (cp_cg_arcs.h); inclusive[id]
 * becomes the cost of the call line into each context. */
static UInt collect_context_costs(Naming* nm, RecordList* l,
                                  ULong* inclusive,
                                  const SuperblockFunction* sb_fn)
{
   UInt skipped = 0;
   ForeignList f = { 0 };
   UnnamedBases bases = { 0 };
   RanBlocks ran = { 0 };
   ArcWalk* w = cp_arcs_begin(inclusive);
   const Context* c;
   UInt k;
   ULong calls;
   OwnerPurity purity;
   cp_purity_init(&purity, superblock_of, sb_fn);
   while ((c = cp_arcs_next(w)) != NULL) {
      SrcPos frame = { 0 };
      if (c->kind != CtxRoot) {
         frame = frame_function(nm, c, 0);
         cp_arcs_set_function(w, function_key(frame));
      }
      if (!cp_context_ran_code(c)) continue;
      /* Only its frame's function ran here: it has no cost to charge
       * (its self cost is its superblocks', collect_self_costs's). */
      if (c->kind != CtxRoot && !c->has_foreign
          && cp_owner_pure(&purity, cp_context_owner(c),
                           function_key(frame))) {
         skipped++;
         continue;
      }
      f.used = 0;
      cp_context_gather(c, &ran);
      find_unnamed_bases(nm, &ran, sb_fn, &bases);
      for (k = 0; k < ran.used; k++)
         charge_superblock(nm, l, &f, &bases, c, frame, ran.items[k].sb,
                           ran.items[k].counts,
                           &sb_fn[ran.items[k].sb->id]);
      if (c->kind == CtxRoot) continue;
      calls = cp_context_calls(c);
      for (k = 0; k < f.used; k++)
         if (!cp_arcs_active(w, function_key(f.items[k].code)))
            new_call(l, frame, f.items[k].first, f.items[k].code,
                     f.items[k].first, calls ? calls : 1, f.items[k].cost);
   }
   cp_heap_free(f.items);
   cp_heap_free(ran.items);
   cp_heap_free(bases.items);
   cp_purity_free(&purity);
   cp_arcs_finish(w);
   return skipped;
}

/* A call line per context, in the caller frame's function block, carrying
 * arc[id] (cp_cg_arcs.h). */
static void collect_calls(Naming* nm, RecordList* l, const ULong* arc,
                          const ULong* zk_arc,
                          const SuperblockFunction* sb_fn)
{
   UnnamedBases bases = { 0 };
   RanBlocks ran = { 0 };
   const Context* bases_of = NULL;
   UInt id, n = cp_context_count();
   for (id = 1; id <= n; id++) {
      const Context* c = cp_context_by_id(id);
      const Context* parent;
      Addr callsite;
      SrcPos caller;
      /* Top-level frames (callsite 0) were entered from nowhere. */
      if (cp_context_site_id(c) == 0 || arc[id] == 0) continue;
      parent = cp_context_frame_parent(c);
      callsite = cp_context_callsite(c);
      caller = frame_function(nm, parent, callsite);
      if (parent->kind == CtxRoot) {
         SrcPos raw = cp_srcpos_of(nm->names, callsite);
         /* Named like the root's own unnamed code (a thread's first
          * code, e.g. a stripped program's _start). */
         if (!cp_naming_has_symbol(nm, raw)) {
            if (bases_of != parent) {
               cp_context_gather(parent, &ran);
               find_unnamed_bases(nm, &ran, sb_fn, &bases);
               bases_of = parent;
            }
            caller = cp_naming_code_at(nm, raw, parent,
                                       cp_unnamed_lowest(&bases, raw.obj));
         }
      }
      caller.line = cp_naming_function_at(nm, callsite).line;
      new_call_zk(l, caller, callsite,
                  cp_naming_function_at(nm, cp_context_fn(c)),
                  cp_context_fn(c), cp_context_calls(c), arc[id],
                  zk_arc ? zk_arc[id] : 0);
   }
   cp_heap_free(ran.items);
   cp_heap_free(bases.items);
}

/* --zk-model: each context's inclusive zkVM cycles (its inclusive
 * instructions plus the model's costs charged in its subtree; parents
 * have smaller ids), made into call-line costs by the walk that makes
 * inclusive[]'s (cp_cg_arcs.h).  NULL without a model. */
static ULong* zk_arcs(Naming* nm, const ULong* inclusive)
{
   UInt id, n = cp_context_count();
   ULong* zk;
   ArcWalk* w;
   const Context* c;
   if (!cp_zk_model) return NULL;
   zk = cp_heap_calloc("cp.cg.zk", n + 1, sizeof(ULong));
   for (id = n; id >= 1; id--) {
      const ZkCost* z;
      c = cp_context_by_id(id);
      z = cp_zk_cost_of(c);
      if (z) zk[id] += z->page_in + z->page_out + z->segment;
      if (c->parent_id) zk[c->parent_id] += zk[id];
   }
   for (id = 1; id <= n; id++) zk[id] += inclusive[id];
   w = cp_arcs_begin(zk);
   while ((c = cp_arcs_next(w)) != NULL)
      if (c->kind != CtxRoot)
         cp_arcs_set_function(w, function_key(frame_function(nm, c, 0)));
   cp_arcs_finish(w);
   return zk;
}

/* A frame named name under caller's function, costing zk zkVM cycles and
 * no instruction: RISC Zero's profiler's [PageIn] and [PageOut]. */
static void zk_frame(Naming* nm, RecordList* l, const SrcPos* caller,
                     const HChar* name, ULong zk)
{
   SrcPos frame;
   Record* r;
   if (zk == 0) return;
   if (caller) {
      frame = *caller;
   } else {   /* a thread's root: no function to call it from */
      frame.obj = cp_strtab_intern(nm->names, CP_UNKNOWN_NAME);
      frame.file = frame.obj;
   }
   frame.fn = cp_strtab_intern(nm->names, name);
   frame.line = 0;
   if (caller) new_call_zk(l, *caller, 0, frame, 0, 1, 0, zk);
   r = new_record(l);
   r->at = frame;
   r->zk = zk;
   keep_record(l);
}

/* The model's costs of each context, as frames under its function. */
static void collect_zk_frames(Naming* nm, RecordList* l)
{
   UInt id, n = cp_context_count();
   if (!cp_zk_model) return;
   for (id = 1; id <= n; id++) {
      const Context* c = cp_context_by_id(id);
      const ZkCost* z = cp_zk_cost_of(c);
      SrcPos frame;
      if (!z) continue;
      if (c->kind != CtxRoot) frame = frame_function(nm, c, 0);
      zk_frame(nm, l, c->kind != CtxRoot ? &frame : NULL, "[PageIn]",
               z->page_in);
      zk_frame(nm, l, c->kind != CtxRoot ? &frame : NULL, "[PageOut]",
               z->page_out);
      zk_frame(nm, l, c->kind != CtxRoot ? &frame : NULL, "[Segment]",
               z->segment);
   }
}

void cp_cg_collect(StrTab* names, ULong* inclusive,
                   const SuperblockRuns* runs, RecordList* l)
{
   UInt k, n_sbs = cp_sbinfo_count();
   SuperblockFunction* sb_fn = cp_heap_calloc("cp.cg.sbfn", n_sbs + 1,
                                           sizeof(SuperblockFunction));
   Naming nm;
   /* Wall ms at the end of each step, for --stats=yes. */
   ULong ms[4];
   UInt pure;
   ULong* zk_arc;
   ms[0] = cp_sys_now_ms();
   cp_naming_init(&nm, names);
   collect_self_costs(&nm, l, sb_fn, runs);
   ms[1] = cp_sys_now_ms();
   zk_arc = zk_arcs(&nm, inclusive);
   pure = collect_context_costs(&nm, l, inclusive, sb_fn);
   ms[2] = cp_sys_now_ms();
   collect_calls(&nm, l, inclusive, zk_arc, sb_fn);
   collect_zk_frames(&nm, l);
   cp_heap_free(zk_arc);
   ms[3] = cp_sys_now_ms();
   if (VG_(clo_stats))
      VG_(dmsg)("cycprof: callgrind file: self costs %llu ms, contexts "
                "%llu ms (%u of only their frame's function), calls %llu "
                "ms\n", ms[1] - ms[0], ms[2] - ms[1], pure, ms[3] - ms[2]);
   for (k = 0; k < n_sbs; k++) cp_heap_free(sb_fn[k].instr_pos);
   cp_heap_free(sb_fn);
   cp_naming_free(&nm);
   cp_heap_free(l->index);
   l->index = NULL;
   VG_(ssort)(l->items, l->used, sizeof(Record), record_order);
}

void cp_cg_records_free(RecordList* l)
{
   cp_heap_free(l->items);
   l->items = NULL;
   l->used = l->capacity = 0;
}
