/* cycprof: the part being written (cp_parts.h). */
#include "pub_tool_basics.h"
#include "cp_parts.h"

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

void cp_parts_begin(const HChar* why)
{
   trigger = why;
}

void cp_parts_end(ULong total)
{
   dumped += total;
   trigger = "Program termination";
   part++;
}
