/* cycprof: memory for the tables the run reads at random, on huge pages.
 *
 * Contexts by id, the table of children, call sites, cost centers and
 * counter arrays spread over hundreds of MB on a compiler (cc1plus: 4 M
 * contexts), and the run reads them at random.  With 4 KiB pages nearly
 * every such read also misses the TLB, and under a hypervisor the page
 * walk costs as much as the read.  Linux backs a range advised with
 * MADV_HUGEPAGE with 2 MiB pages when
 * /sys/kernel/mm/transparent_hugepage/enabled says "madvise" (Debian's
 * default) or "always".  Where it says "never", or the kernel refuses
 * the advice, the memory is the same memory on small pages. */
#ifndef CP_HUGEMEM_H
#define CP_HUGEMEM_H

#include "pub_tool_basics.h"

/* bytes of zeroed memory that is never given back: carved from slabs
 * aligned to 2 MiB and advised to use huge pages. */
void* cp_hugemem_carve(SizeT bytes);

/* bytes of zeroed memory for a table that is freed whole: aligned to
 * 2 MiB and advised when it spans a huge page, else to a cache line.
 * VG_(free)(*block) gives it back. */
void* cp_hugemem_table(const HChar* cost_centre, SizeT bytes, void** block);

#endif
