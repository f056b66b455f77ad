/* cycprof: everything that happens at exit: the summary line, the
 * callgrind-format file, and the pprof profile through the helper. */
#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_xarray.h"
#include "cp_arena.h"
#include "cp_callstack.h"
#include "cp_collect.h"
#include "cp_parts.h"
#include "cp_regions.h"
#include "cp_instrument.h"
#include "cp_context.h"
#include "cp_costs.h"
#include "cp_dump.h"
#include "cp_objects.h"
#include "cp_options.h"
#include "cp_stats.h"
#include "cp_outfile.h"
#include "cp_srcpos.h"
#include "cp_write_callgrind.h"
#include "cp_write_stacks.h"

static HChar* callgrind_path;
static HChar* pprof_path;

/* Names are expanded at start-up, like callgrind does, so that %p is the
 * pid of the process that was started; a forked child re-expands. */
static void expand_output_names(void)
{
   callgrind_path = VG_(expand_file_name)("--cycprof-out-file",
                                          cp_opts.out_file);
   if (cp_opts.pprof_out_file) {
      pprof_path = VG_(expand_file_name)("--pprof-out-file",
                                         cp_opts.pprof_out_file);
   } else {
      SizeT n = VG_(strlen)(callgrind_path) + 8;
      pprof_path = VG_(malloc)("cp.dump.pprof", n);
      VG_(snprintf)(pprof_path, n, "%s.pb.gz", callgrind_path);
   }
}

void cp_dump_init(void)
{
   expand_output_names();
}

void cp_dump_after_fork(void)
{
   VG_(free)(callgrind_path);
   VG_(free)(pprof_path);
   expand_output_names();
}

/* The profiled command line, as callgrind's "cmd:" shows it. */
static HChar* command_line(void)
{
   XArray* buf = VG_(newXA)(VG_(malloc), "cp.dump.cmd", VG_(free), 1);
   Word i;
   HChar* s;
   VG_(addBytesToXA)(buf, VG_(args_the_exename),
                     VG_(strlen)(VG_(args_the_exename)));
   for (i = 0; i < VG_(sizeXA)(VG_(args_for_client)); i++) {
      const HChar* arg = *(HChar**)VG_(indexXA)(VG_(args_for_client), i);
      VG_(addBytesToXA)(buf, " ", 1);
      VG_(addBytesToXA)(buf, arg, VG_(strlen)(arg));
   }
   VG_(addBytesToXA)(buf, "", 1);
   s = VG_(strdup)("cp.dump.cmd", VG_(indexXA)(buf, 0));
   VG_(deleteXA)(buf);
   for (i = 0; s[i]; i++)
      if (s[i] == '\n' || s[i] == '\t') s[i] = ' ';
   return s;
}

/* inclusive[id] = self + inclusive of every child; parents have smaller
 * ids than their children, so one backwards pass is enough. */
static ULong* inclusive_costs(ULong* total)
{
   UInt id, n = cp_context_count();
   ULong* incl = VG_(calloc)("cp.dump.incl", n + 1, sizeof(ULong));
   *total = 0;
   for (id = 1; id <= n; id++) {
      incl[id] = cp_context_self_total(cp_context_by_id(id));
      *total += incl[id];
   }
   for (id = n; id >= 1; id--) {
      Context* c = cp_context_by_id(id);
      if (c->parent) incl[c->parent->id] += incl[id];
   }
   return incl;
}

/* The pprof profile is written by a forked copy of the tool while this
 * process writes the callgrind file: the two share nothing but the
 * counts, and the exit takes as long as the slower one rather than both.
 * Returns the child's pid, or 0 when it was written here instead. */
static Int start_pprof_writer(ULong total, const HChar* cmd)
{
   Int pid = VG_(getpid)();
   Int child = VG_(fork)();
   if (child > 0) return child;
   cp_write_pprof(pprof_path, total, cmd, pid);
   if (child == 0) VG_(exit)(0);
   return 0;
}

/* A dump's ".N" goes before the pprof name's ".pb.gz". */
static HChar* with_suffix(const HChar* path, const HChar* suffix)
{
   SizeT n = VG_(strlen)(path), k = VG_(strlen)(suffix);
   HChar* s = VG_(malloc)("cp.dump.name", n + k + 1);
   SizeT at = n >= 6 && VG_(strcmp)(path + n - 6, ".pb.gz") == 0 ? n - 6 : n;
   VG_(memcpy)(s, path, at);
   VG_(memcpy)(s + at, suffix, k);
   VG_(strcpy)(s + at + k, path + at);
   return s;
}

ULong cp_dump_files(const HChar* suffix)
{
   ULong total;
   ULong* incl = inclusive_costs(&total);
   HChar* cmd = command_line();
   HChar* cg_path = with_suffix(callgrind_path, suffix);
   HChar* pb_path = with_suffix(pprof_path, suffix);
   HChar* keep_pb = pprof_path;
   Int writer, status;

   cp_objects_collect();
   cp_srcpos_forget();
   pprof_path = pb_path;
   writer = cp_opts.pprof ? start_pprof_writer(total, cmd) : 0;
   pprof_path = keep_pb;
   if (!cp_write_callgrind(cg_path, incl, total, cmd))
      VG_(umsg)("cycprof: cannot write %s\n", cg_path);
   if (writer > 0) VG_(waitpid)(writer, &status, 0);
   VG_(free)(cg_path);
   VG_(free)(pb_path);
   VG_(free)(cmd);
   VG_(free)(incl);
   return total;
}

void cp_dump_all(void)
{
   ULong total;
   cp_parts_final();
   cp_regions_close_all();
   total = cp_dump_files("");
   cp_regions_print(total + cp_parts_dumped_total());
   VG_(umsg)("I   refs:      %s\n",
             cp_thousands(total + cp_parts_dumped_total()));
   if (VG_(clo_stats))
      VG_(dmsg)("cycprof: %u contexts, %u superblocks, %s bytes of records, "
                "deepest stack %u\n", cp_context_count(), cp_sbinfo_count(),
                cp_thousands(cp_arena_bytes()), cp_callstack_max_depth());
   if (VG_(clo_stats)) {
      VG_(dmsg)("cycprof: helpers: %llu calls (%llu call-site cache "
                "misses), %llu SP rises, %llu block entries\n",
                cp_stats.calls, cp_stats.call_site_misses,
                cp_stats.sp_rises, cp_stats.block_entries);
      VG_(dmsg)("cycprof: %llu function entries by jump, %llu blocks run "
                "in another function's frame, %llu context misses (%llu "
                "found among recent contexts)\n",
                cp_stats.function_entries, cp_stats.foreign_blocks,
                cp_stats.context_misses, cp_stats.recent_hits);
      VG_(dmsg)("cycprof: %llu cost-center lookups, %llu cost centers, "
                "%llu probes, %llu edges\n", cp_stats.cost_center_lookups,
                cp_stats.cost_centers, cp_stats.probes, cp_stats.edges);
   }
}
