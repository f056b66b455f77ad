/* cycprof: --deterministic=yes: options, the virtual clock, the stream of
 * entropy, and the log lines for what cannot be fixed (cp_det.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "cp_det.h"
#include "cp_options.h"

/* Where the tool API has no accessor: the client's auxiliary vector,
 * which the core has built before the tool's post_clo_init runs. */
extern UWord* VG_(client_auxv);

/* Valgrind's --vgdb, whose enum (pub_core_options.h) starts with "no" at 0
 * in every version since 3.7; the tool API has no accessor. */
extern Int VG_(clo_vgdb);
#define VGDB_NO 0

#define AUXV_AT_NULL   0
#define AUXV_AT_RANDOM 25

/* One superblock is a few instructions; 4 ns keeps the virtual clock
 * near what the program would see natively. */
#define NS_PER_BLOCK   4ull
#define NS_PER_S       1000000000ull
/* The monotonic clocks start here: well behind the host's, so that an
 * absolute deadline the program takes from them has passed already and
 * the wait ends at once (cp_det_syscalls.c then moves time to it). */
#define MONOTONIC_BASE_NS (1ull * NS_PER_S)
/* 2023-11-14 22:13:20 UTC: a fixed date in the past, for the same
 * reason. */
#define DEFAULT_EPOCH  1700000000ll

Bool cp_det_on = False;
static Long  det_seed = 0;
static Long  det_epoch = DEFAULT_EPOCH;

static ULong blocks_done;    /* the scheduler's count, last seen */
static ULong waited_ns;      /* timeouts that ran out */
static ULong reads;          /* clock reads so far: each is 1 ns later */
static ULong rng_state;

Bool cp_det_option(const HChar* arg)
{
   if      VG_BOOL_CLO(arg, "--deterministic", cp_det_on) {}
   else if VG_BINT_CLO(arg, "--det-seed", det_seed, 0, 0x7fffffffffffffffll) {}
   else if VG_BINT_CLO(arg, "--det-epoch", det_epoch, 0, 0x3ffffffffll) {}
   else return False;
   return True;
}

void cp_det_print_usage(void)
{
   VG_(printf)(
"    --deterministic=no|yes    the program sees the same clocks, entropy and\n"
"                              CPU number on every run; the log names what\n"
"                              could still make runs differ; vgdb is off\n"
"                              unless a --vgdb* option is given [no]\n"
"    --det-seed=<N>            seed of the entropy the program reads [0]\n"
"    --det-epoch=<seconds>     the realtime clock's start [%lld]\n",
      (long long)DEFAULT_EPOCH);
}

const HChar* cp_det_describe(void)
{
   static HChar text[96];
   if (!cp_det_on) return "no";
   VG_(snprintf)(text, sizeof text, "yes, seed %lld, epoch %lld",
                 (long long)det_seed, (long long)det_epoch);
   return text;
}

/* --- the stream of entropy: splitmix64 ---------------------------------- */

static ULong mix(ULong z)
{
   z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
   z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
   return z ^ (z >> 31);
}

ULong cp_det_next64(void)
{
   rng_state += 0x9e3779b97f4a7c15ull;
   return mix(rng_state);
}

void cp_det_fill(void* buf, SizeT n)
{
   UChar* p = buf;
   while (n > 0) {
      ULong r = cp_det_next64();
      SizeT k = n < 8 ? n : 8;
      VG_(memcpy)(p, &r, k);
      p += k;
      n -= k;
   }
}

/* The 16 bytes glibc takes its stack protector and pointer guard from,
 * and Go its map seeds. */
static void rewrite_at_random(void)
{
   UWord* a;
   if (!VG_(client_auxv)) return;
   for (a = VG_(client_auxv); a[0] != AUXV_AT_NULL; a += 2)
      if (a[0] == AUXV_AT_RANDOM && a[1]) cp_det_fill((void*)a[1], 16);
}

/* With vgdb on, Valgrind maps a file named after the pid
 * (vgdb-pipe-shared-mem-vgdb-PID-by-USER-on-HOST), a line of the program's
 * /proc/self/maps, which glibc parses in every Rust program's start-up: a
 * pid one digit longer counted 4 more instructions.  The core starts the
 * gdbserver at the first scheduling, after post_clo_init, so turning the
 * default off here keeps the file out.  Any --vgdb or --vgdb-* option the
 * user gave (--vgdb-error=0 to attach gdb at start, say) leaves it on. */
static void turn_vgdb_off_unless_asked(void)
{
   if (VG_(clo_vgdb) == VGDB_NO || cp_core_option_given("--vgdb")) return;
   VG_(clo_vgdb) = VGDB_NO;
   if (VG_(clo_verbosity) > 0)
      VG_(umsg)("cycprof: --deterministic=yes turns vgdb off (its file's name "
                "holds the pid); --vgdb=yes keeps it\n");
}

void cp_det_init(void)
{
   if (!cp_det_on) return;
   rng_state = mix((ULong)det_seed ^ 0x63796370726f66ull);   /* "cycprof" */
   rewrite_at_random();
   turn_vgdb_off_unless_asked();
}

