/* cycprof: everything that happens at exit: the summary line, the
 * callgrind-format file, and the pprof profile through the helper. */
#include "pub_tool_basics.h"
#include "pub_tool_vki.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_xarray.h"
#include "cp_arena.h"
#include "cp_callstack.h"
#include "cp_cold.h"
#include "cp_collect.h"
#include "cp_heap.h"
#include "cp_parts.h"
#include "cp_regions.h"
#include "cp_zkpager.h"
#include "cp_context.h"
#include "cp_costs.h"
#include "cp_counters.h"
#include "cp_dump.h"
#include "cp_helper.h"
#include "cp_firefox_out.h"
#include "cp_objects.h"
#include "cp_options.h"
#include "cp_outcheck.h"
#include "cp_sbinfo.h"
#include "cp_stats.h"
#include "cp_outfile.h"
#include "cp_srcpos.h"
#include "cp_sys.h"
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
      pprof_path = cp_heap_malloc("cp.dump.pprof", n);
      VG_(snprintf)(pprof_path, n, "%s.pb.gz", callgrind_path);
   }
}

void cp_dump_init(void)
{
   expand_output_names();
   cp_outcheck_names(callgrind_path, pprof_path);
}

void cp_dump_after_fork(void)
{
   cp_heap_free(callgrind_path);
   cp_heap_free(pprof_path);
   expand_output_names();
}

/* The profiled command line, as callgrind's "cmd:" shows it. */
static HChar* command_line(void)
{
   XArray* buf = VG_(newXA)(cp_heap_malloc, "cp.dump.cmd", cp_heap_free, 1);
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
   s = cp_heap_strdup("cp.dump.cmd", VG_(indexXA)(buf, 0));
   VG_(deleteXA)(buf);
   for (i = 0; s[i]; i++)
      if (s[i] == '\n' || s[i] == '\t') s[i] = ' ';
   return s;
}

/* inclusive[id] = self + inclusive of every child; parents have smaller
 * ids than their children, so one backwards pass is enough.  The walk
 * that finds the self costs also sums each superblock's counters, for
 * both output files. */
static ULong* inclusive_costs(ULong* total, SuperblockRuns* runs)
{
   UInt id, n = cp_context_count();
   ULong* incl = cp_heap_calloc("cp.dump.incl", n + 1, sizeof(ULong));
   ULong start_ms = cp_sys_now_ms();
   cp_superblock_runs(runs, incl);
   if (VG_(clo_stats))
      VG_(dmsg)("cycprof: exit: counters of %u contexts summed in %llu "
                "ms\n", n, cp_sys_now_ms() - start_ms);
   *total = 0;
   for (id = 1; id <= n; id++) *total += incl[id];
   for (id = n; id >= 1; id--) {
      Context* c = cp_context_by_id(id);
      if (c->parent_id) incl[c->parent_id] += incl[id];
   }
   return incl;
}

/* Where one output goes, and the file written before it is published
 * there: a file beside the target, renamed over it once complete, or the
 * target itself when it is written in place (a device, a FIFO). */
typedef struct {
   OutTarget target;
   HChar*    staged;
} Destination;

static Bool plan_destination(const HChar* path, Destination* d)
{
   SizeT n;
   if (!cp_outtarget_resolve(path, &d->target)) return False;
   n = VG_(strlen)(d->target.path) + 32;
   d->staged = cp_heap_malloc("cp.dump.staged", n);
   if (d->target.in_place)
      VG_(strcpy)(d->staged, d->target.path);
   else
      VG_(snprintf)(d->staged, n, "%s.tmp.%d", d->target.path,
                    VG_(getpid)());
   return True;
}

static void free_destination(Destination* d)
{
   cp_outtarget_free(&d->target);
   cp_heap_free(d->staged);
}

/* The dump lives beside a regular target; a device's directory is no
 * place for it. */
