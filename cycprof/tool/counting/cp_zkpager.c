/* cycprof: the zkVM model at run time (cp_zkpager.h), RISC Zero's pager
 * (pager.rs) and segment loop (executor.rs) at the tag of the model's
 * row; docs/zkvm.md gives the rules and their lines. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "cp_addrmap.h"
#include "cp_arena.h"
#include "cp_heap.h"
#include "cp_zkaddr.h"
#include "cp_zkmodel.h"
#include "cp_zkpager.h"

typedef struct {
   ULong user, paging;
   UInt  po2;
} Segment;

/* Node n of the tree: 1 is the root, pages are n_pages .. 2*n_pages-1
 * (pager.rs node_idx). Two bits each: loaded, dirty. */
static UChar* loaded;
static UChar* dirty;
static UInt   n_pages;
static UInt   page_shift;
/* The nodes set this segment, to clear them at the next (pager.rs
 * PageStates.indexes). */
static UInt*  touched;
static UWord  n_touched, touched_cap;

static ULong  seg_paging;
static ULong  threshold;
/* Below 0 at start: the first instruction opens the first segment. */
Long cp_zk_budget = -1;
/* Changes at each segment start: a superblock whose code pages were all
 * fetched in this epoch needs no fetch calls (cp_zk_fetch). */
ULong cp_zk_epoch = 1;
/* On the heap, and only with the model: static, its 32 KiB would move
 * where Valgrind's own memory lands in every run, a line more in the
 * program's /proc/self/maps on Debian sid (test det-maps-lines). */
ULong* cp_zk_known;
ULong cp_zk_known_tag = 1ULL << CP_ZK_TAG_SHIFT;
static Segment* segments;
static UWord  n_segments, segments_cap;
static AddrMap costs_of;          /* Context* -> ZkCost* */
static const CpZkModel* M;
static Bool   started;            /* the first segment has begun */

static Bool bit(const UChar* bits, UInt n)
{
   return (bits[n >> 3] >> (n & 7)) & 1;
}

static void set_bit(UChar* bits, UInt n)
{
   bits[n >> 3] |= (UChar)(1 << (n & 7));
}

static void note_touched(UInt node)
{
   if (bit(loaded, node) || bit(dirty, node)) return;
   if (n_touched == touched_cap) {
      touched_cap = touched_cap ? 2 * touched_cap : 4096;
      touched = cp_heap_realloc("cp.zk.touched", touched,
                                touched_cap * sizeof(UInt));
   }
   touched[n_touched++] = node;
}

/* Costs charged before the first thread has a context: in the log's
 * table, in no file. */
static ZkCost before_any_context;

/* Where the costs go: the context the instruction runs in, which is the
 * current one but while a run is settled after it ended (near.ctx). */
static Context* charge_ctx;

static ZkCost* cost_here(void)
{
   Bool added;
   UWord* slot;
   Context* ctx = charge_ctx ? charge_ctx : cp_cur_ctx;
   if (!ctx) return &before_any_context;
   slot = cp_addrmap_slot(&costs_of, (UWord)ctx, &added);
   if (added) {
      ZkCost* c = cp_arena_alloc(sizeof(ZkCost));
      VG_(memset)(c, 0, sizeof *c);
      *slot = (UWord)c;
   }
   return (ZkCost*)*slot;
}

/* The page in bits, then every ancestor not yet in them: a page costs
 * page_cycles and each ancestor node_cycles. pager.rs page_in and
 * fixup_costs(.., Loaded) with the loaded bits; page_for_writing and
 * fixup_costs(.., Dirty) with the dirty bits (all are loaded by then). */
static ULong mark_path(UChar* bits, UInt node)
{
   ULong cost = M->page_cycles;
   note_touched(node);
   set_bit(bits, node);
   for (node >>= 1; node != 0; node >>= 1) {
      if (bit(bits, node)) continue;
      note_touched(node);
      set_bit(bits, node);
      cost += M->node_cycles;
   }
   return cost;
}

