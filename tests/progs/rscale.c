/* Regions at scale: rscale N K
 * - K regions open-0 ... open-(K-1), nested, never closed;
 * - inside them, N regions of distinct names tx-0 ... tx-(N-1), each
 *   opened and closed once around one call of leaf(), so each costs the
 *   same: the call instruction and leaf() (the name is a memory operand
 *   of the request's asm, so no instruction of its own is counted);
 * - K times: a-I opened, b-I opened inside it, then a-I ended (closing
 *   b-I too);
 * - K ENDs of names never opened, never-0 ... never-(K-1).
 * leaf() runs only in the tx regions. */
#include <stdio.h>
#include <stdlib.h>
#include "cycprof.h"

__attribute__((noinline)) void leaf(void)
{
   for (volatile int i = 0; i < 100; i++) {}
}

int main(int argc, char** argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 1000;
   int k = argc > 2 ? atoi(argv[2]) : 25;
   char name[32], inner[32];
   for (int i = 0; i < k; i++) {
      snprintf(name, sizeof name, "open-%d", i);
      CYCPROF_REGION_BEGIN(name);
   }
   for (int i = 0; i < n; i++) {
      snprintf(name, sizeof name, "tx-%d", i);
      CYCPROF_REGION_BEGIN(name);
      leaf();
      CYCPROF_REGION_END(name);
   }
   for (int i = 0; i < k; i++) {
      snprintf(name, sizeof name, "a-%d", i);
      snprintf(inner, sizeof inner, "b-%d", i);
      CYCPROF_REGION_BEGIN(name);
      CYCPROF_REGION_BEGIN(inner);
      CYCPROF_REGION_END(name);
   }
   for (int i = 0; i < k; i++) {
      snprintf(name, sizeof name, "never-%d", i);
      CYCPROF_REGION_END(name);
   }
   return 0;
}
