/* cycprof: the callgrind-format output file.
 *
 * The file is per function like callgrind's, so that callgrind_annotate
 * and KCachegrind show what users know: self costs are summed over all
 * contexts, and a call line sums every context entered from that call
 * site into that callee.  Exact stacks live in the pprof profile. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "cp_addrmap.h"
#include "cp_context.h"
#include "cp_costs.h"
#include "cp_objects.h"
#include "cp_options.h"
#include "cp_outfile.h"
#include "cp_srcpos.h"
#include "cp_write_callgrind.h"

#ifndef CYCPROF_VERSION
#define CYCPROF_VERSION "0.1"
#endif

typedef struct {
   SrcPos at;       /* the function block and line this record belongs to */
   Addr   addr;
   Bool   is_call;
   SrcPos callee;   /* calls only */
   Addr   callee_addr;
   ULong  calls;
   ULong  cost;     /* self cost, or inclusive cost of the call */
} Record;

typedef struct {
   Record* items;
   UInt    used, capacity;
} RecordList;

typedef struct {
   StrTab*  names;
   AddrMap  pos_index;     /* addr -> 1 + index into positions */
   SrcPos*  positions;
   UInt     n_positions, positions_capacity;
} Symbols;

static SrcPos lookup(Symbols* s, Addr a)
{
   UWord* known = cp_addrmap_find(&s->pos_index, a);
   if (known) return s->positions[*known - 1];
   if (s->n_positions == s->positions_capacity) {
      s->positions_capacity = s->positions_capacity
                              ? 2 * s->positions_capacity : 1024;
      s->positions = VG_(realloc)("cp.cg.pos", s->positions,
                                  s->positions_capacity * sizeof(SrcPos));
   }
   s->positions[s->n_positions] = cp_srcpos_of(s->names, a);
   cp_addrmap_put(&s->pos_index, a, ++s->n_positions);
   return s->positions[s->n_positions - 1];
}

static void merge_same_places(RecordList* l);

/* Merging before growing keeps the list near the number of distinct
 * (function, position, callee) places rather than of contexts. */
static Record* new_record(RecordList* l)
{
   if (l->used == l->capacity) {
      if (l->used >= (1u << 16)) merge_same_places(l);
      /* Grow only when merging did not free at least half of the list. */
      if (l->capacity == 0 || 2 * l->used > l->capacity) {
         l->capacity = l->capacity ? 2 * l->capacity : 4096;
         l->items = VG_(realloc)("cp.cg.records", l->items,
                                 l->capacity * sizeof(Record));
      }
   }
   VG_(memset)(&l->items[l->used], 0, sizeof(Record));
   return &l->items[l->used++];
}

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

static Bool same_place(const Record* a, const Record* b)
{
   return record_order(a, b) == 0;
}

static Bool same_function(SrcPos a, SrcPos b)
{
   return a.obj == b.obj && a.file == b.file && a.fn == b.fn;
}

/* The function block a context's own costs and calls belong to: its
 * frame's function (a root has none: then the code's own function). */
static SrcPos frame_function(Symbols* s, const Context* c, Addr fallback)
{
   SrcPos p = lookup(s, c->kind == CtxRoot ? fallback : c->fn);
   p.line = 0;
   return p;
}

static Record* new_call(RecordList* l, SrcPos caller, Addr addr,
                        SrcPos callee, Addr callee_addr, ULong calls,
                        ULong cost)
{
   Record* r = new_record(l);
   r->is_call = True;
   r->at = caller;
   r->addr = addr;
   r->callee = callee;
   r->callee_addr = callee_addr;
   r->calls = calls;
   r->cost = cost;
   return r;
}

/* A call line per context, in the caller frame's function block, so that
 * every function's incoming inclusive cost is its self cost plus its
 * outgoing calls, as callgrind_annotate computes it. */
static void collect_calls(Symbols* s, RecordList* l, const ULong* inclusive)
{
   UInt id, n = cp_context_count();
   for (id = 1; id <= n; id++) {
      Context* c = cp_context_by_id(id);
      SrcPos caller;
      /* Top-level frames (callsite 0) were entered from nowhere. */
      if (c->callsite == 0 || inclusive[id] == 0) continue;
      caller = frame_function(s, c->parent, c->callsite);
      caller.line = lookup(s, c->callsite).line;
      new_call(l, caller, c->callsite, lookup(s, c->fn), c->fn, c->calls,
               inclusive[id]);
   }
}

typedef struct {
   SrcPos code;
   Addr   first;
   ULong  cost;
} ForeignCost;

typedef struct {
   ForeignCost* items;
   UInt         used, capacity;
} ForeignList;

static ForeignCost* foreign_entry(ForeignList* f, SrcPos code, Addr addr)
{
   UInt k;
   for (k = 0; k < f->used; k++)
      if (same_function(f->items[k].code, code)) return &f->items[k];
   if (f->used == f->capacity) {
      f->capacity = f->capacity ? 2 * f->capacity : 16;
      f->items = VG_(realloc)("cp.cg.foreign", f->items,
                              f->capacity * sizeof(ForeignCost));
   }
   f->items[f->used].code = code;
   f->items[f->used].first = addr;
   f->items[f->used].cost = 0;
   return &f->items[f->used++];
}