static ULong page_in(UInt node)  { return mark_path(loaded, node); }
static ULong page_out(UInt node) { return mark_path(dirty, node); }

/* One guest page read (and written if write); returns nothing, charges
 * the current context and the segment. */
static void touch_page(UInt guest, Bool write, ZkCost* sink)
{
   UInt node = n_pages + (guest >> page_shift);
   ULong in = 0, out = 0;
   if (!bit(loaded, node) && (!write || M->store_pages_in))
      in = page_in(node);
   if (write && !bit(dirty, node))
      out = page_out(node);
   if (in + out == 0) return;
   seg_paging += in + out;
   cp_zk_budget -= (Long)(in + out);
   if (!sink) sink = cost_here();
   sink->page_in += in;
   sink->page_out += out;
}

/* Every guest page of the native bytes [a, a+size): an access that spans
 * two pages touches both. */
static void touch(Addr a, UWord size, Bool write)
{
   Addr page_bytes = M->page_bytes;
   Addr x = a & ~(page_bytes - 1), last = a + (size ? size : 1) - 1;
   for (; x <= last; x += page_bytes)
      touch_page(cp_zkaddr_guest(x), write, NULL);
}

/* Notes block a's state for the inline code (cp_zk_known). */
static void know(Addr a, Bool write)
{
   ULong block = a >> CP_ZK_BLOCK_SHIFT;
   ULong* entry = &cp_zk_known[block & ((1u << CP_ZK_KNOWN_BITS) - 1)];
   ULong dirty_entry = cp_zk_known_tag | (block << CP_ZK_BLOCK_SHIFT) | 3;
   if (a >> CP_ZK_TAG_SHIFT) return;   /* not user space */
   if (write) *entry = dirty_entry;
   else if (*entry != dirty_entry) *entry = dirty_entry - 2;
}

static void clear_pages(void)
{
   UWord i;
   for (i = 0; i < n_touched; i++) {
      UInt n = touched[i];
      loaded[n >> 3] &= (UChar)~(1 << (n & 7));
      dirty[n >> 3] &= (UChar)~(1 << (n & 7));
   }
   n_touched = 0;
}

/* executor.rs run: after pager.reset (the pager's count back at
 * RESERVED_PAGING_CYCLES), resume loads the suspended PC and stores the
 * input digest, both in the system page.  All of it is the segment's
 * overhead, charged where the segment starts. */
static void start_segment_here(void)
{
   ZkCost scratch = { 0, 0, 0 };
   clear_pages();
   /* A new tag: no entry of the segment before matches.  When the tags
    * wrap round, the old entries go. */
   cp_zk_known_tag += 1ULL << CP_ZK_TAG_SHIFT;
   if (cp_zk_known_tag >> 63) {   /* bit 63 is the near runs' */
      VG_(memset)(cp_zk_known, 0, sizeof(ULong) << CP_ZK_KNOWN_BITS);
      cp_zk_known_tag = 1ULL << CP_ZK_TAG_SHIFT;
   }
   cp_zk_epoch++;
   seg_paging = M->reserved_paging_cycles;
   cp_zk_budget = (Long)(threshold - M->reserved_cycles - seg_paging);
   touch_page((UInt)M->start_page, True, &scratch);
   cost_here()->segment += seg_paging;
   started = True;
}

/* The segment's instructions, from what its budget has left. */
static ULong segment_user(void)
{
   return threshold - M->reserved_cycles - seg_paging - cp_zk_budget;
}

static void record_segment(UInt po2)
{
   ULong total = 1ULL << po2;
   ULong seg_user = segment_user();
   ZkCost* here = cost_here();
   if (n_segments == segments_cap) {
      segments_cap = segments_cap ? 2 * segments_cap : 64;
      segments = cp_heap_realloc("cp.zk.segments", segments,
                                 segments_cap * sizeof(Segment));
   }
   segments[n_segments].user = seg_user;
   segments[n_segments].paging = seg_paging;
   segments[n_segments].po2 = po2;
   n_segments++;
   /* The reserved cycles and the padding: what user and paging leave. */
   here->segment += total - seg_user - seg_paging;
}

