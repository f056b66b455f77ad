/* Regions opened from any stack keep their samples' whole stacks: rstacks
 * Each region is around calls of a function of its own (w1 ... w7), so
 * callgrind's inclusive cost of those calls is what its pprof samples
 * must hold:
 * - "shared" opened from two stacks: main > f1, and main > g > f2;
 * - "outer" around nest(), which opens "inner" around w3;
 * - "cross" opened in opener() and closed in closer(): w4 runs in main
 *   between the two, after the frame that opened it returned;
 * - "rec" opened at the bottom of a recursion (rec 3 deep), calling the
 *   recursive function again inside (w7 at its bottom);
 * - "thr" in each of two threads around w5;
 * - "kid" in a forked child around w6 (the parent waits for it). */
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cycprof.h"

#define NOINLINE __attribute__((noinline))

NOINLINE void leaf(void)
{
   for (volatile int i = 0; i < 50; i++) {}
}
NOINLINE void w1(void) { for (int i = 0; i < 3; i++) leaf(); }
NOINLINE void w2(void) { for (int i = 0; i < 4; i++) leaf(); }
NOINLINE void w3(void) { for (int i = 0; i < 5; i++) leaf(); }
NOINLINE void w4(void) { for (int i = 0; i < 6; i++) leaf(); }
NOINLINE void w5(void) { for (int i = 0; i < 7; i++) leaf(); }
NOINLINE void w6(void) { for (int i = 0; i < 8; i++) leaf(); }
NOINLINE void w7(void) { for (int i = 0; i < 9; i++) leaf(); }

NOINLINE void f1(void)
{
   CYCPROF_REGION_BEGIN("shared");
   w1();
   CYCPROF_REGION_END("shared");
}
NOINLINE void f2(void)
{
   CYCPROF_REGION_BEGIN("shared");
   w2();
   CYCPROF_REGION_END("shared");
}
NOINLINE void g(void) { f2(); }

NOINLINE void nest(void)
{
   CYCPROF_REGION_BEGIN("inner");
   w3();
   CYCPROF_REGION_END("inner");
}

NOINLINE void opener(void) { CYCPROF_REGION_BEGIN("cross"); }
NOINLINE void closer(void) { CYCPROF_REGION_END("cross"); }

NOINLINE void rec(int n, int open)
{
   if (n > 0) {
      rec(n - 1, open);
   } else if (open) {
      CYCPROF_REGION_BEGIN("rec");
      rec(2, 0);
      CYCPROF_REGION_END("rec");
   } else {
      w7();
   }
}

NOINLINE void* thread_main(void* arg)
{
   (void)arg;
   CYCPROF_REGION_BEGIN("thr");
   w5();
   CYCPROF_REGION_END("thr");
   return NULL;
}

int main(void)
{
   pthread_t t[2];
   pid_t child;
   f1();
   g();
   CYCPROF_REGION_BEGIN("outer");
   nest();
   CYCPROF_REGION_END("outer");
   opener();
   w4();
   closer();
   rec(3, 1);
   for (int i = 0; i < 2; i++) {
      pthread_create(&t[i], NULL, thread_main, NULL);
      pthread_join(t[i], NULL);
   }
   child = fork();
   if (child == 0) {
      CYCPROF_REGION_BEGIN("kid");
      w6();
      CYCPROF_REGION_END("kid");
      _exit(0);
   }
   waitpid(child, NULL, 0);
   return 0;
}
