/* cycprof: memory for the tables the run reads at random, on huge pages.
 *
 * Contexts by id, the table of children, call sites, cost centers and
 * counter arrays spread over hundreds of MB on a compiler (cc1plus: 4 M
 * contexts), and the run reads them at random.  With 4 KiB pages nearly
 * every such read also misses the TLB, and under a hypervisor the page
 * walk costs as much as the read.  So once the tables hold 64 MiB and the
 * run has lasted 2 s, their memory is made of 2 MiB pages with
 * madvise(MADV_COLLAPSE) as it is carved (Linux 6.1 and later; the
 * setting "never" in /sys/kernel/mm/transparent_hugepage/enabled refuses
 * it).  Where the kernel refuses, the memory is the same memory on small
 * pages.
 *
 * The program reads the mappings too: glibc's pthread_getattr_np parses
 * /proc/self/maps (every Rust program does at start-up), and every line
 * costs instructions.  None of this adds a line (cp_hugemem.c,
 * docs/internals/memory.md). */
#ifndef CP_HUGEMEM_H
#define CP_HUGEMEM_H

#include "pub_tool_basics.h"

/* bytes of zeroed memory that is never given back: carved from one
 * reservation of address space (cp_hugemem.c), on huge pages once the
 * tables are past start-up; first from the gap below the last table
 * aligned to a huge page. */
void* cp_hugemem_carve(SizeT bytes);

/* The same, starting on a huge page: for a table that lives as long as
 * the tool. */
void* cp_hugemem_carve_aligned(SizeT bytes);

/* The same, aligned to align (a power of two): the heap's (cp_heap.c). */
void* cp_hugemem_carve_at(SizeT bytes, UWord align);

/* Whether p lies in memory carved here. */
Bool cp_hugemem_owns(const void* p);

/* bytes of zeroed memory for a table that is freed whole: aligned to
 * 2 MiB when it spans a huge page, else to a cache line.
 * cp_hugemem_table_free gives its pages back. */
void* cp_hugemem_table(const HChar* cost_centre, SizeT bytes);
void  cp_hugemem_table_free(void* table);

#endif
