/* cycprof: --deterministic=yes at the system calls.
 *
 * The post-syscall hook runs after the kernel's answer is in the guest
 * state, so it can overwrite what the program reads: the time from the
 * clock calls, the bytes from getrandom and from /dev/urandom and
 * /dev/random, and the CPU number.  The pre hook sees the arguments only
 * (a tool cannot change a deadline), so it notes the timeout a blocking
 * call asked for; if the call then timed out, the virtual clock moves on
 * by that much (or up to the deadline), and a program that polls with a
 * timeout still ends. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "cp_det.h"
#include "cp_det_syscalls.h"
#include "cp_heap.h"
#if defined(VGA_amd64)
#  include "libvex_guest_amd64.h"
#  define RESULT_OFFSET offsetof(VexGuestAMD64State, guest_RAX)
#elif defined(VGA_arm64)
#  include "libvex_guest_arm64.h"
#  define RESULT_OFFSET offsetof(VexGuestARM64State, guest_X0)
#endif

/* Linux's values, the same on amd64 and arm64. */
#define ERR_AGAIN     11
#define ERR_TIMEDOUT  110
#define TIMER_ABSTIME 1
#define FUTEX_CMD_MASK 0x7f
#define NS_PER_S  1000000000ull
#define NS_PER_US 1000ull
#define NS_PER_MS 1000000ull

/* What a blocking call asked for, kept from its pre to its post hook. */
typedef enum { WAIT_NONE, WAIT_FOR, WAIT_UNTIL_MONO, WAIT_UNTIL_REAL } WaitKind;
typedef struct {
   WaitKind kind;
   ULong    ns;
} PendingWait;

/* By thread id, grown as threads appear (VG_N_THREADS is not a constant
 * in every Valgrind). */
static PendingWait* pending;
static UInt         n_pending;

static PendingWait* pending_of(ThreadId tid)
{
   if (tid >= n_pending) {
      UInt old = n_pending, n = tid + 16;
      pending = cp_heap_realloc("cp.det.waits", pending, n * sizeof *pending);
      VG_(memset)(pending + old, 0, (n - old) * sizeof *pending);
      n_pending = n;
   }
   return &pending[tid];
}

static Bool writable(UWord addr, SizeT n)
{
   return addr && VG_(am_is_valid_for_client)(addr, n, VKI_PROT_WRITE);
}

static Bool readable(UWord addr, SizeT n)
{
   return addr && VG_(am_is_valid_for_client)(addr, n, VKI_PROT_READ);
}

/* --- time --------------------------------------------------------------- */

static Bool is_realtime_clock(Long clock)
{
   return clock == 0 || clock == 5 || clock == 8 || clock == 11;
}

static Bool is_cpu_clock(Long clock)
{
   return clock == 2 || clock == 3 || clock < 0;   /* < 0: a pid's clock */
}

static ULong clock_now_ns(Long clock)
{
   if (is_realtime_clock(clock)) return cp_det_realtime_ns();
   if (is_cpu_clock(clock)) return cp_det_elapsed_ns();
   return cp_det_monotonic_ns();
}

static void put_timespec(UWord addr, ULong ns)
{
   struct vki_timespec* ts = (struct vki_timespec*)addr;
   if (!writable(addr, sizeof *ts)) return;
   ts->tv_sec = ns / NS_PER_S;
   ts->tv_nsec = ns % NS_PER_S;
}

static Bool get_timespec_ns(UWord addr, ULong* ns)
{
   const struct vki_timespec* ts = (const struct vki_timespec*)addr;
   if (!readable(addr, sizeof *ts) || ts->tv_sec < 0 || ts->tv_nsec < 0)
      return False;
   *ns = (ULong)ts->tv_sec * NS_PER_S + (ULong)ts->tv_nsec;
   return True;
}

static void set_result(ThreadId tid, UWord value)
{
#if defined(RESULT_OFFSET)
   VG_(set_shadow_regs_area)(tid, 0, RESULT_OFFSET, sizeof value,
                             (const UChar*)&value);
#else
   (void)tid; (void)value;
#endif
}

/* --- entropy ------------------------------------------------------------ */

/* Character devices 1:8 and 1:9, however the descriptor was obtained
 * (opened by name, inherited, dup'd). */
static Bool is_random_device(UWord fd)
{
   struct vg_stat st;
   ULong major, minor;
   if (VG_(fstat)((Int)fd, &st) != 0 || !VKI_S_ISCHR(st.mode)) return False;
   major = ((st.rdev >> 8) & 0xfff) | ((st.rdev >> 32) & ~0xfffull);
   minor = (st.rdev & 0xff) | ((st.rdev >> 12) & ~0xffull);
   return major == 1 && (minor == 8 || minor == 9);
}

