/* cycprof: the callgrind-format output file: header, name compression,
 * body, and the --top table (records: cp_cg_records.c). */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_options.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "cp_cg_records.h"
#include "cp_det.h"
#include "cp_heap.h"
#include "cp_objects.h"
#include "cp_options.h"
#include "cp_outfile.h"
#include "cp_parts.h"
#include "cp_regions.h"
#include "cp_sys.h"
#include "cp_write_callgrind.h"
#include "cp_zkmodel.h"
#include "cp_zkpager.h"

#ifndef CYCPROF_VERSION
#define CYCPROF_VERSION "0.1"
#endif

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
      cp_outfile_printf(out, " %llu", r->cost);
      if (cp_zk_model) cp_outfile_printf(out, " %llu", r->zk);
      cp_outfile_puts(out, "\n");
      prev = r;
   }
}

/* callgrind_annotate stops reading the header at "events:", and
 * KCachegrind only looks for it in the first 2 KiB: so "events:" comes
 * last and the command line is cut to fit. */
#define MAX_CMD_IN_HEADER 1024

/* A line of the zkVM segment table, as a comment at the end of the file
 * (as the regions' lines: a long table before "events:" would hide it
 * from KCachegrind, which reads only the first 2 KiB for it). */
static void put_zk_line(void* out, const HChar* text)
{
   cp_outfile_printf(out, "# cycprof-zkvm\t%s\n", text);
}

static void write_header(OutFile* out, ULong total, ULong zk_total,
                         const HChar* cmd)
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
      "part: %u\n"
      "desc: Trigger: %s\n"
      "desc: Deterministic: %s\n"
      "positions: %s\n"
      "event: Ir : Instructions (exact)\n",
      VG_(getpid)(), shown, cp_parts_number(), cp_parts_trigger(), cp_det_describe(),
      cp_opts.dump_instr ? "instr line" : "line");
   if (cp_zk_model)
      cp_outfile_printf(out, "event: Zk : zkVM cycles (%s model, an "
                        "estimate)\nevents: Ir Zk\nsummary: %llu %llu\n",
                        cp_zk_model->name, total, zk_total);
   else
      cp_outfile_printf(out, "events: Ir\nsummary: %llu\n", total);
}

/* The zkVM cycles of the file: its self costs' (calls carry inclusive
 * costs). */
static ULong zk_total_of(const RecordList* l)
{
   ULong sum = 0;
   UInt i;
   for (i = 0; i < l->used; i++)
      if (!l->items[i].is_call) sum += l->items[i].zk;
   return sum;
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
   fns = cp_heap_malloc("cp.cg.top", l->used * sizeof(FunctionCost));
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
   cp_heap_free(fns);
}

Bool cp_write_callgrind(const HChar* path, ULong* inclusive,
                        const SuperblockRuns* runs, ULong total,
                        const HChar* cmd)
{
   StrTab* names;
   RecordList records = { 0 };
   Namer nm;
   OutFile* out;
   Int space;
   Bool ok;
   ULong start_ms = cp_sys_now_ms();

   out = cp_outfile_open(path);
   if (!out) return False;
   names = cp_strtab_new();
   cp_cg_collect(names, inclusive, runs, &records);
   /* Beside the pprof writer's figures: this runs while it does. */
   if (VG_(clo_stats))
      VG_(dmsg)("cycprof: callgrind file: %u records gathered in %llu ms\n",
                records.used, cp_sys_now_ms() - start_ms);

   nm.out = out;
   nm.names = names;
   for (space = 0; space < 3; space++)
      nm.defined[space] = cp_heap_calloc("cp.cg.defined",
                                      cp_strtab_count(names) + 1, 1);
   write_header(out, total, zk_total_of(&records), cmd);
   write_body(out, &nm, &records);
   cp_outfile_puts(out, "\n");
   cp_regions_write_callgrind(out);
   cp_zk_table_lines(put_zk_line, out);
   if (cp_zk_model)
      cp_outfile_printf(out, "totals: %llu %llu\n", total,
                        zk_total_of(&records));
   else
      cp_outfile_printf(out, "totals: %llu\n", total);
   ok = cp_outfile_commit(out);
   if (VG_(clo_stats))
      VG_(dmsg)("cycprof: callgrind file: written in %llu ms\n",
                cp_sys_now_ms() - start_ms);
   print_top_functions(&records, names, total);

   for (space = 0; space < 3; space++) cp_heap_free(nm.defined[space]);
   cp_cg_records_free(&records);
   cp_strtab_free(names);
   return ok;
}
