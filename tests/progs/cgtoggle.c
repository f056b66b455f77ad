/* Collection toggled off and on again around calls that ran before, from
 * the same call site in the same context, into functions whose counters
 * already cover all their code (the toggles' own code included, from the
 * round toggled before): what the tool read of those contexts before the
 * toggle must not make their run count after it. */
#include <stdio.h>
#include <stdlib.h>
#include <valgrind/callgrind.h>

__attribute__((noinline)) long leaf(long x) { return x * x + 1; }

__attribute__((noinline)) long work(int n)
{
   long s = 0;
   for (int i = 0; i < n; i++) s += leaf(i);
   return s;
}

/* Called every round, so that main's call of work is one superblock,
 * toggled or not. */
__attribute__((noinline)) void toggle_if(int off)
{
   if (off) CALLGRIND_TOGGLE_COLLECT;
}

int main(int argc, char** argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 100;
   long s = 0;
   for (int round = 0; round < 8; round++) {
      toggle_if(round % 2);
      s += work(n);
      toggle_if(round % 2);
   }
   printf("%ld\n", s);
   return 0;
}
