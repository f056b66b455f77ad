/* A region open across fork(): parent and child each close it. */
#include <sys/wait.h>
#include <unistd.h>
#include "cycprof.h"

__attribute__((noinline)) void work(int n)
{
   for (volatile int i = 0; i < n; i++) {}
}

int main(void)
{
   pid_t pid;
   int status = 0;
   CYCPROF_REGION_BEGIN("across-fork");
   work(100);
   pid = fork();
   if (pid == 0) {
      CYCPROF_REGION_BEGIN("child-only");
      work(1000);
      CYCPROF_REGION_END("child-only");
      CYCPROF_REGION_END("across-fork");
      _exit(0);
   }
   waitpid(pid, &status, 0);
   work(50);
   CYCPROF_REGION_END("across-fork");
   return WEXITSTATUS(status);
}
