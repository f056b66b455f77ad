/* A region opened at the end of a chain of tail calls.  Built with -O2:
 * first() ends in `jmp hop` and hop() in `jmp land`, so hop's frame and
 * land's share first's return slot, and all three stay active until it
 * returns (docs/attribution.md).  land() runs once outside any region and
 * once inside region "tail", opened in land itself: the region's tree must
 * hold the same chain, main -> first -> hop -> land, as the rest of the
 * run does. */
#include <stdio.h>
#include "cycprof.h"

volatile unsigned long sink;

__attribute__((noinline)) void work(int n)
{
   for (int i = 0; i < n; i++) sink += i;
}

__attribute__((noinline)) void land(int in_region)
{
   if (in_region) CYCPROF_REGION_BEGIN("tail");
   work(1000);
   if (in_region) CYCPROF_REGION_END("tail");
}

__attribute__((noinline)) void hop(int in_region)
{
   work(10);
   land(in_region);
}

__attribute__((noinline)) void first(int in_region)
{
   work(20);
   hop(in_region);
}

int main(void)
{
   first(0);
   first(1);
   printf("%lu\n", sink);
   return 0;
}
