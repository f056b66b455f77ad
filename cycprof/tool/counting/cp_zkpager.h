/* cycprof: the zkVM model at run time (--zk-model, cp_zkmodel.h): which
 * guest pages and Merkle nodes each segment has loaded and made dirty,
 * the paging each access costs, charged to the context it runs in, and
 * the segments the run is cut into.  The instrumented code calls the
 * helpers below only when a model is chosen (cp_instrument.c). */
#ifndef CP_ZKPAGER_H
#define CP_ZKPAGER_H

#include "pub_tool_basics.h"
#include "cp_types.h"

/* What the model charged to one context, beyond its instructions. */
typedef struct {
   ULong page_in;     /* [PageIn]: pages and nodes loaded */
   ULong page_out;    /* [PageOut]: pages and nodes made dirty */
   ULong segment;     /* reserved, padding and the segment-start paging
                       * of the segments that closed in this context */
} ZkCost;

/* After the options, when a model is chosen. */
void cp_zk_init(void);

/* A superblock's facts for the model: its instructions' places and
 * lengths (as many as it has), and its cell, the epoch in which all its code was last
 * fetched (cp_zk_epoch changes at each segment start). */
typedef struct {
   ULong*       cell;
   const Addr*  pc;
   const UChar* len;
} ZkBlock;

/* What the segment has left: threshold - reserved - paging - user.  The
 * inline code takes a run's instructions from it at the run's exit (the
 * helpers see it without the instructions of the run they are called
 * in), and a run that starts with less than it can take calls
 * cp_zk_enter as near: a segment closes before the instruction at which the
 * budget would be below 0 (executor.rs). */
extern Long  cp_zk_budget;
extern ULong cp_zk_epoch;

/* What the inline code tells the helpers in one word: the instruction's
 * index in the block, whether the run is near the segment's end (its
 * entry called cp_zk_enter with it), FIRST and LAST on the block's first
 * and last fetch sites, and an access's size. */
#define CP_ZK_INDEX      0xFFFFu
#define CP_ZK_NEAR_BIT   16
#define CP_ZK_NEAR       (1u << CP_ZK_NEAR_BIT)
#define CP_ZK_FIRST      (1u << 17)
#define CP_ZK_LAST       (1u << 18)
#define CP_ZK_SIZE_SHIFT 20

/* A run's entry, when it is near the segment's end or its block's code
 * is not known loaded in this segment: settles the run before if it was
 * near, and fetches the first instruction. */
VG_REGPARM(2) void cp_zk_enter(const ZkBlock* b, UWord word);
/* A later fetch site: an instruction that reaches code pages the one
 * before it did not, while the block's code is not known loaded. */
VG_REGPARM(2) void cp_zk_fetch(const ZkBlock* b, UWord word);

/* Native 1 KiB blocks (each one guest page) known loaded, or loaded and
 * dirty, in this segment, direct-mapped: entry tag | (the block's first
 * address) | 1 when loaded, | 3 when dirty too, tag being
 * cp_zk_known_tag, which changes at each segment start (so no entry of
 * an earlier segment matches).  The inline code calls the access helpers
 * only when the entry of the access's first block does not say enough
 * for its last block (so an access that spans two calls).  User space
 * stays below 2^48 (amd64, arm64), tags are multiples of 2^48 below 2^63,
 * and an address above (the vsyscall page) has bit 63 too: a run near the
 * segment's end sets bit 63 in what it looks for, so that all its
 * accesses call. */
#define CP_ZK_KNOWN_BITS 12
#define CP_ZK_BLOCK_SHIFT 10     /* log2 of the model's page_bytes */
#define CP_ZK_TAG_SHIFT 48
extern ULong* cp_zk_known;   /* [1 << CP_ZK_KNOWN_BITS], with the model */
extern ULong cp_zk_known_tag;    /* the segment's tag, << CP_ZK_TAG_SHIFT */

/* Each data access. */
VG_REGPARM(2) void cp_zk_on_load(Addr a, UWord word);
VG_REGPARM(2) void cp_zk_on_store(Addr a, UWord word);

/* At exit: closes the last segment (padded to a power of two) and prints
 * the per-segment table in the Valgrind log. */
void cp_zk_finish(void);

/* Calls line(arg, text) for each line of the segment table (after
 * cp_zk_finish), for the callgrind file's desc: lines. */
void cp_zk_table_lines(void (*line)(void* arg, const HChar* text), void* arg);

/* After a part of the profile is written (a dump request): the next
 * part starts its model costs from 0, as its instruction counts. */
void cp_zk_zero_part(void);

/* The model's costs charged to ctx; NULL when none. */
const ZkCost* cp_zk_cost_of(const Context* ctx);

#endif
