/* Built -O2 -g: mix() and step() are static inline and get inlined into hot(). */
#include <stdlib.h>
volatile unsigned long sink;
static inline unsigned long mix(unsigned long x) { return (x ^ (x >> 7)) * 2654435761UL; }
static inline unsigned long step(unsigned long x, int i) { return mix(x + (unsigned long)i) + sink; }
__attribute__((noinline)) unsigned long hot(int n) {
    unsigned long x = 1;
    for (int i = 0; i < n; i++) x = step(x, i);
    return x;
}
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 5000;
    sink = hot(n);
    return 0;
}