void cp_zk_init(void)
{
   UInt bytes;
   /* The inline code's blocks are the guest's pages. */
   tl_assert((1u << CP_ZK_BLOCK_SHIFT) == cp_zk_model->page_bytes);
   M = cp_zk_model;
   page_shift = 0;
   while ((1u << page_shift) < M->page_bytes) page_shift++;
   n_pages = 1u << cp_zk_tree_depth(M);
   bytes = (2 * n_pages) / 8;
   loaded = cp_heap_calloc("cp.zk.loaded", bytes, 1);
   dirty = cp_heap_calloc("cp.zk.dirty", bytes, 1);
   cp_zk_known = cp_heap_calloc("cp.zk.known", 1u << CP_ZK_KNOWN_BITS,
                                sizeof(ULong));
   cp_addrmap_init(&costs_of, 1024);
   cp_zkaddr_init(M->user_start, M->user_end);
   threshold = (1ULL << cp_zk_po2) - cp_zk_max_insn_cycles(M, cp_zk_po2);
}

/* executor.rs run: before each step, a segment whose total exceeds the
 * threshold closes (the first instruction opens the first).  Here before
 * instruction `index` of a run whose helpers see the budget without the
 * run's instructions: the segment has index of them, the next one the
 * rest, which the run's exit takes. */
static void close_before(UInt index)
{
   cp_zk_budget -= index;
   if (started) record_segment(cp_zk_po2);
   start_segment_here();
   cp_zk_budget += index;
}

/* Every fetch of the instructions of [pc, pc+len): an instruction that
 * spans two pages touches both. */
static void fetch_instruction(const ZkBlock* b, UInt index)
{
   if (M->fetch_loads) touch(b->pc[index], b->len[index], False);
}

/* The run near the segment's end: its block, the last instruction played
 * (the check before it done and its code fetched), the budget its last
 * helper left, and its context.  Between its helpers, it runs no
 * access: so the instructions after the last played one only need their
 * checks and fetches, which the next helper (or the next run's entry,
 * or the end) plays. */
static struct {
   const ZkBlock* block;
   Int    played;
   Long   left;
   Context* ctx;
} near;

/* The checks and fetches of the near run's instructions up to index. */
static void play_to(Int index)
{
   Int i;
   for (i = near.played + 1; i <= index; i++) {
      if (cp_zk_budget - i < 0) close_before((UInt)i);
      fetch_instruction(near.block, (UInt)i);
      near.played = i;
   }
}

/* The last near run ended: if the budget is below 0 now, a segment had to
 * close before one of its last instructions, which no helper saw. */
static void settle_near_run(void)
{
   Long now = cp_zk_budget;
   if (!near.block) return;
   if (now < 0) {
      Long done = near.left - now;    /* the run's instructions */
      cp_zk_budget = near.left;
      charge_ctx = near.ctx;
      play_to((Int)done - 1);
      charge_ctx = NULL;
      cp_zk_budget -= done;
   }
   near.block = NULL;
}

/* The superblock whose fetch sites run from its first, and the epoch they
 * started in: if it reaches its last in the same epoch, all its code
 * pages are loaded in this segment. */
static const ZkBlock* fetch_run_block;
static ULong fetch_run_epoch;

static void note_fetch_site(const ZkBlock* b, UWord word)
{
   if (word & CP_ZK_FIRST) {
      fetch_run_block = b;
      fetch_run_epoch = cp_zk_epoch;
   }
   if ((word & CP_ZK_LAST) && fetch_run_block == b
       && fetch_run_epoch == cp_zk_epoch)
      *b->cell = cp_zk_epoch;
}