/* Per context, so that a change to the records shows in one figure. */
static void report_memory(void)
{
   ContextMemory m;
   ColdStats cold;
   UInt n = cp_context_count();
   cp_context_memory(&m);
   VG_(dmsg)("cycprof: memory: contexts %llu, other records %llu, dense "
             "counters %llu (%llu nonzero), cost-center tables %llu, "
             "cost-center counters %llu, edge table %llu bytes\n",
             m.context_bytes, (ULong)cp_arena_bytes(),
             m.dense_bytes, m.dense_used, m.table_bytes,
             cp_counters_bytes(), m.edge_table_bytes);
   cp_cold_stats(&cold);
   VG_(dmsg)("cycprof: packed counters: %llu bytes (%llu released), %llu "
             "distinct copies in use, %llu contexts packed, %llu unpacked "
             "again, in %llu sweeps (%llu more skipped: they would have "
             "copied more than they freed)\n",
             cold.packed_bytes, cold.released_bytes, cold.copies, cold.packed,
             cold.unpacked, cold.sweeps, cold.sweeps_skipped);
   if (n)
      VG_(dmsg)("cycprof: memory per context: records %llu, dense %llu, "
                "tables %llu bytes\n",
                (m.context_bytes + cp_arena_bytes()) / n,
                m.dense_bytes / n, m.table_bytes / n);
}

static HChar* stacks_dump_path(const Destination* pb, Int pid)
{
   SizeT n = VG_(strlen)(pb->target.path) + VG_(strlen)(VG_(tmpdir)()) + 48;
   HChar* dump = cp_heap_malloc("cp.dump.stacks", n);
   if (pb->target.in_place)
      VG_(snprintf)(dump, n, "%s/cycprof.%d.stacks", VG_(tmpdir)(), pid);
   else
      VG_(snprintf)(dump, n, "%s.stacks.%d", pb->target.path, pid);
   return dump;
}

static Bool exists(const HChar* path)
{
   struct vg_stat st;
   return !sr_isError(VG_(stat)(path, &st));
}

/* The helper, started while the dump is written when its samples are per
 * function (the big profiles, whose exit time matters). */
typedef struct {
   HChar* helper;
   const Destination* pb;
   Bool tried, started;
   HelperRun run;
} Follower;

static void start_follower(const HChar* writing_path, void* opaque)
{
   Follower* f = opaque;
   f->tried = True;
   f->started = cp_helper_start(f->helper, writing_path, f->pb->staged,
                                f->pb->target.path, True, &f->run);
}

/* The option behind a limit the stacks dump ran into, for its line; none
 * for any other failure (a missing folder, a full disk). */
static const HChar* limit_named(OutLimit limit)
{
   static HChar text[64];
   if (limit == CP_OUT_SIZE_LIMIT)
      VG_(snprintf)(text, sizeof text, " (--pprof-max-dump=%d MiB)",
                    cp_opts.pprof_max_dump_mb);
   else if (limit == CP_OUT_TIME_LIMIT)
      VG_(snprintf)(text, sizeof text, " (--pprof-time-limit=%d s)",
                    cp_opts.pprof_time_limit);
   else
      text[0] = 0;
   return text;
}

/* The stacks dump, then the helper; the whole within the time limit.
 * True when pb->staged holds the complete profile; otherwise one line
 * says why and nothing of it is left. */