static void fill_client(UWord addr, SizeT n)
{
   if (n && writable(addr, n)) cp_det_fill((void*)addr, n);
}

static void fill_iovecs(UWord iov_addr, UWord count, SizeT done)
{
   const struct vki_iovec* iov = (const struct vki_iovec*)iov_addr;
   UWord k;
   if (!readable(iov_addr, count * sizeof *iov)) return;
   for (k = 0; k < count && done > 0; k++) {
      SizeT n = iov[k].iov_len < done ? iov[k].iov_len : done;
      fill_client((UWord)iov[k].iov_base, n);
      done -= n;
   }
}

/* --- the hooks ----------------------------------------------------------- */

static void expect_wait(ThreadId tid, WaitKind kind, ULong ns)
{
   pending_of(tid)->kind = kind;
   pending_of(tid)->ns = ns;
}

static void expect_wait_timespec(ThreadId tid, WaitKind kind, UWord addr)
{
   ULong ns;
   if (get_timespec_ns(addr, &ns)) expect_wait(tid, kind, ns);
}

static void expect_wait_ms(ThreadId tid, Long ms)
{
   if (ms > 0) expect_wait(tid, WAIT_FOR, (ULong)ms * NS_PER_MS);
}

static void note_futex_wait(ThreadId tid, UWord* args)
{
   UWord cmd = args[1] & FUTEX_CMD_MASK;
   if (cmd == VKI_FUTEX_WAIT)
      expect_wait_timespec(tid, WAIT_FOR, args[3]);
   else if (cmd == VKI_FUTEX_WAIT_BITSET)
      expect_wait_timespec(tid, (args[1] & VKI_FUTEX_CLOCK_REALTIME)
                                ? WAIT_UNTIL_REAL : WAIT_UNTIL_MONO, args[3]);
   else if (cmd == VKI_FUTEX_LOCK_PI)
      expect_wait_timespec(tid, WAIT_UNTIL_REAL, args[3]);
}

void cp_det_pre_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nargs)
{
   (void)nargs;
   if (!cp_det_on) return;
   pending_of(tid)->kind = WAIT_NONE;
   switch (sysno) {
   case __NR_nanosleep:
      expect_wait_timespec(tid, WAIT_FOR, args[0]);
      break;
   case __NR_clock_nanosleep:
      if (!(args[1] & TIMER_ABSTIME))
         expect_wait_timespec(tid, WAIT_FOR, args[2]);
      else
         expect_wait_timespec(tid, is_realtime_clock((Long)args[0])
                                   ? WAIT_UNTIL_REAL : WAIT_UNTIL_MONO,
                              args[2]);
      break;
#if defined(__NR_poll)
   case __NR_poll:
      expect_wait_ms(tid, (Long)args[2]);
      break;
#endif
#if defined(__NR_epoll_wait)
   case __NR_epoll_wait:
#endif
   case __NR_epoll_pwait:
      expect_wait_ms(tid, (Long)args[3]);
      break;
   case __NR_ppoll:
      expect_wait_timespec(tid, WAIT_FOR, args[2]);
      break;
   case __NR_pselect6:
      expect_wait_timespec(tid, WAIT_FOR, args[4]);
      break;
#if defined(__NR_select)
   case __NR_select: {
      const struct vki_timeval* tv = (const struct vki_timeval*)args[4];
      if (readable(args[4], sizeof *tv) && tv->tv_sec >= 0 && tv->tv_usec >= 0)
         expect_wait(tid, WAIT_FOR, (ULong)tv->tv_sec * NS_PER_S
                                    + (ULong)tv->tv_usec * NS_PER_US);
      break;
   }
#endif
   case __NR_rt_sigtimedwait:
      expect_wait_timespec(tid, WAIT_FOR, args[2]);
      break;
   case __NR_futex:
      note_futex_wait(tid, args);
      break;
   case __NR_kill:
      if ((Int)args[0] == VG_(getpid)()) cp_det_note_self_signal((Int)args[1]);
      break;
   case __NR_tgkill:
      if ((Int)args[0] == VG_(getpid)()) cp_det_note_self_signal((Int)args[2]);
      break;
   default:
      break;
   }
}

static Bool timed_out(UInt sysno, SysRes res)
{
   if (sr_isError(res))
      return sr_Err(res) == ERR_TIMEDOUT
             || (sysno == __NR_rt_sigtimedwait && sr_Err(res) == ERR_AGAIN);
   /* The sleeps return 0 when they slept it all; poll, select and
    * epoll_wait return 0 ready descriptors when the time ran out. */
   return sysno != __NR_futex && sysno != __NR_rt_sigtimedwait
          && sr_Res(res) == 0;
}

