/* forkexec ROLEFILE [exec]: fork; the child runs child_work() (or execs /bin/echo when
   "exec" is given), the parent runs parent_work(); both write "role pid" lines to ROLEFILE (the pid zero-padded to 10 digits). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
volatile unsigned long sink;
__attribute__((noinline)) void child_work(void) { for (int i = 0; i < 3000; i++) sink += i; }
__attribute__((noinline)) void parent_work(void) { for (int i = 0; i < 5000; i++) sink += i; }
/* The pid is written as 10 digits by a loop of fixed length: printf's cost
   grows with the number of digits, so a pid of 3 digits in one run and of 5 in
   another (pids wrap at pid_max) made the two runs' totals differ. */
static void note(const char *file, const char *role) {
    char pid[11];
    unsigned v = (unsigned)getpid();
    for (int i = 9; i >= 0; i--, v /= 10) pid[i] = (char)('0' + v % 10);
    pid[10] = 0;
    FILE *f = fopen(file, "a");
    if (!f) exit(9);
    fprintf(f, "%s %s\n", role, pid);
    fclose(f);
}
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    int do_exec = argc > 2 && strcmp(argv[2], "exec") == 0;
    note(argv[1], "parent");
    fflush(0);
    pid_t p = fork();
    if (p < 0) return 3;
    if (p == 0) {
        note(argv[1], "child");
        if (do_exec) {
            execl("/bin/echo", "echo", "hello", "from", "echo", (char *)0);
            _exit(4);
        }
        child_work();
        _exit(0);
    }
    int st;
    waitpid(p, &st, 0);
    parent_work();
    return WIFEXITED(st) ? WEXITSTATUS(st) : 5;
}