static Bool write_pprof(const Destination* pb, const SuperblockRuns* runs,
                        ULong total, const HChar* cmd, Int pid)
{
   ULong deadline = cp_sys_now_ms() + cp_opts.pprof_time_limit * 1000ULL;
   HChar* dump = stacks_dump_path(pb, pid);
   const HChar* target = pb->target.path;
   Follower f;
   Bool ok;
   VG_(memset)(&f, 0, sizeof f);
   f.helper = cp_helper_path();
   f.pb = pb;
   ok = cp_write_stacks_dump(dump, runs, total, cmd, pid,
                             (ULong)cp_opts.pprof_max_dump_mb << 20,
                             deadline, start_follower, &f);
   if (!ok) {
      if (f.started) cp_helper_stop(&f.run, pb->staged);
      VG_(umsg)("cycprof: no pprof profile %s: cannot write the stacks dump "
                "%s: %s%s\n", target, dump, cp_outfile_error(),
                limit_named(cp_outfile_limit_hit()));
   } else {
      if (f.tried)
         ok = f.started && cp_helper_finish(&f.run, f.helper, pb->staged,
                                            target, deadline);
      else
         ok = cp_helper_convert(f.helper, dump, pb->staged, target,
                                deadline);
      if (ok && !pb->target.in_place && !exists(pb->staged)) {
         VG_(umsg)("cycprof: no pprof profile %s: '%s pprof' exited 0 "
                   "without writing it\n", target, f.helper);
         ok = False;
      }
      if (!cp_opts.keep_stacks) VG_(unlink)(dump);
   }
   if (!ok && !pb->target.in_place) VG_(unlink)(pb->staged);
   cp_heap_free(f.helper);
   cp_heap_free(dump);
   return ok;
}

/* The pprof writer's exit status when it failed and said why. */
#define WRITER_SAID_WHY 3

/* The pprof profile is written by a forked copy of the tool while this
 * process writes the callgrind file: the two share nothing but the
 * counts, and the exit takes as long as the slower one rather than both.
 * Returns the child's pid, or 0 when it was written here instead (then
 * *ok tells how that went). */
static Int start_pprof_writer(const Destination* pb,
                              const SuperblockRuns* runs, ULong total,
                              const HChar* cmd, ULong** incl, Bool* ok)
{
   Int pid = VG_(getpid)();   /* the profiled process, not the writer */
   Int child = VG_(fork)();
   if (child > 0) return child;
   if (child == 0) {
      /* The exit's peak is the larger of its resident size and the
       * parent's: it lets go of what only the callgrind file reads. */
      cp_sys_forget_client_memory();
      cp_heap_free(*incl);
      *incl = NULL;
   }
   *ok = write_pprof(pb, runs, total, cmd, pid);
   if (child == 0) VG_(exit)(*ok ? 0 : WRITER_SAID_WHY);
   return 0;
}

static Bool pprof_writer_succeeded(Int writer, const Destination* pb)
{
   Int status = 0;
   if (VG_(waitpid)(writer, &status, 0) != writer)
      VG_(umsg)("cycprof: no pprof profile %s: its writer could not be "
                "waited for\n", pb->target.path);
   else if (status == 0)
      return True;
   else if ((status & 0x7f) != 0 && (status & 0x7f) != 0x7f)
      VG_(umsg)("cycprof: no pprof profile %s: its writer was killed by "
                "signal %d\n", pb->target.path, status & 0x7f);
   else if (((status >> 8) & 0xff) != WRITER_SAID_WHY)
      /* Valgrind's own fatal errors in the writer end it with 1. */
      VG_(umsg)("cycprof: no pprof profile %s: its writer exited with "
                "status %d (see the lines above)\n", pb->target.path,
                (status >> 8) & 0xff);
   if (!pb->target.in_place) VG_(unlink)(pb->staged);
   return False;
}

static Bool publish(const Destination* d, const HChar* what)
{
   Int err;
   if (d->target.in_place) return True;
   err = cp_sys_rename(d->staged, d->target.path);
   if (err) {
      VG_(umsg)("cycprof: %s %s: %s\n", what, d->target.path,
                cp_sys_strerror(err));
      VG_(unlink)(d->staged);
   }
   return err == 0;
}

/* Both files are renamed into place under one lock on the directory, so
 * that processes given the same output names leave the callgrind file and
 * the pprof profile of one and the same process. */
static void publish_both(const Destination* cg, Bool* cg_ok,
                         const Destination* pb, Bool* pb_ok)
{
   const Destination* first = *cg_ok ? cg : pb;
   HChar* dir = cp_heap_strdup("cp.dump.dir", VG_(dirname)(first->target.path));
   Int lock = cp_sys_lock_dir(dir);
   if (*cg_ok) *cg_ok = publish(cg, "cannot write");
   if (*pb_ok) *pb_ok = publish(pb, "no pprof profile");
   cp_sys_unlock_dir(lock);
   cp_heap_free(dir);
}

