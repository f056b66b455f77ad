/* cycprof: running 'cycprof pprof' on the stacks dump, bounded in time,
 * and saying in one line why when it does not work. */
#include "pub_tool_basics.h"
#include "pub_tool_vki.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "cp_heap.h"
#include "cp_helper.h"
#include "cp_options.h"
#include "cp_sys.h"

#ifndef CYCPROF_BINDIR
#define CYCPROF_BINDIR "/usr/local/bin"
#endif

/* wait(2) status words (the kernel's encoding). */
#define EXITED(s)      (((s) & 0x7f) == 0)
#define EXIT_STATUS(s) (((s) >> 8) & 0xff)
#define SIGNALED(s)    (((s) & 0x7f) != 0 && ((s) & 0x7f) != 0x7f)
#define TERM_SIG(s)    ((s) & 0x7f)

HChar* cp_helper_path(void)
{
   const HChar* lib = VG_(getenv)("VALGRIND_LIB");
   HChar buf[4096];
   struct vg_stat st;
   if (cp_opts.helper) return cp_heap_strdup("cp.helper", cp_opts.helper);
   if (lib) {
      VG_(snprintf)(buf, sizeof buf, "%s/cycprof", lib);
      if (!sr_isError(VG_(stat)(buf, &st)))
         return cp_heap_strdup("cp.helper", buf);
   }
   return cp_heap_strdup("cp.helper", CYCPROF_BINDIR "/cycprof");
}

/* Where a follower reads the dump: the descriptor it inherits. */
#define FOLLOWED_DUMP_FD   3
#define FOLLOWED_DUMP_PATH "/proc/self/fd/3"

/* The child: stderr to err_path (read back for the report), then exec.
 * A follower's stdin is the pipe whose closing says the dump is done,
 * and it reads the dump from dump_fd (FOLLOWED_DUMP_PATH). */
static void exec_helper(const HChar* helper, const HChar* dump,
                        const HChar* out, const HChar* err_path,
                        const Int* done_pipe, Int dump_fd)
{
   const HChar* argv[9];
   HChar max_samples[48];
   SysRes sr;
   Int n = 0;
   /* Its own process group: a time limit stops whatever it started. */
   cp_sys_new_process_group();
   sr = VG_(open)(err_path, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                         VKI_S_IRUSR | VKI_S_IWUSR);
   if (!sr_isError(sr)) {
      VG_(dup2)(sr_Res(sr), 2);
      VG_(close)(sr_Res(sr));
   }
   VG_(sprintf)(max_samples, "--max-samples=%d", cp_pprof_max_samples());
   argv[n++] = helper;
   argv[n++] = "pprof";
   argv[n++] = max_samples;
   if (done_pipe) {
      VG_(dup2)(done_pipe[0], 0);
      VG_(close)(done_pipe[0]);
      VG_(close)(done_pipe[1]);
      if (dump_fd != FOLLOWED_DUMP_FD) {
         VG_(dup2)(dump_fd, FOLLOWED_DUMP_FD);
         VG_(close)(dump_fd);
      }
      dump = FOLLOWED_DUMP_PATH;
      argv[n++] = "--per-function";
      argv[n++] = "--follow";
   }
   argv[n++] = dump;
   argv[n++] = "-o";
   argv[n++] = out;
   argv[n] = NULL;
   VG_(execv)(helper, argv);
   VG_(exit)(127);
}

#define HELPER_NOTE "cycprof pprof: note: "

void cp_helper_first_line(const HChar* err_path, HChar* line, Int size)
{
   SysRes sr = VG_(open)(err_path, VKI_O_RDONLY, 0);
   Int n = 0, i;
   line[0] = 0;
   if (sr_isError(sr)) return;
   n = VG_(read)(sr_Res(sr), line, size - 1);
   VG_(close)(sr_Res(sr));
   if (n < 0) n = 0;
   line[n] = 0;
   for (i = 0; i < n; i++)
      if (line[i] == '\n') line[i] = 0;
}

/* Waits for pid until deadline_ms; kills it then.  True if it ran out. */
static Bool wait_until(Int pid, ULong deadline_ms, Int* status)
{
   for (;;) {
      Int r = VG_(waitpid)(pid, status, VKI_WNOHANG);
      if (r == pid) return False;
      if (r < 0) {
         *status = 0x7f00;   /* lost track of it: report as failed */
         return False;
      }
      if (cp_sys_now_ms() >= deadline_ms) {
         cp_sys_kill(-pid, VKI_SIGKILL);
         VG_(waitpid)(pid, status, 0);
         return True;
      }
      cp_sys_sleep_ms(10);
   }
}

static void remove_leftovers(const HChar* out, Int helper_pid)
{
   SizeT n = VG_(strlen)(out) + 32;
   HChar* tmp = cp_heap_malloc("cp.helper.tmp", n);
   VG_(snprintf)(tmp, n, "%s.tmp.%d", out, helper_pid);
   VG_(unlink)(tmp);
   cp_heap_free(tmp);
}

