/* Built with -O2: ta() ends with a jmp to tb() (checked by objdump in the test).
   main calls ta() then tc(); tc must appear directly under main. */
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline, noclone)) int tb(int x) {
    for (int i = 0; i < 40; i++) sink += i;
    return x + (int)sink;
}
__attribute__((noinline, noclone)) int ta(int x) {
    sink += x;
    return tb(x * 3);
}
__attribute__((noinline, noclone)) int tc(int x) {
    for (int i = 0; i < 10; i++) sink += i;
    return x - 1;
}
int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 100, r = 0;
    for (int i = 0; i < reps; i++) {
        r += ta(i);
        r += tc(i);
    }
    sink = r;
    return 0;
}
