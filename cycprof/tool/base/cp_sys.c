/* cycprof: the few system calls the tool needs beyond the tool interface. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "cp_sys.h"

/* Core functions the tool interface does not declare. */
extern SysRes       VG_(do_syscall)(UWord sysno, RegWord, RegWord, RegWord,
                                    RegWord, RegWord, RegWord, RegWord,
                                    RegWord);
extern const HChar* VG_(strerror)(UWord errnum);
extern Int          VG_(kill)(Int pid, Int signo);
extern Int          VG_(check_executable)(Bool* is_setuid, const HChar* f,
                                          Bool allow_setuid);

#define LOCK_EX 2
#define LOCK_UN 8

const HChar* cp_sys_strerror(UWord err)
{
   return VG_(strerror)(err);
}

Int cp_sys_rename(const HChar* from, const HChar* to)
{
   SysRes r = VG_(do_syscall)(__NR_renameat2, VKI_AT_FDCWD, (RegWord)from,
                              VKI_AT_FDCWD, (RegWord)to, 0, 0, 0, 0);
   return sr_isError(r) ? (Int)sr_Err(r) : 0;
}

Int cp_sys_lock_dir(const HChar* dir)
{
   SysRes r = VG_(open)(dir, VKI_O_RDONLY, 0);
   Int fd;
   if (sr_isError(r)) return -1;
   fd = sr_Res(r);
   r = VG_(do_syscall)(__NR_flock, fd, LOCK_EX, 0, 0, 0, 0, 0, 0);
   if (sr_isError(r)) {
      VG_(close)(fd);
      return -1;
   }
   return fd;
}

void cp_sys_unlock_dir(Int fd)
{
   if (fd < 0) return;
   VG_(do_syscall)(__NR_flock, fd, LOCK_UN, 0, 0, 0, 0, 0, 0);
   VG_(close)(fd);
}

Long cp_sys_pread(Int fd, void* buf, SizeT count, ULong offset)
{
   SysRes r = VG_(do_syscall)(__NR_pread64, fd, (RegWord)buf, count, offset,
                              0, 0, 0, 0);
   return sr_isError(r) ? -(Long)sr_Err(r) : (Long)sr_Res(r);
}

Int cp_sys_check_executable(const HChar* path)
{
   return VG_(check_executable)(NULL, path, True);
}

Int cp_sys_open_in_place(const HChar* path)
{
   SysRes r = VG_(open)(path, VKI_O_WRONLY | VKI_O_APPEND | VKI_O_NONBLOCK, 0);
   if (sr_isError(r)) return -(Int)sr_Err(r);
   return sr_Res(r);
}

/* poll(2)'s POLLOUT, the same on every Linux (vki does not name it). */
#define POLL_OUT 0x0004

Int cp_sys_wait_writable(Int fd, Int timeout_ms)
{
   struct vki_pollfd p;
   SysRes r;
   p.fd = fd;
   p.events = POLL_OUT;
   p.revents = 0;
   r = VG_(poll)(&p, 1, timeout_ms);
   if (sr_isError(r)) return -(Int)sr_Err(r);
   return sr_Res(r) > 0 ? 1 : 0;
}

Int cp_sys_create_new(const HChar* path)
{
   Int attempt;
   for (attempt = 0; ; attempt++) {
      SysRes r = VG_(open)(path, VKI_O_CREAT | VKI_O_EXCL | VKI_O_WRONLY,
                           VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP
                           | VKI_S_IWGRP | VKI_S_IROTH | VKI_S_IWOTH);
      if (!sr_isError(r)) return sr_Res(r);
      if (sr_Err(r) != VKI_EEXIST || attempt == 1) return -(Int)sr_Err(r);
      VG_(unlink)(path);
   }
}

void cp_sys_new_process_group(void)
{
   VG_(do_syscall)(__NR_setpgid, 0, 0, 0, 0, 0, 0, 0, 0);
}

void cp_sys_kill(Int pid, Int sig)
{
   VG_(kill)(pid, sig);
}

void cp_sys_sleep_ms(Int ms)
{
   VG_(poll)(NULL, 0, ms);
}

ULong cp_sys_now_ms(void)
{
   struct vki_timespec ts;
   VG_(clock_gettime)(&ts, VKI_CLOCK_MONOTONIC);
   return (ULong)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* asm-generic/mman-common.h, the same on amd64 and arm64; not in vki. */
#define CP_MADV_DONTNEED  4
#define CP_MADV_COLLAPSE 25

Bool cp_sys_collapse_huge_page(void* start)
{
   SysRes r = VG_(do_syscall)(__NR_madvise, (UWord)start, CP_HUGE_PAGE_BYTES,
                              CP_MADV_COLLAPSE, 0, 0, 0, 0, 0);
   return !(sr_isError(r) && sr_Err(r) == VKI_EINVAL);
}

void cp_sys_release_pages(void* start, SizeT bytes)
{
   Addr lo = VG_PGROUNDUP((Addr)start);
   Addr hi = VG_PGROUNDDN((Addr)start + bytes);
   if (hi > lo)
      VG_(do_syscall)(__NR_madvise, lo, hi - lo, CP_MADV_DONTNEED, 0, 0, 0, 0, 0);
}

/* VG_(getenv) reads the client's environment (VALGRIND_LIB for the
 * helper's path, TMPDIR, the helper's own environment): its stack stays. */
static Bool holds_environment(NSegment const* seg)
{
   Addr env = (Addr)VG_(client_envp);
   Addr first = VG_(client_envp) ? (Addr)VG_(client_envp)[0] : 0;
   return (env >= seg->start && env <= seg->end)
          || (first >= seg->start && first <= seg->end);
}

void cp_sys_forget_client_memory(void)
{
   UInt kinds = SkAnonC | SkFileC | SkShmC;
   Addr one;
   Int n = VG_(am_get_segment_starts)(kinds, &one, 1), i;
   Addr* starts;
   if (n == 0) return;
   if (n < 0) n = -n;
   starts = VG_(malloc)("cp.sys.segs", n * sizeof(Addr));
   n = VG_(am_get_segment_starts)(kinds, starts, n);
   for (i = 0; i < n; i++) {
      NSegment const* seg = VG_(am_find_nsegment)(starts[i]);
      if (seg && !holds_environment(seg))
         VG_(do_syscall)(__NR_madvise, seg->start, seg->end + 1 - seg->start,
                         CP_MADV_DONTNEED, 0, 0, 0, 0, 0);
   }
   VG_(free)(starts);
}
