/* forkn N: N children, each doing a different amount of work, all exiting
 * at about the same time; the parent waits for them. Under the tool every
 * process writes its profiles at exit, all under one output name. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void work(int units)
{
    for (int i = 0; i < units * 1000; i++)
        sink += (unsigned long)i;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8;
    for (int i = 1; i <= n; i++) {
        if (fork() == 0) {
            work(i);
            _exit(0);
        }
    }
    while (wait(NULL) > 0)
        ;
    work(n + 1);
    return 0;
}