Bool cp_helper_start(const HChar* helper, const HChar* dump,
                     const HChar* out, const HChar* target, Bool follow,
                     HelperRun* run)
{
   SizeT n = VG_(strlen)(dump) + 8;
   Int done_pipe[2], dump_fd = -1, err = cp_sys_check_executable(helper);

   VG_(memset)(run, 0, sizeof *run);
   run->done_fd = -1;
   if (err) {
      struct vg_stat st;
      Bool is_dir = !sr_isError(VG_(stat)(helper, &st))
                    && VKI_S_ISDIR(st.mode);
      VG_(umsg)("cycprof: no pprof profile %s: helper '%s' %s%s "
                "(see --cycprof-helper)\n", target, helper,
                err == VKI_ENOENT ? "not found" :
                is_dir ? "is a directory" : "cannot be run: ",
                err == VKI_ENOENT || is_dir ? "" : cp_sys_strerror(err));
      return False;
   }
   if (follow) {
      /* Opened here, before the writer can go on: a small dump is
       * complete and renamed into place before a slow-starting helper
       * would have opened it by its name. */
      SysRes sr = VG_(open)(dump, VKI_O_RDONLY, 0);
      if (sr_isError(sr) || VG_(pipe)(done_pipe) != 0) {
         VG_(umsg)("cycprof: no pprof profile %s: cannot start helper '%s' "
                   "(%s failed)\n", target, helper,
                   sr_isError(sr) ? "opening the dump" : "pipe");
         if (!sr_isError(sr)) VG_(close)(sr_Res(sr));
         return False;
      }
      dump_fd = sr_Res(sr);
   }
   run->err_path = cp_heap_malloc("cp.helper.err", n);
   VG_(snprintf)(run->err_path, n, "%s.err", dump);
   run->pid = VG_(fork)();
   if (run->pid == 0)
      exec_helper(helper, dump, out, run->err_path,
                  follow ? done_pipe : NULL, dump_fd);
   if (follow) {
      VG_(close)(done_pipe[0]);
      VG_(close)(dump_fd);
      run->done_fd = done_pipe[1];
   }
   if (run->pid < 0) {
      VG_(umsg)("cycprof: no pprof profile %s: cannot start helper '%s' "
                "(fork failed)\n", target, helper);
      cp_helper_stop(run, out);
      return False;
   }
   return True;
}

static void close_done_pipe(HelperRun* run)
{
   if (run->done_fd >= 0) VG_(close)(run->done_fd);
   run->done_fd = -1;
}

static void forget_err_path(HelperRun* run)
{
   VG_(unlink)(run->err_path);
   cp_heap_free(run->err_path);
   run->err_path = NULL;
}

void cp_helper_stop(HelperRun* run, const HChar* out)
{
   Int status;
   close_done_pipe(run);
   if (run->pid > 0) {
      /* Its group may not exist yet if it was stopped at once. */
      cp_sys_kill(-run->pid, VKI_SIGKILL);
      cp_sys_kill(run->pid, VKI_SIGKILL);
      VG_(waitpid)(run->pid, &status, 0);
      remove_leftovers(out, run->pid);
   }
   if (run->err_path) forget_err_path(run);
}

Bool cp_helper_finish(HelperRun* run, const HChar* helper, const HChar* out,
                      const HChar* target, ULong deadline_ms)
{
   HChar why[512];
   Int status = 0;
   Bool timed_out;

   close_done_pipe(run);
   timed_out = wait_until(run->pid, deadline_ms, &status);
   cp_helper_first_line(run->err_path, why, sizeof why);
   forget_err_path(run);
   if (!timed_out && EXITED(status) && EXIT_STATUS(status) == 0) {
      /* A profile too big for pprof was coarsened: say how, and how not to. */
      if (VG_(strncmp)(why, HELPER_NOTE, VG_(strlen)(HELPER_NOTE)) == 0)
         VG_(umsg)("cycprof: pprof profile %s: %s; --pprof-max-samples=0 "
                   "keeps every line\n", target,
                   why + VG_(strlen)(HELPER_NOTE));
      return True;
   }

   if (timed_out)
      VG_(umsg)("cycprof: no pprof profile %s: '%s pprof' did not finish "
                "within the time limit of %d s (--pprof-time-limit); "
                "stopped it\n", target, helper, cp_opts.pprof_time_limit);
   else if (SIGNALED(status))
      VG_(umsg)("cycprof: no pprof profile %s: '%s pprof' was killed by "
                "signal %d\n", target, helper, TERM_SIG(status));
   else if (why[0])
      VG_(umsg)("cycprof: no pprof profile %s: '%s pprof' failed (exit "
                "status %d): %s\n", target, helper, EXIT_STATUS(status),
                why);
   else
      VG_(umsg)("cycprof: no pprof profile %s: '%s pprof' failed (exit "
                "status %d)\n", target, helper, EXIT_STATUS(status));
   remove_leftovers(out, run->pid);
   return False;
}

Bool cp_helper_convert(const HChar* helper, const HChar* dump,
                       const HChar* out, const HChar* target,
                       ULong deadline_ms)
{
   HelperRun run;
   return cp_helper_start(helper, dump, out, target, False, &run)
          && cp_helper_finish(&run, helper, out, target, deadline_ms);
}
