/* cycprof: what a program would cost in a zkVM.  Each model is one row of
 * a table (cp_zkmodel.c): the constants of the zkVM's own source at one
 * tag, and the switches of the rules they feed.  A later model (a newer
 * circuit, another zkVM) is a new row, not new code paths.
 * docs/zkvm.md says where each figure comes from. */
#ifndef CP_ZKMODEL_H
#define CP_ZKMODEL_H

#include "pub_tool_basics.h"

typedef struct {
   const HChar* name;            /* the value of --zk-model */
   const HChar* source;          /* repository, tag and files read */
   /* The guest's memory: pages under a binary Merkle tree. */
   UInt page_bytes;              /* platform.rs PAGE_BYTES */
   UInt addr_bits;               /* log2 of platform.rs MEMORY_BYTES */
   Addr user_start, user_end;    /* platform.rs USER_START/END_ADDR */
   /* Paging, charged when it happens (pager.rs). */
   UInt page_cycles;             /* a page's page-in, and its page-out */
   UInt node_cycles;             /* one Merkle ancestor's page-in or out */
   Bool fetch_loads;             /* instruction fetch is a load */
   Bool store_pages_in;          /* a store first pages in its page */
   Addr start_page;              /* paged in and out at each segment start */
   /* Segments (executor.rs, platform.rs, lib.rs). */
   UInt reserved_cycles;         /* platform.rs RESERVED_CYCLES */
   UInt reserved_paging_cycles;  /* the pager's count at each segment start */
   UInt max_insn_cycles;         /* lib.rs MAX_INSN_CYCLES, po2 >= lower_po2 */
   UInt max_insn_cycles_lower;   /* lib.rs MAX_INSN_CYCLES_LOWER_PO2 */
   UInt lower_po2;               /* below it, max_insn_cycles_lower */
   UInt po2_min, po2_max;        /* risc0-zkp MIN/MAX_CYCLES_PO2 */
   UInt po2_default;             /* DEFAULT_SEGMENT_LIMIT_PO2 */
} CpZkModel;

/* The model chosen by --zk-model, NULL for none (the default). */
extern const CpZkModel* cp_zk_model;
/* --zk-segment-po2: each segment's size is 2^po2 cycles; 0 until
 * cp_zk_check_options gives it the model's default. */
extern UInt cp_zk_po2;

/* --zk-model and --zk-segment-po2; False for any other option. */
Bool cp_zk_option(const HChar* arg);
/* After all options: a po2 outside the model's range, or one given
 * without a model, stops the run with one line naming the problem. */
void cp_zk_check_options(void);
void cp_zk_print_usage(void);

/* Levels of the Merkle tree above the pages: the most ancestors one page
 * can have to load or to mark dirty. */
UInt cp_zk_tree_depth(const CpZkModel* m);

/* The cost of the costliest single instruction at po2 (the margin a
 * segment keeps below 2^po2). */
UInt cp_zk_max_insn_cycles(const CpZkModel* m, UInt po2);

#endif
