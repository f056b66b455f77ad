/* REPS times: driver() calls setjmp, recurses DEPTH deep in dive(), longjmps out
   of the bottom, then calls after_jump() (work that belongs to main->driver).
   argv[2] == "sig" uses sigsetjmp/siglongjmp instead. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#define DEPTH 40
volatile unsigned long sink;
static jmp_buf jb;
static sigjmp_buf sjb;
static int use_sig;
__attribute__((noinline)) void dive(int d) {
    sink += d;
    if (d > 0) dive(d - 1);
    else if (use_sig) siglongjmp(sjb, 1);
    else longjmp(jb, 1);
    sink++;
}
__attribute__((noinline)) void after_jump(void) {
    for (int i = 0; i < 25; i++) sink += i;
}
__attribute__((noinline)) void driver(void) {
    if (use_sig) {
        if (sigsetjmp(sjb, 1) == 0) dive(DEPTH);
        else after_jump();
    } else {
        if (setjmp(jb) == 0) dive(DEPTH);
        else after_jump();
    }
}
int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 5000;
    use_sig = argc > 2 && strcmp(argv[2], "sig") == 0;
    for (int i = 0; i < reps; i++) driver();
    return 0;
}
