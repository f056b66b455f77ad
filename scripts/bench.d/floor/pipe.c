/* cpfloor: the run and the reader of --floor=pipe (pipe.h). */
#include "pub_tool_basics.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "cp_array.h"
#include "cp_intern.h"
#include "cp_ir.h"
#include "cp_wordmap.h"
#include "pipe.h"

/* In the core, not in pub_tool_aspacemgr.h; the only way to get memory
 * that the forked reader shares. */
extern SysRes VG_(am_shared_mmap_file_float_valgrind)(SizeT length,
                                                      UInt prot, Int fd,
                                                      Off64T offset);
/* Likewise (cycprof's cp_sys.c declares it the same way). */
extern SysRes VG_(do_syscall)(UWord sysno, RegWord, RegWord, RegWord,
                              RegWord, RegWord, RegWord, RegWord, RegWord);

PipeMode pipe_mode = PipeOff;
Bool  pipe_check;
ULong pipe_running;

/* --- the ring ------------------------------------------------------------ */

/* Small enough to stay in the cache the two cores share. */
#define RING_WORDS    (1ULL << 18)                 /* 2 MB */
#define RING_MASK     (RING_WORDS - 1)
#define PUBLISH_EVERY 4096              /* words */
#define EVENT_MAX     2                 /* words: a call and its target */

/* Each index on its own cache line: the run writes head, the reader tail. */
typedef struct {
   volatile ULong head;   /* words written, at an event's end */
   ULong pad1[7];
   volatile ULong tail;   /* words read */
   ULong pad2[7];
} Control;

static Control* ctl;
static ULong*   ring;
static ULong    head, published, tail_seen, run_waits;
static Int      reader_pid = -1;

static void sleep_us(ULong us)
{
   struct vki_timespec ts = { 0, (Word)(us * 1000) };
   VG_(do_syscall)(__NR_nanosleep, (UWord)&ts, 0, 0, 0, 0, 0, 0, 0);
}

static void publish(void)
{
   __asm__ __volatile__("" ::: "memory");   /* x86 keeps stores in order */
   ctl->head = head;
   published = head;
}

static void make_room(void)
{
   while (head + EVENT_MAX - tail_seen > RING_WORDS) {
      tail_seen = ctl->tail;
      if (head + EVENT_MAX - tail_seen <= RING_WORDS) break;
      publish();
      run_waits++;
      sleep_us(20);
   }
}

static inline void put(ULong w)
{
   ring[head++ & RING_MASK] = w;
}

static inline void end_event(void)
{
   if (head - published >= PUBLISH_EVERY) publish();
}

/* One word per event: a tag in bits 0-1, the instructions since the last
 * event in bits 32-63 (a longer stretch sends EV_COUNT first), and in bits
 * 2-31 the call site's id or the frames popped (for EV_COUNT, 1 at the
 * end).  An indirect call's target follows in a word of its own; a direct
 * call's is in the site table. */
enum { EV_COUNT = 0, EV_CALL = 1, EV_CALL_TO = 2, EV_POP = 3 };
#define EV_END (1ULL << 2 | EV_COUNT)
#define MAX_DELTA 0xFFFFFFFFULL

/* Call sites, numbered as they are translated, shared with the reader:
 * an entry is written before any event names it. */
typedef struct { Addr site, target; } Site;
#define MAX_SITES (1u << 22)
static Site* sites;
static UInt  n_sites;
static ULong last_sent;

UInt pipe_site(Addr site, Addr direct_target)
{
   tl_assert(n_sites + 1 < MAX_SITES && n_sites + 1 < (1u << 30));
   n_sites++;
   sites[n_sites].site = site;
   sites[n_sites].target = direct_target;
   return n_sites;
}

/* The count since the last event, in bits 32-63, with room made for the
 * event that carries it. */
static inline ULong take_delta(void)
{
   ULong delta = pipe_running - last_sent;
   last_sent = pipe_running;
   for (; delta > MAX_DELTA; delta -= MAX_DELTA) {
      make_room();
      put(EV_COUNT | (MAX_DELTA << 32));
   }
   make_room();
   return delta << 32;
}

void pipe_call(UInt site_id, Addr target)
{
   if (sites[site_id].target) {
      put(take_delta() | (ULong)site_id << 2 | EV_CALL);
   } else {
      put(take_delta() | (ULong)site_id << 2 | EV_CALL_TO);
      put(target);
   }
   end_event();
}

void pipe_pop(UInt n)
{
   put(take_delta() | (ULong)n << 2 | EV_POP);
   end_event();
}

/* --- the reader: the context tree ---------------------------------------- */

typedef struct {
   Addr  site;
   UInt  parent, fn;
   ULong self, calls;
} Ctx;

typedef struct { UInt ctx, fn; } RFrame;

static Ctx*     ctxs;
static UInt     n_ctxs, ctxs_capacity;
static UInt*    slots;            /* context ids by (parent, site, fn) */
static UInt     slots_mask;
static Interner fns;              /* callees, interned */
static UInt*    fn_active;        /* activations of each on the stack */
static UInt     fn_active_capacity;
static RFrame*  stack;
static UInt     depth, stack_capacity, max_depth;
static ULong    last_count, events, folded;