VG_REGPARM(2) void cp_zk_enter(const ZkBlock* b, UWord word)
{
   if (word & CP_ZK_NEAR) {
      settle_near_run();
      near.block = b;
      near.played = -1;
      near.ctx = cp_cur_ctx;
      play_to(0);
      near.left = cp_zk_budget;
   } else {
      fetch_instruction(b, 0);
   }
   note_fetch_site(b, word);
}

VG_REGPARM(2) void cp_zk_fetch(const ZkBlock* b, UWord word)
{
   UInt index = word & CP_ZK_INDEX;
   if (word & CP_ZK_NEAR) {
      play_to((Int)index);
      near.left = cp_zk_budget;
   } else {
      fetch_instruction(b, index);
   }
   note_fetch_site(b, word);
}

static void on_access(Addr a, Bool write, UWord word)
{
   if (word & CP_ZK_NEAR) play_to((Int)(word & CP_ZK_INDEX));
   touch(a, word >> CP_ZK_SIZE_SHIFT, write);
   know(a, write);
   if (word & CP_ZK_NEAR) near.left = cp_zk_budget;
}

VG_REGPARM(2) void cp_zk_on_load(Addr a, UWord word)
{
   on_access(a, False, word);
}

VG_REGPARM(2) void cp_zk_on_store(Addr a, UWord word)
{
   on_access(a, True, word);
}

static UInt po2_of_next_power(ULong n)
{
   UInt po2 = 0;
   while ((1ULL << po2) < n) po2++;
   return po2;
}

static Bool finished;

/* The table, a line at a time: header, one line per segment, total. */
void cp_zk_table_lines(void (*line)(void* arg, const HChar* text), void* arg)
{
   ULong user = 0, paging = 0, reserved = 0, padding = 0;
   HChar text[256];
   UWord i;
   if (!M || !finished) return;
   VG_(snprintf)(text, sizeof text, "zkVM model %s (%s); an estimate: "
                 "docs/zkvm.md", M->name, M->source);
   line(arg, text);
   line(arg, "zkVM segment  po2        user      paging  reserved     padding");
   for (i = 0; i < n_segments; i++) {
      const Segment* s = &segments[i];
      ULong pad = (1ULL << s->po2) - s->user - s->paging - M->reserved_cycles;
      VG_(snprintf)(text, sizeof text,
                    "zkVM %7lu  %3u  %10llu  %10llu  %8u  %10llu", i, s->po2,
                    s->user, s->paging, M->reserved_cycles, pad);
      line(arg, text);
      user += s->user;
      paging += s->paging;
      reserved += M->reserved_cycles;
      padding += pad;
   }
   VG_(snprintf)(text, sizeof text, "zkVM total %lu segments: %llu cycles = "
                 "user %llu + paging %llu + reserved %llu + padding %llu",
                 n_segments, user + paging + reserved + padding, user, paging,
                 reserved, padding);
   line(arg, text);
}

static void log_line(void* arg, const HChar* text)
{
   (void)arg;
   VG_(umsg)("%s\n", text);
}

void cp_zk_finish(void)
{
   if (!M || finished) return;
   settle_near_run();
   if (!started) return;
   /* executor.rs: the last segment is padded to the next power of two. */
   record_segment(po2_of_next_power(segment_user() + seg_paging
                                    + M->reserved_cycles));
   finished = True;
   cp_zk_table_lines(log_line, NULL);
}

const ZkCost* cp_zk_cost_of(const Context* ctx)
{
   UWord* slot;
   if (!M || !cp_addrmap_ready(&costs_of)) return NULL;
   slot = cp_addrmap_find(&costs_of, (UWord)ctx);
   return slot ? (const ZkCost*)*slot : NULL;
}

void cp_zk_zero_part(void)
{
   UWord i;
   if (!M) return;
   for (i = 0; i < costs_of.map.capacity; i++)
      if (costs_of.map.keys[i] != 0)
         VG_(memset)(*(ZkCost**)cp_wordmap_value(&costs_of.map, i), 0,
                     sizeof(ZkCost));
}
