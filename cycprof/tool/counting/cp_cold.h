/* cycprof: packing the dense counters of contexts no thread is in.
 *
 * A context's dense counters are allocated when its frame first runs a
 * block of its function.  Once unpacked counters exceed a limit
 * (--pack-cold-counters), those of every context no live frame is in are
 * packed (cp_packed.h) and freed.  A packed context publishes no counters
 * (dense_len 0), so the first block its frame runs again calls the helper,
 * which unpacks them (cp_context_cover). */
#ifndef CP_COLD_H
#define CP_COLD_H

#include "cp_types.h"

/* What packing needs from above, given once before the first context:
 * the owner of a context's counters (cp_context_owner), and a step that
 * marks recently_used every context a live frame is in
 * (cp_callstack_mark_live_contexts). */
void cp_cold_init(UInt (*owner_of)(const Context* ctx),
                  void (*mark_live_contexts)(void));

/* Grows ctx's dense counters (not packed) to len, the new ones zero;
 * may pack other contexts, never ctx: it is being worked on. */
void cp_cold_grow(Context* ctx, UInt len);
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