/* The callee's interned index, with its activation count. */
static UInt intern_fn(Addr fn)
{
   UInt id = cp_intern(&fns, fn), old = fn_active_capacity;
   if (id < old) return id;
   fn_active = cp_room_for_one("floor.pipe", fn_active, id, &fn_active_capacity,
                               sizeof(UInt), 1024);
   VG_(memset)(fn_active + old, 0, (fn_active_capacity - old) * sizeof(UInt));
   return id;
}

static UInt ctx_slot(UInt parent, Addr site, UInt fn)
{
   return (UInt)cp_hash_word(((UWord)parent << 32 | fn) ^ cp_hash_word(site))
          & slots_mask;
}

static void rehash(void)
{
   UInt id;
   slots_mask = 2 * slots_mask + 1;
   VG_(free)(slots);
   slots = VG_(calloc)("floor.pipe", slots_mask + 1, sizeof(UInt));
   for (id = 2; id <= n_ctxs; id++) {
      UInt i = ctx_slot(ctxs[id].parent, ctxs[id].site, ctxs[id].fn);
      while (slots[i]) i = (i + 1) & slots_mask;
      slots[i] = id;
   }
}

static UInt child(UInt parent, Addr site, UInt fn)
{
   UInt i = ctx_slot(parent, site, fn), id;
   for (; (id = slots[i]) != 0; i = (i + 1) & slots_mask) {
      const Ctx* c = &ctxs[id];
      if (c->parent == parent && c->fn == fn && c->site == site) return id;
   }
   ctxs = cp_room_for_one("floor.pipe", ctxs, n_ctxs + 1, &ctxs_capacity,
                          sizeof(Ctx), 1024);
   id = ++n_ctxs;
   ctxs[id].site = site;
   ctxs[id].parent = parent;
   ctxs[id].fn = fn;
   ctxs[id].self = ctxs[id].calls = 0;
   slots[i] = id;
   if (n_ctxs > slots_mask / 2) rehash();
   return id;
}

static void charge(ULong count)
{
   ctxs[stack[depth - 1].ctx].self += count - last_count;
   last_count = count;
}

static void read_call(Addr target, Addr site, ULong count)
{
   UInt fn = intern_fn(target), top = stack[depth - 1].ctx, ctx;
   charge(count);
   /* Simpler than cycprof's re-entry contexts (docs/attribution.md): a
    * call to an active function keeps the current context, so recursion
    * never deepens the tree.  cycprof builds more contexts (cc1plus: 4.07 M
    * against 3.28 M), which the reader has the time to spare for. */
   if (fn_active[fn]) {
      ctx = top;
      folded++;
   } else {
      ctx = child(top, site, fn);
   }
   ctxs[ctx].calls++;
   fn_active[fn]++;
   stack = cp_room_for_one("floor.pipe", stack, depth, &stack_capacity,
                           sizeof(RFrame), 1024);
   stack[depth].ctx = ctx;
   stack[depth].fn = fn;
   depth++;
   if (depth > max_depth) max_depth = depth;
}

static void read_pops(UInt n, ULong count)
{
   charge(count);
   for (; n > 0 && depth > 1; n--) {
      depth--;
      fn_active[stack[depth].fn]--;
   }
}

static void reader_init(void)
{
   ctxs = cp_room_for_one("floor.pipe", NULL, 0, &ctxs_capacity,
                          sizeof(Ctx), 1024);
   n_ctxs = 1;                    /* 1: the root; 0: no context */
   VG_(memset)(&ctxs[1], 0, sizeof(Ctx));
   slots_mask = (1u << 20) - 1;
   slots = VG_(calloc)("floor.pipe", slots_mask + 1, sizeof(UInt));
   cp_intern_init(&fns);
   intern_fn(0);                  /* the root's */
   stack = cp_room_for_one("floor.pipe", NULL, 0, &stack_capacity,
                           sizeof(RFrame), 1024);
   stack[0].ctx = 1;
   stack[0].fn = 0;
   depth = 1;
}

/* CPU milliseconds of this process, user and system. */
static ULong cpu_ms(void)
{
   struct vki_rusage ru;
   VG_(do_syscall)(__NR_getrusage, VKI_RUSAGE_SELF, (UWord)&ru, 0, 0, 0, 0,
                   0, 0);
   return (ULong)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000
          + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
}

static void report(ULong reader_waits)
{
   ULong total = 0;
   UInt id;
   for (id = 1; id <= n_ctxs; id++) total += ctxs[id].self;
   VG_(umsg)("cpfloor pipe: reader: events %llu, contexts %u, folded calls "
             "%llu, max depth %u, instrs charged %llu, waits %llu, cpu %llu "
             "ms\n", events, n_ctxs, folded, max_depth, total, reader_waits,
             cpu_ms());
}

