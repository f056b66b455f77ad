/* Regions across dumps: each part's region rows count what ran in it.
 * Part 1: "r" once; part 2: "r" once and "s" once; the last part: "s"
 * once. */
#include <stdio.h>
#include <valgrind/callgrind.h>
#include "cycprof.h"

__attribute__((noinline)) long work(int n)
{
   long s = 0;
   for (int i = 0; i < n; i++) s += i * i;
   return s;
}

int main(void)
{
   long s = 0;
   CYCPROF_REGION_BEGIN("r");
   s += work(100);
   CYCPROF_REGION_END("r");
   CALLGRIND_DUMP_STATS;
   CYCPROF_REGION_BEGIN("r");
   s += work(200);
   CYCPROF_REGION_END("r");
   CYCPROF_REGION_BEGIN("s");
   s += work(300);
   CYCPROF_REGION_END("s");
   CALLGRIND_DUMP_STATS;
   CYCPROF_REGION_BEGIN("s");
   s += work(400);
   CYCPROF_REGION_END("s");
   printf("%ld\n", s);
   return 0;
}
