/* cycprof: numbered dumps and zeroing. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "cp_context.h"
#include "cp_counters.h"
#include "cp_dump.h"
#include "cp_parts.h"
#include "cp_regions.h"

static UInt   part = 1;
static ULong  dumped;
static const HChar* trigger = "Program termination";

UInt cp_parts_number(void)          { return part; }
const HChar* cp_parts_trigger(void) { return trigger; }
ULong cp_parts_dumped_total(void)   { return dumped; }

void cp_parts_final(void)
{
   trigger = "Program termination";
}

void cp_parts_zero(void)
{
   UInt id, n = cp_context_count();
   for (id = 1; id <= n; id++) cp_context_zero(cp_context_by_id(id));
   cp_regions_zero_part();
}

void cp_parts_dump(const HChar* why)
{
   HChar suffix[16];
   VG_(snprintf)(suffix, sizeof suffix, ".%u", part);
   trigger = why;
   dumped += cp_dump_files(suffix);
   trigger = "Program termination";
   part++;
   cp_parts_zero();
}
