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

/* Called every round of `cgreq N rounds`, so that main's call of bench
 * there is one superblock, toggled or not. */
__attribute__((noinline)) void toggle_if(int off)
{
   if (off) CALLGRIND_TOGGLE_COLLECT;
}

/* Collection toggled off and on again around calls that ran before, from
 * the same call site in the same context, into functions whose counters
 * already cover their code (the toggles' own code included, from the
 * round toggled before). */
static long rounds(int n)
{
   long s = 0;
   for (int round = 0; round < 8; round++) {
      toggle_if(round % 2);
      s += bench(n);
      toggle_if(round % 2);
   }
   return s;
}

int main(int argc, char** argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 1000;
   long a, b, c, d;
   if (argc > 2) {
      printf("%ld\n", rounds(n));
      return 0;
   }
   a = setup(n);
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
