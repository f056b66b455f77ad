/* A gungraun-style harness: callgrind's requests around one benchmark
 * function; the same binary runs under callgrind and under cycprof. */
#include <stdio.h>
#include <stdlib.h>
#include <valgrind/callgrind.h>

__attribute__((noinline)) long leaf(long x) { return x * x + 1; }

__attribute__((noinline)) long bench(int n)
{
   long s = 0;
   for (int i = 0; i < n; i++) s += leaf(i);
   return s;
}

__attribute__((noinline)) long setup(int n)
{
   long s = 0;
   for (int i = 0; i < n; i++) s ^= leaf(i) * 3;
   return s;
}

int main(int argc, char** argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 1000;
   long a = setup(n), b, c, d;
   CALLGRIND_START_INSTRUMENTATION;
   CALLGRIND_ZERO_STATS;
   b = bench(n);
   CALLGRIND_STOP_INSTRUMENTATION;
   c = setup(n);
   CALLGRIND_TOGGLE_COLLECT;
   d = bench(7);
   CALLGRIND_TOGGLE_COLLECT;
   printf("%ld\n", a + b + c + d);
   return 0;
}