static void reader_loop(void)
{
   ULong pos = 0, waits = 0, count = 0;
   reader_init();
   for (;;) {
      ULong end = ctl->head;
      UInt idle = 0;
      while (pos == end) {
         if (++idle < 256) { end = ctl->head; continue; }
         waits++;
         sleep_us(20);
         end = ctl->head;
      }
      __asm__ __volatile__("" ::: "memory");
      while (pos < end) {
         ULong w = ring[pos++ & RING_MASK];
         UInt arg = (UInt)(w & 0xFFFFFFFFu) >> 2;
         events++;
         count += w >> 32;
         switch (w & 3) {
         case EV_COUNT:
            if (arg == 0) break;
            charge(count);
            report(waits);
            VG_(exit)(0);
         case EV_CALL:
            read_call(sites[arg].target, sites[arg].site, count);
            break;
         case EV_CALL_TO:
            read_call((Addr)ring[pos++ & RING_MASK], sites[arg].site, count);
            break;
         case EV_POP:
            read_pops(arg, count);
            break;
         }
      }
      ctl->tail = pos;
   }
}

/* --- setting up and finishing -------------------------------------------- */

void pipe_init(void)
{
   HChar path[64];
   SizeT bytes = sizeof(Control) + RING_WORDS * sizeof(ULong)
                 + MAX_SITES * sizeof(Site);
   SysRes sr;
   Int fd;
   if (pipe_mode != PipeOn) return;
   VG_(sprintf)(path, "/dev/shm/cpfloor-pipe-%d", VG_(getpid)());
   sr = VG_(open)(path, VKI_O_CREAT | VKI_O_RDWR | VKI_O_TRUNC, 0600);
   if (sr_isError(sr)) VG_(tool_panic)("cpfloor: cannot create the ring");
   fd = sr_Res(sr);
   VG_(unlink)(path);
   if (sr_isError(VG_(do_syscall)(__NR_ftruncate, fd, bytes, 0, 0, 0, 0, 0, 0)))
      VG_(tool_panic)("cpfloor: cannot size the ring");
   sr = VG_(am_shared_mmap_file_float_valgrind)(bytes, VKI_PROT_READ
                                                | VKI_PROT_WRITE, fd, 0);
   if (sr_isError(sr)) VG_(tool_panic)("cpfloor: cannot map the ring");
   VG_(close)(fd);
   ctl = (Control*)sr_Res(sr);
   ring = (ULong*)(ctl + 1);
   sites = (Site*)(ring + RING_WORDS);
   reader_pid = VG_(fork)();
   if (reader_pid == 0) reader_loop();
   if (reader_pid < 0) VG_(tool_panic)("cpfloor: cannot fork the reader");
}

void pipe_finish(void)
{
   Int status = 0;
   if (pipe_mode == PipeRunningCount)
      VG_(umsg)("cpfloor running: instrs %llu\n", pipe_running);
   if (pipe_mode != PipeOn) return;
   put(take_delta() | EV_END);
   publish();
   VG_(waitpid)(reader_pid, &status, 0);
   VG_(umsg)("cpfloor pipe: run: words %llu, instrs %llu, waits %llu, "
             "reader status %d, cpu %llu ms\n", head, pipe_running, run_waits,
             status, cpu_ms());
}

static void add_running(IRSB* out, IRExpr* amount, Bool subtract)
{
   IRExpr* old = cp_ir_load64(out, &pipe_running);
   cp_ir_store64(out, &pipe_running,
                 cp_ir_binop(out, subtract ? Iop_Sub64 : Iop_Add64, old,
                             amount));
}

static IRExpr* select(IRSB* out, IRExpr* cond, ULong yes, ULong no)
{
   return cp_ir_tmp(out, Ity_I64,
                    IRExpr_ITE(cond, cp_ir_word(yes), cp_ir_word(no)));
}

/* One update of the running count per superblock where it has one side
 * exit (most have, with chasing off): before the first side exit the
 * count takes the whole superblock unless the exit is taken, and a later
 * side exit taken gives back what did not run. */
void pipe_count_side_exit(IRSB* out, UInt n, UInt total, IRExpr* taken,
                          Bool* counted)
{
   if (!*counted)
      add_running(out, select(out, taken, n, total), False);
   else
      add_running(out, select(out, taken, total - n, 0), True);
   *counted = True;
}

void pipe_count_end(IRSB* out, UInt total, Bool counted)
{
   if (!counted) add_running(out, cp_ir_word(total), False);
}

/* The key every superblock finds: its check never calls the helper. */
static ULong check_key = 1;

static VG_REGPARM(0) void check_failed(void)
{
   tl_assert(0);
}

void pipe_add_check(IRSB* out)
{
   IRExpr* distance = cp_ir_binop(out, Iop_Sub64,
                                  cp_ir_load64(out, &check_key),
                                  cp_ir_word(1));
   cp_ir_call_if(out, cp_ir_tmp(out, Ity_I1,
                                IRExpr_Binop(Iop_CmpLT64U,
                                             cp_ir_word(0x7fffffff),
                                             distance)),
                 0, "check_failed", check_failed, mkIRExprVec_0());
}