/* A dump's ".N" goes before the pprof name's ".pb.gz". */
static HChar* with_suffix(const HChar* path, const HChar* suffix)
{
   SizeT n = VG_(strlen)(path), k = VG_(strlen)(suffix);
   HChar* s = cp_heap_malloc("cp.dump.name", n + k + 1);
   SizeT at = n >= 6 && VG_(strcmp)(path + n - 6, ".pb.gz") == 0 ? n - 6 : n;
   VG_(memcpy)(s, path, at);
   VG_(memcpy)(s + at, suffix, k);
   VG_(strcpy)(s + at + k, path + at);
   return s;
}

/* The files one dump published, for the log's "cycprof: wrote" lines. */
typedef struct {
   HChar* cg;
   HChar* pb;
} Written;

/* -q (verbosity 0) leaves out the summary, as callgrind and cachegrind
 * do; what went wrong is still said. */
static Bool summary_wanted(void)
{
   return VG_(clo_verbosity) > 0;
}

static void report_written(Written* w)
{
   if (w->cg && summary_wanted()) VG_(umsg)("cycprof: wrote %s\n", w->cg);
   if (w->pb && summary_wanted()) VG_(umsg)("cycprof: wrote %s\n", w->pb);
   if (w->cg) cp_heap_free(w->cg);
   if (w->pb) cp_heap_free(w->pb);
}

/* The callgrind file and the pprof profile of the counts so far, each
 * written completely where the user pointed or not at all. */
static ULong write_outputs(const HChar* suffix, Bool final, Written* w)
{
   ULong total;
   SuperblockRuns runs;
   ULong* incl = inclusive_costs(&total, &runs);
   HChar* cmd = command_line();
   HChar* cg_path = with_suffix(callgrind_path, suffix);
   HChar* pb_path = with_suffix(pprof_path, suffix);
   Destination cg, pb;
   Bool cg_ok, pb_ok = False, have_pb = False;
   Int writer = 0;

   VG_(memset)(&cg, 0, sizeof cg);
   VG_(memset)(&pb, 0, sizeof pb);
   VG_(memset)(w, 0, sizeof *w);
   cp_objects_collect();
   cp_srcpos_forget();
   cg_ok = plan_destination(cg_path, &cg);
   if (!cg_ok)
      VG_(umsg)("cycprof: cannot write %s: %s\n", cg_path,
                cp_outfile_error());
   if (cp_opts.pprof && cg_ok && cg.target.in_place
       && !cp_opts.pprof_out_file) {
      /* "/dev/stdout.pb.gz" or a file beside a device is no place for it. */
      VG_(umsg)("cycprof: no pprof profile: %s is not a regular file; name "
                "one with --pprof-out-file\n", cg_path);
   } else if (cp_opts.pprof) {
      have_pb = plan_destination(pb_path, &pb);
      if (!have_pb)
         VG_(umsg)("cycprof: no pprof profile %s: %s\n", pb_path,
                   cp_outfile_error());
      else
         writer = start_pprof_writer(&pb, &runs, total, cmd, &incl,
                                     &pb_ok);
   }
   /* The exit's peak: the callgrind file's side need not keep them. */
   if (final) cp_context_forget_trees();
   if (cg_ok) {
      cg_ok = cp_write_callgrind(cg.staged, incl, &runs, total, cmd);
      if (!cg_ok)
         VG_(umsg)("cycprof: cannot write %s: %s\n", cg.target.path,
                   cp_outfile_error());
   }
   if (writer > 0) pb_ok = pprof_writer_succeeded(writer, &pb);
   if (cg_ok || pb_ok) publish_both(&cg, &cg_ok, &pb, &pb_ok);

   if (cg_ok) w->cg = cp_heap_strdup("cp.dump.wrote", cg.target.path);
   if (pb_ok) w->pb = cp_heap_strdup("cp.dump.wrote", pb.target.path);
   if (cg.staged) free_destination(&cg);
   if (have_pb) free_destination(&pb);
   cp_heap_free(cg_path);
   cp_heap_free(pb_path);
   cp_heap_free(cmd);
   if (incl) cp_heap_free(incl);
   cp_superblock_runs_free(&runs);
   return total;
}