static void finish_wait(ThreadId tid, UInt sysno, SysRes res)
{
   PendingWait w = *pending_of(tid);
   pending_of(tid)->kind = WAIT_NONE;
   if (w.kind == WAIT_NONE || !timed_out(sysno, res)) return;
   switch (w.kind) {
   case WAIT_FOR:
      cp_det_advance_by(w.ns);
      break;
   case WAIT_UNTIL_MONO:
      if (w.ns > cp_det_monotonic_base_ns())
         cp_det_advance_to(w.ns - cp_det_monotonic_base_ns());
      break;
   case WAIT_UNTIL_REAL:
      if (w.ns > cp_det_epoch_ns())
         cp_det_advance_to(w.ns - cp_det_epoch_ns());
      break;
   default:
      break;
   }
}

static void note_open(UWord path_addr)
{
   const HChar* path = (const HChar*)path_addr;
   if (readable(path_addr, 7)) cp_det_note_proc_open(path);
}

void cp_det_post_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nargs,
                         SysRes res)
{
   (void)nargs;
   if (!cp_det_on) return;
   finish_wait(tid, sysno, res);
   if (sr_isError(res)) return;
   switch (sysno) {
   case __NR_clock_gettime:
      put_timespec(args[1], clock_now_ns((Long)args[0]));
      break;
   case __NR_gettimeofday:
      if (writable(args[0], sizeof(struct vki_timeval))) {
         struct vki_timeval* tv = (struct vki_timeval*)args[0];
         ULong ns = cp_det_realtime_ns();
         tv->tv_sec = ns / NS_PER_S;
         tv->tv_usec = (ns % NS_PER_S) / NS_PER_US;
      }
      break;
#if defined(__NR_time)
   case __NR_time: {
      ULong s = cp_det_realtime_ns() / NS_PER_S;
      if (writable(args[0], sizeof(UWord))) *(UWord*)args[0] = s;
      set_result(tid, s);
      break;
   }
#endif
   case __NR_times: {
      /* Clock ticks (100 a second on Linux): the process's CPU time is
       * its virtual time, its children's are not known (0). */
      ULong ticks = cp_det_elapsed_ns() / (NS_PER_S / 100);
      if (writable(args[0], sizeof(struct vki_tms))) {
         struct vki_tms* t = (struct vki_tms*)args[0];
         t->tms_utime = ticks;
         t->tms_stime = t->tms_cutime = t->tms_cstime = 0;
      }
      set_result(tid, (cp_det_monotonic_ns() / (NS_PER_S / 100)));
      break;
   }
   case __NR_getrusage:
      if (writable(args[1], sizeof(struct vki_rusage))) {
         struct vki_rusage* u = (struct vki_rusage*)args[1];
         ULong ns = cp_det_elapsed_ns();
         u->ru_utime.tv_sec = ns / NS_PER_S;
         u->ru_utime.tv_usec = (ns % NS_PER_S) / NS_PER_US;
         u->ru_stime.tv_sec = u->ru_stime.tv_usec = 0;
      }
      break;
   case __NR_sysinfo:
      /* What changes from moment to moment: the uptime, the load and
       * the free memory (a machine's sizes stay). */
      if (writable(args[0], sizeof(struct vki_sysinfo))) {
         struct vki_sysinfo* si = (struct vki_sysinfo*)args[0];
         si->uptime = cp_det_monotonic_ns() / NS_PER_S;
         si->loads[0] = si->loads[1] = si->loads[2] = 0;
         si->freeram = si->totalram / 2;
         si->freeswap = si->totalswap;
         si->sharedram = si->bufferram = 0;
         si->freehigh = si->totalhigh;
         si->procs = 1;
      }
      break;
   case __NR_getrandom:
      fill_client(args[0], sr_Res(res));
      break;
   case __NR_read:
   case __NR_pread64:
      if (sr_Res(res) > 0 && is_random_device(args[0]))
         fill_client(args[1], sr_Res(res));
      break;
   case __NR_readv:
   case __NR_preadv:
   case __NR_preadv2:
      if (sr_Res(res) > 0 && is_random_device(args[0]))
         fill_iovecs(args[1], args[2], sr_Res(res));
      break;
   case __NR_getcpu:
      if (writable(args[0], sizeof(UInt))) *(UInt*)args[0] = 0;
      if (writable(args[1], sizeof(UInt))) *(UInt*)args[1] = 0;
      break;
#if defined(__NR_open)
   case __NR_open:
      note_open(args[0]);
      break;
#endif
   case __NR_openat:
      note_open(args[1]);
      break;
   default:
      break;
   }
}