void cp_det_after_fork(void)
{
   /* The child's stream depends only on the parent's, which is the same
    * at the same fork on every run; the parent's goes on unchanged. */
   if (cp_det_on) rng_state = mix(rng_state ^ 0xc41dull);
}

/* --- the virtual clock -------------------------------------------------- */

void cp_det_blocks_done(ThreadId tid, ULong n)
{
   (void)tid;
   blocks_done = n;
}

static ULong elapsed_now(void)
{
   return blocks_done * NS_PER_BLOCK + waited_ns + reads;
}

ULong cp_det_elapsed_ns(void)
{
   reads++;
   return elapsed_now();
}

void cp_det_advance_by(ULong ns)
{
   waited_ns += ns;
}

void cp_det_advance_to(ULong elapsed_ns)
{
   ULong now = elapsed_now();
   if (elapsed_ns > now) waited_ns += elapsed_ns - now;
}

ULong cp_det_epoch_ns(void)          { return (ULong)det_epoch * NS_PER_S; }
ULong cp_det_monotonic_base_ns(void) { return MONOTONIC_BASE_NS; }

ULong cp_det_realtime_ns(void)
{
   return cp_det_epoch_ns() + cp_det_elapsed_ns();
}

ULong cp_det_monotonic_ns(void)
{
   return MONOTONIC_BASE_NS + cp_det_elapsed_ns();
}

/* --- what cannot be fixed: named once each ------------------------------ */

#define MAX_PROC_PATHS 8

static Bool  thread_noted;
static ULong signals_noted;      /* bit per signal number below 64 */
static Int   self_signals[65];   /* sent by the program to itself, pending */
static HChar proc_paths[MAX_PROC_PATHS][64];
static UInt  n_proc_paths;
static Bool  proc_paths_full;

void cp_det_note_thread(ThreadId parent, ThreadId child)
{
   /* The main thread is created with no parent. */
   if (!cp_det_on || thread_noted || parent == VG_INVALID_THREADID) return;
   thread_noted = True;
   VG_(umsg)("cycprof: not deterministic: a second thread ran (thread %u); "
             "which thread runs when depends on real time\n", (UInt)child);
}

void cp_det_note_self_signal(Int sig)
{
   if (cp_det_on && sig > 0 && sig <= 64) self_signals[sig]++;
}

static Bool synchronous(Int sig)
{
   return sig == VKI_SIGSEGV || sig == VKI_SIGBUS || sig == VKI_SIGILL
          || sig == VKI_SIGFPE || sig == VKI_SIGTRAP;
}

void cp_det_note_signal(ThreadId tid, Int sig)
{
   (void)tid;
   if (!cp_det_on || sig <= 0 || sig > 64 || synchronous(sig)) return;
   if (self_signals[sig] > 0) {      /* raise(), kill(getpid()): in order */
      self_signals[sig]--;
      return;
   }
   if (sig < 64 && (signals_noted & (1ull << sig))) return;
   if (sig < 64) signals_noted |= 1ull << sig;
   VG_(umsg)("cycprof: not deterministic: asynchronous signal %d was "
             "delivered; when it arrives depends on real time\n", sig);
}

static Bool is_own_maps(const HChar* path)
{
   HChar own[48];
   if (VG_(strcmp)(path, "/proc/self/maps") == 0
       || VG_(strcmp)(path, "/proc/thread-self/maps") == 0)
      return True;
   VG_(snprintf)(own, sizeof own, "/proc/%d/maps", VG_(getpid)());
   return VG_(strcmp)(path, own) == 0;
}

/* Files under /proc whose content is the same on every run on one
 * machine, so reading them changes no count.  overcommit_memory is a
 * setting (0, 1 or 2) that changes only when the administrator sets it;
 * glibc's malloc reads it before it shrinks a thread's heap, and naming
 * it was a false alarm in runs that repeat. */
static Bool is_machine_setting(const HChar* path)
{
   return VG_(strcmp)(path, "/proc/sys/vm/overcommit_memory") == 0;
}

void cp_det_note_proc_open(const HChar* path)
{
   UInt i;
   if (!cp_det_on || VG_(strncmp)(path, "/proc/", 6) != 0
       || is_own_maps(path) || is_machine_setting(path))
      return;
   for (i = 0; i < n_proc_paths; i++)
      if (VG_(strncmp)(proc_paths[i], path, sizeof proc_paths[i] - 1) == 0)
         return;
   if (n_proc_paths == MAX_PROC_PATHS) {
      if (!proc_paths_full)
         VG_(umsg)("cycprof: not deterministic: more files under /proc were "
                   "read (not named)\n");
      proc_paths_full = True;
      return;
   }
   VG_(strncpy)(proc_paths[n_proc_paths], path, sizeof proc_paths[0] - 1);
   n_proc_paths++;
   VG_(umsg)("cycprof: not deterministic: %s was read; its contents can "
             "differ between runs\n", path);
}
