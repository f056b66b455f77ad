/* One call site that calls one function N times: the call count of that
 * arc is N. */
#include <stdlib.h>
volatile unsigned long v;
__attribute__((noinline)) void leaf(void) { v++; }
int main(int argc, char **argv) {
    long i, n = argc > 1 ? atol(argv[1]) : 100;
    for (i = 0; i < n; i++) leaf();
    return 0;
}