/* Code of another function running in a frame (a jump into its middle,
 * a part inlined from a header, a signal trampoline) is shown as one call
 * per (context, function) from the frame's function, so inclusive costs
 * add up.  Its count is how often the frame was entered:
 * callgrind_annotate takes a cost after "calls=0" as self cost. */
static void add_foreign_code(Symbols* s, RecordList* l, const Context* c,
                             const AddrCostList* costs, ForeignList* f)
{
   SrcPos frame;
   UInt i;
   if (c->kind == CtxRoot) return;
   frame = frame_function(s, c, 0);
   f->used = 0;
   for (i = 0; i < costs->used; i++) {
      SrcPos code = lookup(s, costs->items[i].addr);
      if (!same_function(code, frame))
         foreign_entry(f, code, costs->items[i].addr)->cost
            += costs->items[i].count;
   }
   for (i = 0; i < f->used; i++)
      new_call(l, frame, f->items[i].first, f->items[i].code,
               f->items[i].first, c->calls ? c->calls : 1, f->items[i].cost);
}

/* One pass over the contexts, expanding each one's counters once: self
 * costs are summed per address (far fewer addresses than (context,
 * address) pairs), and foreign code becomes call lines. */
static void collect_costs(Symbols* s, RecordList* l)
{
   AddrCostList costs = { 0 };
   ForeignList foreign = { 0 };
   AddrMap per_addr;
   UInt id, i, n = cp_context_count();
   UWord k;
   cp_addrmap_init(&per_addr, 4096);
   for (id = 1; id <= n; id++) {
      Context* c = cp_context_by_id(id);
      cp_context_self_costs(c, &costs);
      for (i = 0; i < costs.used; i++) {
         UWord* sum = cp_addrmap_find(&per_addr, costs.items[i].addr);
         if (sum) *sum += costs.items[i].count;
         else cp_addrmap_put(&per_addr, costs.items[i].addr,
                             costs.items[i].count);
      }
      add_foreign_code(s, l, c, &costs, &foreign);
   }
   for (k = 0; k < per_addr.capacity; k++) {
      Record* r;
      if (per_addr.keys[k] == 0) continue;
      r = new_record(l);
      r->addr = per_addr.keys[k];
      r->at = lookup(s, r->addr);
      r->cost = per_addr.values[k];
   }
   VG_(free)(foreign.items);
   VG_(free)(per_addr.keys);
   VG_(free)(per_addr.values);
   cp_addrcostlist_free(&costs);
}

static void merge_same_places(RecordList* l)
{
   UInt i, o = 0;
   if (l->used == 0) return;
   VG_(ssort)(l->items, l->used, sizeof(Record), record_order);
   for (i = 1; i < l->used; i++) {
      if (same_place(&l->items[o], &l->items[i])) {
         l->items[o].cost += l->items[i].cost;
         l->items[o].calls += l->items[i].calls;
      } else {
         l->items[++o] = l->items[i];
      }
   }
   l->used = o + 1;
}

/* Name compression: "(id) name" the first time, "(id)" after. */
typedef struct {
   OutFile* out;
   const StrTab* names;
   UChar* defined[3];   /* per name space: objects, files, functions */
} Namer;

enum { NsObject, NsFile, NsFunction };

static void put_name(Namer* nm, const HChar* key, Int space, UInt id)
{
   if (nm->defined[space][id]) {
      cp_outfile_printf(nm->out, "%s=(%u)\n", key, id);
   } else {
      nm->defined[space][id] = 1;
      cp_outfile_printf(nm->out, "%s=(%u) %s\n", key, id,
                        cp_strtab_get(nm->names, id));
   }
}

static void put_position(OutFile* out, Addr a, UInt line)
{
   if (cp_opts.dump_instr) {
      Int obj = cp_object_index_of(a);
      Addr rel = obj >= 0 ? a - cp_object(obj)->bias : a;
      cp_outfile_printf(out, "0x%lx ", rel);
   }
   cp_outfile_printf(out, "%u", line);
}

static void write_body(OutFile* out, Namer* nm, const RecordList* l)
{
   const Record* prev = NULL;
   UInt i;
   for (i = 0; i < l->used; i++) {
      const Record* r = &l->items[i];
      if (!prev || prev->at.obj != r->at.obj)
         put_name(nm, "ob", NsObject, r->at.obj);
      if (!prev || prev->at.obj != r->at.obj || prev->at.file != r->at.file)
         put_name(nm, "fl", NsFile, r->at.file);
      if (!prev || prev->at.obj != r->at.obj || prev->at.file != r->at.file
          || prev->at.fn != r->at.fn) {
         cp_outfile_puts(out, "\n");
         put_name(nm, "fn", NsFunction, r->at.fn);
      }
      if (r->is_call) {
         put_name(nm, "cob", NsObject, r->callee.obj);
         put_name(nm, "cfi", NsFile, r->callee.file);
         put_name(nm, "cfn", NsFunction, r->callee.fn);
         cp_outfile_printf(out, "calls=%llu ", r->calls);
         put_position(out, r->callee_addr, r->callee.line);
         cp_outfile_puts(out, "\n");
      }
      put_position(out, r->addr, r->at.line);
      cp_outfile_printf(out, " %llu\n", r->cost);
      prev = r;
   }
}

