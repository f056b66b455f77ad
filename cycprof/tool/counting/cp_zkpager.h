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
 * lengths, and its cell, the epoch in which all its code was last
 * fetched (cp_zk_epoch changes at each segment start). */
typedef struct {
   ULong*       cell;
   UInt         n_instrs;
   const Addr*  pc;
   const UChar* len;
} ZkBlock;

/* What the segment has left: threshold - reserved - paging - user.  The
 * inline code takes a run's instructions from it at the run's exit (the
 * helpers see it without the instructions of the run they are called
 * in), and a run that starts with less than it can take calls
 * cp_zk_enter_near: a segment closes before the instruction at which the
 * budget would be below 0 (executor.rs). */
extern Long  cp_zk_budget;
extern ULong cp_zk_epoch;
VG_REGPARM(1) void cp_zk_enter_near(const ZkBlock* b);

/* The helpers' block_near: the ZkBlock's address, | 1 in a run that
 * called cp_zk_enter_near. */
#define CP_ZK_NEAR 1u

/* A fetch site: instruction index_flags & CP_ZK_FETCH_INDEX of the block
 * reaches code pages the one before it did not; FIRST on the block's
 * first site, LAST on its last. */
#define CP_ZK_FETCH_INDEX 0xFFFFu
#define CP_ZK_FETCH_FIRST 0x10000u
#define CP_ZK_FETCH_LAST  0x20000u
VG_REGPARM(2) void cp_zk_fetch(UWord index_flags, UWord block_near);

/* Native 1 KiB blocks (each one guest page) known loaded, or loaded and
 * dirty, in this segment, direct-mapped: entry (tag << 40) | (block << 2)
 * | 1 when loaded, | 3 when dirty too, tag being cp_zk_known_tag, which
 * changes at each segment start (so no entry of an earlier segment
 * matches).  The inline code calls the access helpers only when its entry
 * does not say enough.  Blocks of user space stay below 2^38. */
#define CP_ZK_KNOWN_BITS 12
#define CP_ZK_BLOCK_SHIFT 10     /* log2 of the model's page_bytes */
#define CP_ZK_TAG_SHIFT 40
extern ULong cp_zk_known[1u << CP_ZK_KNOWN_BITS];
extern ULong cp_zk_known_tag;    /* the segment's tag, << CP_ZK_TAG_SHIFT */

/* Each data access of instruction index of the block. */
void cp_zk_on_load(Addr a, UWord size, UWord block_near, UWord index);
void cp_zk_on_store(Addr a, UWord size, UWord block_near, UWord index);

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
