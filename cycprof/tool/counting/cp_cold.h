/* cycprof: packing the dense counters of contexts no thread is in.
 *
 * A context's dense counters are allocated when its frame first runs a
 * block of its function.  Once unpacked counters exceed a limit
 * (--pack-cold-counters), those of every context no live frame is in are
 * packed (cp_packed.h) and freed.  A packed context publishes no counters
 * (a length of 0), so the first block its frame runs again calls the helper,
 * which unpacks them (cp_context_cover). */
#ifndef CP_COLD_H
#define CP_COLD_H

#include "cp_densespace.h"
#include "cp_types.h"

/* The header before a context's dense array (CP_DENSE_HEADER_WORDS):
 * how many counters it has (the inline code's limit, cp_context.h), how
 * often a frame entered the context (low 32 bits: cp_context_calls), and
 * the packed copy the array was unpacked from (cp_cold.c).  A context
 * entered a second time has an array (given then, or unpacked then);
 * until then one of two handles of no array stands for its calls, and
 * reads a length of 0, as a packed context does. */
typedef struct {
   UInt calls;
   UInt unpacked_from;   /* cp_packed.h; 0: none */
   UInt len;
   UInt unused;          /* the counters after it are 8-byte aligned */
} DenseHeader;
STATIC_ASSERT(sizeof(DenseHeader) == CP_DENSE_HEADER_WORDS * sizeof(ULong));
#define CP_NO_ARRAY         0   /* no calls yet (and none while packed) */
#define CP_NO_ARRAY_CALLED  CP_DENSE_HEADER_WORDS   /* one call: the
                                                     * second fixed header */

static inline Bool cp_context_has_array(const Context* ctx)
{
   return !ctx->is_packed && ctx->counters > CP_NO_ARRAY_CALLED;
}

static inline DenseHeader* cp_dense_header(ULong* dense)
{
   return (DenseHeader*)(dense - CP_DENSE_HEADER_WORDS);
}

/* ctx's dense counters: none (a length of 0) while they are packed. */
static inline ULong* cp_context_dense(const Context* ctx)
{
   return cp_densespace_at(ctx->is_packed ? CP_NO_ARRAY : ctx->counters);
}

/* How many dense counters ctx has: 0 while packed. */
static inline UInt cp_context_dense_len(const Context* ctx)
{
   return cp_dense_header(cp_context_dense(ctx))->len;
}

/* Advances whenever any context's counters change place or length
 * (grown, packed, unpacked, moved by a sweep), at every packing, which
 * forgets what was published since the last, and when collection is
 * switched: what was read of a context's counters before (cp_context.h's
 * DenseView) must be read again.  64 bits never wrap. */
extern ULong cp_dense_epoch;
static inline void cp_dense_views_stale(void)
{
   cp_dense_epoch++;
}

/* The low 32 bits of ctx's calls. */
UInt cp_cold_calls(const Context* ctx);

/* What packing needs from above, given once before the first context:
 * the owner of a context's counters (cp_context_owner), and a step that
 * marks recently_used every context a live frame is in
 * (cp_callstack_mark_live_contexts). */
void cp_cold_init(UInt (*owner_of)(const Context* ctx),
                  void (*mark_live_contexts)(void));

/* Grows ctx's dense counters (not packed; none yet is an array of 0) to
 * len, the new ones zero; may pack other contexts, never ctx: it is being
 * worked on. */
void cp_cold_grow(Context* ctx, UInt len);
/* A region was closed.  The arrays its set's tree took are cold unless
 * the name opens again: once regions have closed and contexts in regions
 * took a sixteenth of the limit since the last sweep, a sweep is due (a
 * harness that opens a region per transaction never reaches the limit),
 * which leaves no more than that sixteenth of old chunks resident. */
void cp_cold_region_closed(void);
/* No array grows any more: the spare chunks of dense counters give their
 * pages back, and the list of unpacked contexts, which only sweeps read,
 * is freed. */
void cp_cold_drop_spare(void);
/* Makes a packed ctx's counters dense again. */
void cp_cold_unpack(Context* ctx);
/* ctx's dense counters to read: its own, or for a packed context a
 * decoded copy that stays valid until another packed context is read.
 * *len is how many. */
const ULong* cp_cold_view(const Context* ctx, UInt* len);
/* Zeroes ctx's counters, packed or not. */
void cp_cold_zero(Context* ctx);

/* For --stats=yes. */
typedef struct {
   ULong sweeps, sweeps_skipped, packed, unpacked;
   ULong packed_bytes, released_bytes, copies;   /* copies: distinct,
                                                   * in use */
} ColdStats;
void cp_cold_stats(ColdStats* s);

#endif
