/* Parent and forked child each read 8 bytes from getrandom and print them:
 * with --deterministic=yes each gets a stream of its own, the same on
 * every run. */
#include <stdio.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    unsigned long long v = 0;
    pid_t child = fork();
    if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v)
        return 1;
    printf("%s %016llx\n", child == 0 ? "child" : "parent", v);
    fflush(stdout);
    if (child > 0)
        waitpid(child, NULL, 0);
    return 0;
}
