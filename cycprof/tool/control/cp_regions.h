/* cycprof: named regions (CYCPROF_REGION_BEGIN/END, SP1's markers).
 *
 * Each thread has a stack of open regions.  A region's cost is the
 * difference of the thread's running count at its end and its begin;
 * its self cost leaves out the regions opened inside it.  Code run in a
 * set of open regions is counted in contexts of that set's own tree
 * (the frames from the one that opened it up, entered again from a graft
 * on the context below it: cp_context_graft), so the
 * profiles can label every sample with the regions it ran in. */
#ifndef CP_REGIONS_H
#define CP_REGIONS_H

#include "pub_tool_basics.h"

void cp_region_begin(ThreadId tid, const HChar* name);
void cp_region_end(ThreadId tid, const HChar* name);
void cp_regions_thread_created(ThreadId parent, ThreadId child);

/* Region sets: 1..count, each a region name inside a parent set
 * (0: outside every region). */
UInt         cp_region_set_count(void);
UInt         cp_region_set_parent(UInt set);
const HChar* cp_region_set_name(UInt set);
/* The id of the set's first graft context (cp_context_graft), the
 * lowest of its grafts'; 0: none yet, or set 0 (outside every region),
 * whose grafts are all found by where they hang. */
UInt         cp_region_set_first_graft(UInt set);

void  cp_regions_zero_part(void);
/* At exit: closes what is still open, then prints the warnings, one line
 * for each kind of misuse with its count. */
void  cp_regions_close_all(void);
/* Before the final dump: what only finding a region by its name needs. */
void  cp_regions_drop_run_only(void);
/* The table's costliest rows and a line counting the others. */
void  cp_regions_print(ULong total);
/* The rows since the last dump, as '# cycprof-region' comment lines. */
struct OutFile;
void  cp_regions_write_callgrind(struct OutFile* out);

#endif
