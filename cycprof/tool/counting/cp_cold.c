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
/* Since the last sweep (cp_cold_region_closed). */
static ULong     carved_in_regions;
static Bool      region_closed;

static ColdStats stats;

/* 0 is no view's: a view made stands for the epoch it was made in. */
ULong cp_dense_epoch = 1;

static UInt (*owner_of)(const Context* ctx);
static void (*mark_live_contexts)(void);

/* The headers of the handles of no array: no calls, one call (handles
 * CP_NO_ARRAY and CP_NO_ARRAY_CALLED).  Both have no counters: the
 * second header stands where the first's counters would be. */
static DenseHeader no_array[2] __attribute__((aligned(8))) =
   { { .calls = 0 }, { .calls = 1 } };

void cp_cold_init(UInt (*owner)(const Context* ctx), void (*mark_live)(void))
{
   owner_of = owner;
   mark_live_contexts = mark_live;
   cp_densespace_fixed((ULong*)no_array);
}

/* The decoded copy cp_cold_view hands out, and whose it is (0: none). */
static UInt         view_of;
static ULong*       view;
static UInt         view_len, view_capacity;

static void remember_unpacked(Context* ctx)
{
   unpacked = cp_room_for_one("cp.cold.unpacked", unpacked, n_unpacked,
                              &unpacked_capacity, sizeof(Context*), 64);
   unpacked[n_unpacked++] = ctx;
}

/* A dense array has a hidden header before it (DenseHeader): its length,
 * the context's calls, and the packed copy it was unpacked from, whose
 * user it stays until packing it again (or zeroing it) says the copy is
 * no longer used (cp_packed.h). */
static DenseHeader* header_of(const Context* ctx)
{
   return cp_dense_header(cp_context_dense(ctx));
}

/* The words of an array of len counters and its header: at least one
 * counter, so that the counters' first word is in the header's chunk
 * (cp_densespace.h) even for none. */
static UInt words_for(UInt len)
{
   return CP_DENSE_HEADER_WORDS + (len < 1 ? 1 : len);
}

static void pack(Context* ctx)
{
   UInt copy, len = cp_context_dense_len(ctx);
   cp_owner_note_len(owner_of(ctx), len);
   copy = cp_packed_encode(cp_context_dense(ctx), len, header_of(ctx)->calls,
                           header_of(ctx)->unpacked_from);
   /* Made where a copy no longer used was, it may be where the one
    * decoded last was. */
   if (copy == view_of) view_of = 0;
   ctx->counters = copy;
   ctx->is_packed = True;
   stats.packed++;
}

/* Second chance: a context published since the last packing, or in a
 * live frame, keeps its counters dense until the next one (re-entered
 * callees would otherwise be unpacked again at once).  The kept arrays
 * move to the new space (cp_densespace.h): the current context's must be
 * published to the inline code (cp_dense) again, as the callers of
 * cp_context_cover do. */
static void pack_cold_contexts(Context* keep, ULong resident_bytes)
{
   UInt i, kept = 0;
   ULong kept_bytes = 0;
   cp_dense_views_stale();
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
         kept_bytes += (ULong)words_for(cp_context_dense_len(unpacked[i]))
                       * sizeof(ULong);
   carved_in_regions = 0;
   region_closed = False;
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
         UInt words = words_for(cp_context_dense_len(c));
         c->recently_used = False;
         c->counters = cp_densespace_keep(c->counters, words);
         unpacked[kept++] = c;
      } else {
         pack(c);
      }
   }
   cp_densespace_end_sweep(resident_bytes);
   n_unpacked = kept;
   kept_after_packing = cp_densespace_bytes();
   stats.sweeps++;
}

/* A sweep is due once the limit was carved, and half of it more since
 * the last sweep.  Without packing (--pack-cold-counters=0) there are no
 * sweeps to drop the old copies that growing leaves, so each goes back to
 * a list of its size at once. */
