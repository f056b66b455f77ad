/* A straight run of code over 255 bytes (20 stores of 64-bit constants,
 * 17 bytes each on x86-64): its superblock keeps whole instruction
 * addresses (cycprof/tool/counting/cp_sbinfo.h).  One statement a line, so that a
 * wrong address shows as cost on a wrong line. */
#include <stdlib.h>
volatile unsigned long v;
__attribute__((noinline)) void longrun(void) {
    v = 0x1111111111111111UL;
    v = 0x2222222222222232UL;
    v = 0x3333333333333313UL;
    v = 0x4444444444444474UL;
    v = 0x5555555555555515UL;
    v = 0x6666666666666636UL;
    v = 0x7777777777777717UL;
    v = 0x88888888888888f8UL;
    v = 0x9999999999999919UL;
    v = 0xaaaaaaaaaaaaaa3aUL;
    v = 0xbbbbbbbbbbbbbb1bUL;
    v = 0xcccccccccccccc7cUL;
    v = 0xdddddddddddddd1dUL;
    v = 0xeeeeeeeeeeeeee3eUL;
    v = 0xffffffffffffff1fUL;
    v = 0x11111111111111e1UL;
    v = 0x2222222222222322UL;
    v = 0x3333333333333223UL;
    v = 0x4444444444444564UL;
    v = 0x5555555555555465UL;
}
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100;
    for (int i = 0; i < n; i++) longrun();
    return 0;
}
