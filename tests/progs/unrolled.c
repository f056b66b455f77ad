/* Small loops that VEX unrolls (cycprof/tool/counting/cp_sbinfo.h, CP_MAX_SB_INSTRS):
 * with --vex-iropt-unroll-thresh=400 the 40-nop body is repeated 8 times
 * and the 88-nop body 4 times, so one superblock holds over 255
 * instructions, and its side exits leave after more than 255 of them.
 * Four nops a line, so that a wrong instruction address shows as cost on
 * a wrong line.  An iteration count that is no multiple of 8 leaves by
 * the side exits too. */
#include <stdio.h>
#include <stdlib.h>
#define N4 __asm__ volatile("nop\n nop\n nop\n nop")
__attribute__((noinline)) void nops40(int n) {
    for (int i = 0; i < n; i++) {
        N4; N4;
        N4; N4;
        N4;
        N4; N4; N4;
        N4;
        N4;
    }
}
__attribute__((noinline)) void nops88(int n) {
    for (int i = 0; i < n; i++) {
        N4; N4; N4;
        N4;
        N4; N4;
        N4; N4; N4; N4;
        N4;
        N4; N4;
        N4; N4; N4;
        N4;
        N4; N4;
        N4;
        N4; N4;
    }
}
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1003;
    nops40(n);
    nops88(n);
    printf("%d\n", n);
    return 0;
}