/* callgrind_annotate stops reading the header at "events:", and
 * KCachegrind only looks for it in the first 2 KiB: so "events:" comes
 * last and the command line is cut to fit. */
#define MAX_CMD_IN_HEADER 1024

static void write_header(OutFile* out, ULong total, const HChar* cmd)
{
   HChar shown[MAX_CMD_IN_HEADER + 4];
   SizeT len = VG_(strlen)(cmd);
   if (len > MAX_CMD_IN_HEADER) {
      VG_(memcpy)(shown, cmd, MAX_CMD_IN_HEADER);
      VG_(strcpy)(shown + MAX_CMD_IN_HEADER, "...");
   } else {
      VG_(strcpy)(shown, cmd);
   }
   cp_outfile_printf(out,
      "# callgrind format\n"
      "version: 1\n"
      "creator: cycprof-" CYCPROF_VERSION "\n"
      "pid: %d\n"
      "cmd: %s\n"
      "part: 1\n"
      "positions: %s\n"
      "event: Ir : Instructions (exact)\n"
      "events: Ir\n"
      "summary: %llu\n",
      VG_(getpid)(), shown, cp_opts.dump_instr ? "instr line" : "line",
      total);
}

typedef struct {
   SrcPos fn;
   ULong  self;
} FunctionCost;

static Int by_cost_descending(const void* pa, const void* pb)
{
   ULong a = ((const FunctionCost*)pa)->self;
   ULong b = ((const FunctionCost*)pb)->self;
   return a > b ? -1 : a < b ? 1 : 0;
}

/* --top=N: the costliest functions by self cost, in the Valgrind log,
 * laid out like 'cycprof report'. Records are sorted by function. */
static void print_top_functions(const RecordList* l, const StrTab* names,
                                ULong total)
{
   FunctionCost* fns;
   UInt i, n = 0;
   if (cp_opts.top <= 0 || l->used == 0) return;
   fns = VG_(malloc)("cp.cg.top", l->used * sizeof(FunctionCost));
   for (i = 0; i < l->used; i++) {
      const Record* r = &l->items[i];
      if (n == 0 || fns[n - 1].fn.obj != r->at.obj
          || fns[n - 1].fn.file != r->at.file || fns[n - 1].fn.fn != r->at.fn) {
         fns[n].fn = r->at;
         fns[n++].self = 0;
      }
      if (!r->is_call) fns[n - 1].self += r->cost;
   }
   VG_(ssort)(fns, n, sizeof(FunctionCost), by_cost_descending);
   VG_(umsg)("Top %d functions by self instructions (total %s):\n",
             cp_opts.top, cp_thousands(total));
   for (i = 0; i < n && i < (UInt)cp_opts.top && fns[i].self > 0; i++) {
      ULong tenths = total ? fns[i].self * 1000 / total : 0;
      VG_(umsg)("%15s (%3llu.%llu%%)  %s:%s [%s]\n",
                cp_thousands(fns[i].self), tenths / 10, tenths % 10,
                cp_strtab_get(names, fns[i].fn.file),
                cp_strtab_get(names, fns[i].fn.fn),
                cp_strtab_get(names, fns[i].fn.obj));
   }
   VG_(free)(fns);
}

Bool cp_write_callgrind(const HChar* path, const ULong* inclusive,
                        ULong total, const HChar* cmd)
{
   Symbols syms = { 0 };
   RecordList records = { 0 };
   Namer nm;
   OutFile* out;
   Int space;
   Bool ok;

   out = cp_outfile_open(path);
   if (!out) return False;
   syms.names = cp_strtab_new();
   cp_addrmap_init(&syms.pos_index, 4096);
   collect_costs(&syms, &records);
   collect_calls(&syms, &records, inclusive);
   merge_same_places(&records);

   nm.out = out;
   nm.names = syms.names;
   for (space = 0; space < 3; space++)
      nm.defined[space] = VG_(calloc)("cp.cg.defined",
                                      cp_strtab_count(syms.names) + 1, 1);
   write_header(out, total, cmd);
   write_body(out, &nm, &records);
   cp_outfile_printf(out, "\ntotals: %llu\n", total);
   ok = cp_outfile_commit(out);
   print_top_functions(&records, syms.names, total);

   for (space = 0; space < 3; space++) VG_(free)(nm.defined[space]);
   VG_(free)(records.items);
   VG_(free)(syms.positions);
   VG_(free)(syms.pos_index.keys);
   VG_(free)(syms.pos_index.values);
   cp_strtab_free(syms.names);
   return ok;
}