void cp_cold_grow(Context* ctx, UInt len)
{
   ULong limit = (ULong)cp_opts.pack_cold_kb << 10;
   UInt old_len = cp_context_dense_len(ctx);
   Bool first = !cp_context_has_array(ctx);
   UInt grown = limit ? cp_densespace_alloc(words_for(len))
                      : cp_densespace_alloc_sized(words_for(len));
   ULong* dense = cp_densespace_at(grown);
   ULong carved;
   tl_assert(len <= CP_OWNER_MAX_COUNTERS && len >= old_len);
   /* The header too: a new array's is that of no array. */
   VG_(memcpy)(cp_dense_header(dense), header_of(ctx),
               (CP_DENSE_HEADER_WORDS + old_len) * sizeof(ULong));
   VG_(memset)(dense + old_len, 0, (len - old_len) * sizeof(ULong));
   cp_dense_header(dense)->len = len;
   if (!limit && !first)
      cp_densespace_free_sized(ctx->counters, words_for(old_len));
   ctx->counters = grown;
   cp_dense_views_stale();
   if (first) remember_unpacked(ctx);
   if (ctx->in_region) carved_in_regions += words_for(len) * sizeof(ULong);
   carved = cp_densespace_bytes();
   /* The old chunks that stay resident: enough for the space to grow to
    * the next sweep's limit; after a sweep that closed regions brought,
    * to the sixteenth of it that brings the next one.  A closed region's
    * tree is cold: sweeping it soon keeps little dense (region-scale:
    * 54.8 MB at the peak, against 61.4 MB with a quarter and the whole
    * limit resident).  A sweep's cost is in the contexts it visits, the
    * dense ones, which such sweeps keep few. */
   if (limit && carved > limit && carved > kept_after_packing + limit / 2)
      pack_cold_contexts(ctx, limit);
   else if (limit && region_closed && carved_in_regions > limit / 16)
      pack_cold_contexts(ctx, limit / 16);
}

void cp_cold_drop_spare(void)
{
   cp_densespace_release_spare();
   /* Only sweeps read the list, and none comes after the final dump. */
   cp_heap_free(unpacked);
   unpacked = NULL;
   n_unpacked = unpacked_capacity = 0;
}

void cp_cold_region_closed(void)
{
   region_closed = True;
}

void cp_cold_unpack(Context* ctx)
{
   UInt copy = ctx->counters;
   UInt len = cp_packed_len(copy);
   UInt block = cp_densespace_alloc(words_for(len));
   ULong* dense = cp_densespace_at(block);
   cp_dense_header(dense)->calls = cp_packed_calls(copy);
   cp_dense_header(dense)->unpacked_from = copy;
   cp_dense_header(dense)->len = len;
   cp_packed_decode(copy, dense);
   ctx->counters = block;
   ctx->is_packed = False;
   cp_dense_views_stale();
   remember_unpacked(ctx);
   stats.unpacked++;
}

const ULong* cp_cold_view(const Context* ctx, UInt* len)
{
   if (!ctx->is_packed) {
      *len = cp_context_dense_len(ctx);
      return cp_context_dense(ctx);
   }
   if (view_of != ctx->counters) {
      view_len = cp_packed_len(ctx->counters);
      if (view_len > view_capacity) {
         view_capacity = view_len;
         view = cp_heap_realloc("cp.cold.view", view,
                             view_capacity * sizeof(ULong));
      }
      cp_packed_decode(ctx->counters, view);
      view_of = ctx->counters;
   }
   *len = view_len;
   return view;
}

void cp_cold_zero(Context* ctx)
{
   if (ctx->is_packed) {
      ctx->counters = cp_packed_zeroed(ctx->counters);
      view_of = 0;
   } else if (cp_context_has_array(ctx)) {
      VG_(memset)(cp_context_dense(ctx), 0,
                  cp_context_dense_len(ctx) * sizeof(ULong));
      header_of(ctx)->calls = 0;
   } else {
      ctx->counters = CP_NO_ARRAY;
   }
}

UInt cp_cold_calls(const Context* ctx)
{
   if (ctx->is_packed) return cp_packed_calls(ctx->counters);
   return header_of(ctx)->calls;
}

void cp_cold_stats(ColdStats* s)
{
   *s = stats;
   s->packed_bytes = cp_packed_bytes();
   s->released_bytes = cp_packed_released_bytes();
   s->copies = cp_packed_copies();
}
