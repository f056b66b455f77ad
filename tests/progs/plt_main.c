/* Calls libfn (in libpltlib.so, lazily bound through the PLT) N times. */
#include <stdlib.h>
int libfn(int x);
volatile int out;
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1000, r = 0;
    for (int i = 0; i < n; i++) r += libfn(i);
    out = r;
    return 0;
}
