/* Dumps during the run: two numbered parts, then the final one. */
#include <stdio.h>
#include <valgrind/callgrind.h>

__attribute__((noinline)) long work(int n)
{
   long s = 0;
   for (int i = 0; i < n; i++) s += i * i;
   return s;
}

int main(void)
{
   long s = work(100);
   CALLGRIND_DUMP_STATS_AT("after first work");
   s += work(200);
   CALLGRIND_DUMP_STATS;
   s += work(300);
   printf("%ld\n", s);
   return 0;
}
