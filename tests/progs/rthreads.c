/* Regions in threads: each of 4 threads runs work() 5 times, each time
 * inside region "work"; the main thread opens region "main" around the
 * whole, which must not include the other threads' instructions. */
#include <pthread.h>
#include "cycprof.h"

__attribute__((noinline)) void work(void)
{
   for (volatile int i = 0; i < 1000; i++) {}
}

static void* worker(void* arg)
{
   (void)arg;
   for (int k = 0; k < 5; k++) {
      CYCPROF_REGION_BEGIN("work");
      work();
      CYCPROF_REGION_END("work");
   }
   return 0;
}

int main(void)
{
   pthread_t t[4];
   CYCPROF_REGION_BEGIN("main");
   for (int i = 0; i < 4; i++) pthread_create(&t[i], 0, worker, 0);
   for (int i = 0; i < 4; i++) pthread_join(t[i], 0);
   work();
   CYCPROF_REGION_END("main");
   return 0;
}
