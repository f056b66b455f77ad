/* cycprof: packing the dense counters of contexts no thread is in
 * (cp_cold.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_array.h"
#include "cp_cold.h"
#include "cp_heap.h"
#include "cp_options.h"
#include "cp_owners.h"
#include "cp_densespace.h"
#include "cp_packed.h"

/* The contexts whose counters are dense. */
static Context** unpacked;
static UInt      n_unpacked, unpacked_capacity;
/* What stayed dense after the last packing.  Packing again only once
 * half the limit was carved since keeps its cost proportional to the
 * allocations, even when more than the limit is in use. */
static ULong     kept_after_packing;

static ColdStats stats;

static UInt (*owner_of)(const Context* ctx);
static void (*mark_live_contexts)(void);

void cp_cold_init(UInt (*owner)(const Context* ctx), void (*mark_live)(void))
{
   owner_of = owner;
   mark_live_contexts = mark_live;
}

/* The decoded copy cp_cold_view hands out, and whose it is. */
static const UChar* view_of;
static ULong*       view;
static UInt         view_len, view_capacity;

static void remember_unpacked(Context* ctx)
{
   unpacked = cp_room_for_one("cp.cold.unpacked", unpacked, n_unpacked,
                              &unpacked_capacity, sizeof(Context*), 64);
   unpacked[n_unpacked++] = ctx;
}

/* A dense array has a hidden word before it: the packed copy it was
 * unpacked from, whose user it stays until packing it again (or zeroing
 * it) says the copy is no longer used (cp_packed.h). */
static ULong* dense_block(const Context* ctx)
{
   return ctx->dense - 1;
}

static UChar* old_copy(const Context* ctx)
{
   return (UChar*)(UWord)dense_block(ctx)[0];
}

static void pack(Context* ctx)
{
   UChar* copy;
   cp_owner_note_len(owner_of(ctx), ctx->dense_len);
   copy = cp_packed_encode(ctx->dense, ctx->dense_len, old_copy(ctx));
   /* Made where a copy no longer used was, it may be where the one
    * decoded last was. */
   if (copy == view_of) view_of = NULL;
   ctx->packed = copy;
   ctx->dense_len = 0;
   ctx->is_packed = True;
   stats.packed++;
}

/* Second chance: a context published since the last packing, or in a
 * live frame, keeps its counters dense until the next one (re-entered
 * callees would otherwise be unpacked again at once).  The kept arrays
 * move to the new space (cp_densespace.h): the current context's must be
 * published to the inline code (cp_dense) again, as the callers of
 * cp_context_cover do. */
static void pack_cold_contexts(Context* keep)
{
   UInt i, kept = 0;
   ULong kept_bytes = 0;
   mark_live_contexts();
   cp_cur_ctx->recently_used = True;
   keep->recently_used = True;
   /* The kept arrays are copied while the old chunks still hold them: a
    * sweep that would copy more than it frees (every context still hot,
    * as a run of many small region sets' trees is) raises the peak by
    * the copies and gives back little.  It only starts the second
    * chance's next round then; old copies that growing left count as
    * freed, so they still bring a sweep. */
   for (i = 0; i < n_unpacked; i++)
      if (unpacked[i]->recently_used)
         kept_bytes += (ULong)(unpacked[i]->dense_len + 1) * sizeof(ULong);
   if (2 * kept_bytes > cp_densespace_bytes()) {
      for (i = 0; i < n_unpacked; i++) unpacked[i]->recently_used = False;
      kept_after_packing = cp_densespace_bytes();
      stats.sweeps_skipped++;
      return;
   }
   cp_densespace_begin_sweep();
   for (i = 0; i < n_unpacked; i++) {
      Context* c = unpacked[i];
      if (c->recently_used) {
         c->recently_used = False;
         c->dense = cp_densespace_keep(dense_block(c), c->dense_len + 1) + 1;
         unpacked[kept++] = c;
      } else {
         pack(c);
      }
   }
   cp_densespace_end_sweep();
   n_unpacked = kept;
   kept_after_packing = cp_densespace_bytes();
   stats.sweeps++;
}

/* With packing on, the arrays live in cp_densespace.h's chunks, whose
 * sweeps drop the old copies that growing leaves.  Without packing
 * (--pack-cold-counters=0) nothing would drop them: Valgrind's allocator
 * keeps the arrays then. */
static ULong* grow_in_space(const ULong* block, UInt old_words, UInt words)
{
   ULong* grown = cp_densespace_alloc(words);
   if (block) VG_(memcpy)(grown, block, old_words * sizeof(ULong));
   return grown;
}

void cp_cold_grow(Context* ctx, UInt len)
{
   ULong limit = (ULong)cp_opts.pack_cold_kb << 10;
   UInt old_len = ctx->dense_len;
   ULong* block = old_len ? dense_block(ctx) : NULL;
   ULong carved;
   tl_assert(len <= CP_OWNER_MAX_COUNTERS);
   block = limit ? grow_in_space(block, old_len + 1, len + 1)
                 : cp_heap_realloc("cp.ctx.dense", block,
                                (len + 1) * sizeof(ULong));
   if (old_len == 0) block[0] = 0;   /* no packed copy yet */
   ctx->dense = block + 1;
   VG_(memset)(ctx->dense + old_len, 0, (len - old_len) * sizeof(ULong));
   ctx->dense_len = len;
   if (old_len == 0) remember_unpacked(ctx);
   carved = cp_densespace_bytes();
   if (limit && carved > limit && carved > kept_after_packing + limit / 2)
      pack_cold_contexts(ctx);
}

void cp_cold_unpack(Context* ctx)
{
   UChar* copy = ctx->packed;
   UInt len = cp_packed_len(copy);
   ULong* block = cp_densespace_alloc(len + 1);
   block[0] = (UWord)copy;
   ctx->dense = block + 1;
   cp_packed_decode(copy, ctx->dense);
   ctx->dense_len = len;
   ctx->is_packed = False;
   remember_unpacked(ctx);
   stats.unpacked++;
}

const ULong* cp_cold_view(const Context* ctx, UInt* len)
{
   if (!ctx->is_packed) {
      *len = ctx->dense_len;
      return ctx->dense;
   }
   if (view_of != ctx->packed) {
      view_len = cp_packed_len(ctx->packed);
      if (view_len > view_capacity) {
         view_capacity = view_len;
         view = cp_heap_realloc("cp.cold.view", view,
                             view_capacity * sizeof(ULong));
      }
      cp_packed_decode(ctx->packed, view);
      view_of = ctx->packed;
   }
   *len = view_len;
   return view;
}

void cp_cold_zero(Context* ctx)
{
   if (ctx->is_packed) {
      ctx->packed = cp_packed_zeroed(ctx->packed);
      view_of = NULL;
   } else if (ctx->dense) {
      VG_(memset)(ctx->dense, 0, ctx->dense_len * sizeof(ULong));
   }
}

void cp_cold_stats(ColdStats* s)
{
   *s = stats;
   s->packed_bytes = cp_packed_bytes();
   s->released_bytes = cp_packed_released_bytes();
   s->copies = cp_packed_copies();
}