/* Writes the callgrind file and the pprof profile of the counts so far,
 * their names with suffix added (".N" for a part, before ".pb.gz");
 * returns the total they hold. */
static ULong dump_files(const HChar* suffix)
{
   Written w;
   ULong total = write_outputs(suffix, False, &w);
   report_written(&w);
   return total;
}

void cp_dump_part(const HChar* why)
{
   HChar suffix[16];
   VG_(snprintf)(suffix, sizeof suffix, ".%u", cp_parts_number());
   cp_parts_begin(why);
   cp_parts_end(dump_files(suffix));
   cp_dump_zero();
}

void cp_dump_zero(void)
{
   UInt id, n = cp_context_count();
   for (id = 1; id <= n; id++) cp_context_zero(cp_context_by_id(id));
   cp_regions_zero_part();
   cp_zk_zero_part();
}

void cp_dump_all(void)
{
   ULong total, start_ms;
   Written w;
   HChar* ff;
   cp_parts_final();
   cp_regions_close_all();
   cp_regions_drop_run_only();
   cp_context_drop_run_only();
   /* The client has exited and nothing below reads its memory (the pprof
    * writer drops it too): the exit's peak is the tool's own. */
   cp_sys_forget_client_memory();
   start_ms = cp_sys_now_ms();
   total = write_outputs("", True, &w);
   /* scripts/bench reads it: the exit's cost is part of the tool's. */
   if (VG_(clo_verbosity) > 1)
      VG_(dmsg)("cycprof: exit: profiles written in %llu ms\n",
                cp_sys_now_ms() - start_ms);
   if (summary_wanted()) {
      cp_regions_print(total + cp_parts_dumped_total());
      VG_(umsg)("I   refs:      %s\n",
                cp_thousands(total + cp_parts_dumped_total()));
   }
   /* Where the answer is: one line per file actually written. */
   ff = w.pb ? cp_firefox_write(w.pb) : NULL;
   report_written(&w);
   if (ff) {
      if (summary_wanted()) VG_(umsg)("cycprof: wrote %s\n", ff);
      cp_heap_free(ff);
   }
   if (VG_(clo_stats))
      VG_(dmsg)("cycprof: %u contexts, %u superblocks, %s bytes of "
                "contexts and records, deepest stack %u\n",
                cp_context_count(), cp_sbinfo_count(),
                cp_thousands(cp_context_bytes() + cp_arena_bytes()),
                cp_callstack_max_depth());
   if (VG_(clo_stats)) {
      VG_(dmsg)("cycprof: helpers: %llu calls (%llu call-site cache "
                "misses, %llu of them served by its earlier contexts), %llu "
                "SP rises, %llu block entries\n",
                cp_stats.calls, cp_stats.call_site_misses,
                cp_stats.call_site_swaps,
                cp_stats.sp_rises, cp_stats.block_entries);
      VG_(dmsg)("cycprof: %llu function entries by jump, %llu blocks run "
                "in another function's frame, %llu context misses (%llu "
                "found among recent contexts)\n",
                cp_stats.function_entries, cp_stats.foreign_blocks,
                cp_stats.context_misses, cp_stats.recent_hits);
      VG_(dmsg)("cycprof: %llu contexts read to publish them, %llu "
                "changes of counters that made what was read stale\n",
                cp_stats.views, cp_dense_epoch - 1);
      VG_(dmsg)("cycprof: %llu cost-center lookups, %llu cost centers, "
                "%llu probes, %llu edges\n", cp_stats.cost_center_lookups,
                cp_stats.cost_centers, cp_stats.probes, cp_stats.edges);
      report_memory();
   }
}
