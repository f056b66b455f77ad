/* victim_usr1() raises SIGUSR1 with raise(); victim_alrm() sends SIGALRM with
   kill(getpid()). Each handler calls its own work function. After the signal each
   victim calls its own after_* function (work under main->victim_*->after_*).
   jumper() (REPS times) raises SIGUSR2 whose handler siglongjmps back into jumper,
   which then calls jumper_after(). */
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
volatile unsigned long sink;
static sigjmp_buf env;
__attribute__((noinline)) void usr1_work(void) { for (int i = 0; i < 100; i++) sink += i; }
__attribute__((noinline)) void alrm_work(void) { for (int i = 0; i < 200; i++) sink += i; }
__attribute__((noinline)) void usr2_work(void) { for (int i = 0; i < 10; i++) sink += i; }
__attribute__((noinline)) void on_usr1(int sig) { (void)sig; usr1_work(); }
__attribute__((noinline)) void on_alrm(int sig) { (void)sig; alrm_work(); }
__attribute__((noinline)) void on_usr2(int sig) { (void)sig; usr2_work(); siglongjmp(env, 1); }
__attribute__((noinline)) void after_usr1(void) { for (int i = 0; i < 50; i++) sink += i; }
__attribute__((noinline)) void after_alrm(void) { for (int i = 0; i < 70; i++) sink += i; }
__attribute__((noinline)) void victim_usr1(void) { sink++; raise(SIGUSR1); after_usr1(); }
__attribute__((noinline)) void victim_alrm(void) { sink++; kill(getpid(), SIGALRM); after_alrm(); }
__attribute__((noinline)) void jumper_after(void) { for (int i = 0; i < 20; i++) sink += i; }
__attribute__((noinline)) void jumper(void) {
    if (sigsetjmp(env, 1) == 0) raise(SIGUSR2);
    else jumper_after();
}
int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 1000;
    struct sigaction sa = {0};
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_usr1; sigaction(SIGUSR1, &sa, 0);
    sa.sa_handler = on_alrm; sigaction(SIGALRM, &sa, 0);
    sa.sa_handler = on_usr2; sigaction(SIGUSR2, &sa, 0);
    for (int i = 0; i < 10; i++) { victim_usr1(); victim_alrm(); }
    for (int i = 0; i < reps; i++) jumper();
    return 0;
}
