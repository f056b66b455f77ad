/* cycprof: event counts for --stats=yes, to see where helpers run. */
#ifndef CP_STATS_H
#define CP_STATS_H

#include "pub_tool_basics.h"

typedef struct {
   ULong calls;            /* cp_on_call */
   ULong call_site_misses; /*   its call site's cache held another context */
   ULong call_site_swaps;  /*     of which one it held before */
   ULong sp_rises;         /* cp_on_sp_rise */
   ULong block_entries;    /* cp_on_block_entry, for any of: */
   ULong function_entries; /*   a function entered other than by a call */
   ULong foreign_blocks;   /*   code run in another function's frame */
   ULong context_misses;   /*     its cached counters were another context's */
   ULong recent_hits;      /* misses found among recent contexts */
   ULong views;            /* contexts read to publish them (DenseView) */
   ULong cost_center_lookups;  /* misses that reached the hash table */
   ULong cost_centers;
   ULong probes;
   ULong edges;
} CpStats;

extern CpStats cp_stats;

#endif
