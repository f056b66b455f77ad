/* See cp_firefox_out.h.  The helper converts the pprof profile the tool
 * has just published: the tool itself has no JSON or gzip writer, and the
 * conversion is the same as 'cycprof firefox' by hand. */
#include "pub_tool_basics.h"
#include "pub_tool_vki.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "cp_firefox_out.h"
#include "cp_heap.h"
#include "cp_helper.h"
#include "cp_options.h"
#include "cp_sys.h"

/* wait(2) status words (the kernel's encoding). */
#define EXITED(s)      (((s) & 0x7f) == 0)
#define EXIT_STATUS(s) (((s) >> 8) & 0xff)


HChar* cp_firefox_write(const HChar* pb_path)
{
   HChar *out, *helper, *err_path, why[512];
   const HChar* argv[6];
   Int pid, status = 0, r;
   SizeT n;
   ULong deadline;
   if (!cp_opts.firefox_out_file) return NULL;
   out = VG_(expand_file_name)("--firefox-out-file", cp_opts.firefox_out_file);
   helper = cp_helper_path();
   /* Beside the pprof profile, which was just written there. */
   n = VG_(strlen)(pb_path) + 32;
   err_path = cp_heap_malloc("cp.ff.err", n);
   VG_(snprintf)(err_path, n, "%s.ff-err.%d", pb_path, VG_(getpid)());
   why[0] = 0;
   pid = VG_(fork)();
   if (pid == 0) {
      SysRes sr = VG_(open)(err_path, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                            VKI_S_IRUSR | VKI_S_IWUSR);
      cp_sys_new_process_group();
      if (!sr_isError(sr)) {
         VG_(dup2)(sr_Res(sr), 2);
         VG_(close)(sr_Res(sr));
      }
      argv[0] = helper;
      argv[1] = "firefox";
      argv[2] = pb_path;
      argv[3] = "-o";
      argv[4] = out;
      argv[5] = NULL;
      VG_(execv)(helper, argv);
      VG_(exit)(127);
   }
   if (pid < 0) {
      VG_(umsg)("cycprof: no Firefox profile %s: fork failed\n", out);
      goto fail;
   }
   /* The same time limit as the pprof profile's. */
   deadline = cp_sys_now_ms() + (ULong)cp_opts.pprof_time_limit * 1000;
   for (;;) {
      r = VG_(waitpid)(pid, &status, VKI_WNOHANG);
      if (r == pid) break;
      if (r < 0) {
         status = 0x7f00;
         break;
      }
      if (cp_sys_now_ms() >= deadline) {
         cp_sys_kill(-pid, VKI_SIGKILL);
         VG_(waitpid)(pid, &status, 0);
         VG_(umsg)("cycprof: no Firefox profile %s: '%s firefox' did not "
                   "finish within --pprof-time-limit=%d s\n", out, helper,
                   cp_opts.pprof_time_limit);
         goto fail;
      }
      cp_sys_sleep_ms(10);
   }
   cp_helper_first_line(err_path, why, sizeof why);
   if (EXITED(status) && EXIT_STATUS(status) == 0) {
      VG_(unlink)(err_path);
      cp_heap_free(err_path);
      cp_heap_free(helper);
      return out;
   }
   VG_(umsg)("cycprof: no Firefox profile %s: '%s firefox' failed%s%s\n",
             out, helper, why[0] ? ": " : "", why);
fail:
   VG_(unlink)(err_path);
   cp_heap_free(err_path);
   cp_heap_free(helper);
   cp_heap_free(out);
   return NULL;
}
