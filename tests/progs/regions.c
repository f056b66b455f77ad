/* cycprof.h's counts and regions, checked against lackey and callgrind.
 *   regions D [FILE]  D is 0 or 1: whether the counted call to work()
 *               runs; the difference of the two COUNT() reads goes to FILE
 *               as 8 raw bytes (a printf would cost more for longer
 *               numbers); every run, under every tool, writes it, so that
 *               all run the same code.
 * Then: 3 calls of outer() in region "outer", each with work() in the
 * nested region "inner"; an END of a region never opened; a region
 * left open at exit; a mismatched END. */
#include <fcntl.h>
#include <unistd.h>
#include "cycprof.h"

__attribute__((noinline)) void leaf(void)
{
   for (volatile int i = 0; i < 100; i++) {}
}

__attribute__((noinline)) void work(void)
{
   for (int i = 0; i < 10; i++) leaf();
}

__attribute__((noinline)) void outer(void)
{
   CYCPROF_REGION_BEGIN("inner");
   work();
   CYCPROF_REGION_END("inner");
   leaf();
}

__attribute__((noinline)) void mismatched(void)
{
   CYCPROF_REGION_BEGIN("a");
   CYCPROF_REGION_BEGIN("b");
   leaf();
   CYCPROF_REGION_END("a");   /* closes b too, with a warning */
}

int main(int argc, char** argv)
{
   int doit = argc > 1 ? argv[1][0] - '0' : 0;
   unsigned long long c[2], d;
   c[0] = CYCPROF_COUNT();
   if (doit) work();
   c[1] = CYCPROF_COUNT();
   d = c[1] - c[0];
   if (argc > 2) {
      int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0 || write(fd, &d, sizeof d) != sizeof d) return 2;
      close(fd);
   }
   for (int k = 0; k < 3; k++) {
      CYCPROF_REGION_BEGIN("outer");
      outer();
      CYCPROF_REGION_END("outer");
   }
   CYCPROF_REGION_END("never-opened");
   mismatched();
   CYCPROF_REGION_BEGIN("left-open");
   return 7;
}
