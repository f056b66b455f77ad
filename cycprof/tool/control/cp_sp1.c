/* cycprof: SP1's cycle-tracker markers.
 *
 * Lines the program writes to its standard output (fd 1, write and
 * writev) of the forms
 *    cycle-tracker-start: NAME         cycle-tracker-end: NAME
 *    cycle-tracker-report-start: NAME  cycle-tracker-report-end: NAME
 * open and close the region NAME, as SP1's executor does for zkVM guests.
 * Only what the system call wrote is read, after it wrote it: the output
 * itself is left alone.  A line split over several writes is put back
 * together; one longer than MAX_LINE cannot be a marker. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "cp_regions.h"
#include "cp_sp1.h"

#define MAX_LINE 512

static Bool sp1_markers = True;   /* --sp1-markers=yes|no */

Bool cp_sp1_option(const HChar* arg)
{
   if VG_BOOL_CLO(arg, "--sp1-markers", sp1_markers) return True;
   return False;
}

static HChar line[MAX_LINE + 1];
static UInt  line_len;
static Bool  line_too_long;

static const HChar* skip_spaces(const HChar* s)
{
   while (*s == ' ' || *s == '\t') s++;
   return s;
}

/* NAME after prefix, trimmed; NULL if the line is not that marker. */
static const HChar* marker(HChar* s, const HChar* prefix)
{
   SizeT n = VG_(strlen)(prefix);
   HChar* end;
   if (VG_(strncmp)(s, prefix, n) != 0) return NULL;
   s = (HChar*)skip_spaces(s + n);
   end = s + VG_(strlen)(s);
   while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
      *--end = 0;
   return *s ? s : NULL;
}

static void complete_line(ThreadId tid)
{
   HChar* s = (HChar*)skip_spaces(line);
   const HChar* name;
   line[line_len] = 0;
   if (line_too_long || VG_(strncmp)(s, "cycle-tracker-", 14) != 0) return;
   if ((name = marker(s, "cycle-tracker-start:"))
       || (name = marker(s, "cycle-tracker-report-start:")))
      cp_region_begin(tid, name);
   else if ((name = marker(s, "cycle-tracker-end:"))
            || (name = marker(s, "cycle-tracker-report-end:")))
      cp_region_end(tid, name);
}

static void scan(ThreadId tid, const HChar* p, SizeT n)
{
   SizeT i;
   if (!VG_(am_is_valid_for_client)((Addr)p, n, VKI_PROT_READ)) return;
   for (i = 0; i < n; i++) {
      if (p[i] == '\n') {
         complete_line(tid);
         line_len = 0;
         line_too_long = False;
      } else if (line_len < MAX_LINE) {
         line[line_len++] = p[i];
      } else {
         line_too_long = True;
      }
   }
}

void cp_sp1_pre_syscall(ThreadId tid, UInt syscallno, UWord* args,
                        UInt nargs)
{
   (void)tid; (void)syscallno; (void)args; (void)nargs;
}

void cp_sp1_post_syscall(ThreadId tid, UInt syscallno, UWord* args,
                         UInt nargs, SysRes res)
{
   SizeT done;
   (void)nargs;
   if (!sp1_markers || args[0] != 1 || sr_isError(res)) return;
   done = sr_Res(res);
   if (syscallno == __NR_write) {
      scan(tid, (const HChar*)args[1], done);
   } else if (syscallno == __NR_writev) {
      const struct vki_iovec* iov = (const struct vki_iovec*)args[1];
      UWord k;
      if (!VG_(am_is_valid_for_client)((Addr)iov,
                                        args[2] * sizeof(struct vki_iovec),
                                        VKI_PROT_READ))
         return;
      for (k = 0; k < args[2] && done > 0; k++) {
         SizeT n = iov[k].iov_len < done ? iov[k].iov_len : done;
         scan(tid, (const HChar*)iov[k].iov_base, n);
         done -= n;
      }
   }
}
