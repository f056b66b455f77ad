/* See cp_outcheck.h.  The exit writes its files after the whole run: a
 * name that cannot take them (a folder, a missing folder, a read-only
 * place) would cost the run and leave the other files behind, so it is
 * refused before the program starts, as Valgrind refuses a bad option. */
#include "pub_tool_basics.h"
#include "pub_tool_vki.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_options.h"
#include "cp_det.h"
#include "cp_heap.h"
#include "cp_options.h"
#include "cp_outcheck.h"
#include "cp_outfile.h"

/* Valgrind's own bad-option lines go to stderr whatever the log; this one
 * goes to the log, and to stderr too when the log is elsewhere, so that a
 * run that stops at once says why where its user looks. */
static void refuse(const HChar* option, const HChar* path)
{
   HChar line[600];
   VG_(snprintf)(line, sizeof line, "cycprof: %s: cannot write %s: %s\n",
                 option, path, cp_outfile_error());
   VG_(umsg)("%s", line);
   if (cp_core_option_given("--log-file=")
       || cp_core_option_given("--log-socket="))
      VG_(write)(2, line, VG_(strlen)(line));
   VG_(exit)(1);
}

static Bool same_folder(const HChar* a, const HChar* b)
{
   struct vg_stat sa, sb;
   return !sr_isError(VG_(stat)(a, &sa)) && !sr_isError(VG_(stat)(b, &sb))
          && sa.dev == sb.dev && sa.ino == sb.ino;
}

static Bool warned_working_folder;

/* An output written into the folder the program starts in is in that
 * folder's listing on the next run: python3 and build tools list it, and
 * the count moves with what they find. */
static void warn_if_in_working_folder(const OutTarget* t)
{
   const HChar* wd = VG_(get_startup_wd)();
   if (!cp_det_on || warned_working_folder || t->in_place
       || !same_folder(VG_(dirname)(t->path), wd))
      return;
   warned_working_folder = True;
   VG_(umsg)("cycprof: warning: --deterministic=yes: the outputs go into "
             "the program's working folder %s, where the next run finds "
             "them (and counts differently if it lists the folder); write "
             "them elsewhere, e.g. --cycprof-out-file=/other/folder/out.%%p "
             "(docs/reproducible.md)\n", wd);
}

/* Refuses the run unless path can be written; *in_place: it is written in
 * place (a device, a FIFO). */
static void check_one(const HChar* option, const HChar* path, Bool* in_place)
{
   OutTarget t;
   if (!cp_outtarget_check(path, &t)) refuse(option, path);
   warn_if_in_working_folder(&t);
   *in_place = t.in_place;
   cp_outtarget_free(&t);
}

void cp_outcheck_names(const HChar* callgrind_path, const HChar* pprof_path)
{
   Bool cg_in_place, in_place;
   HChar* ff;
   check_one("--cycprof-out-file", callgrind_path, &cg_in_place);
   if (!cp_opts.pprof) return;
   /* No pprof profile beside a device: the exit says so in one line. */
   if (cg_in_place && !cp_opts.pprof_out_file) return;
   check_one("--pprof-out-file", pprof_path, &in_place);
   if (!cp_opts.firefox_out_file) return;
   ff = VG_(expand_file_name)("--firefox-out-file", cp_opts.firefox_out_file);
   check_one("--firefox-out-file", ff, &in_place);
   cp_heap_free(ff);
}
