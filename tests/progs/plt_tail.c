/* Reaches libfn (in libpltlib.so, lazily bound) by a tail jump through the
 * PLT N times: built with -O2, via() ends in `jmp libfn@plt` (arm64:
 * `b libfn@plt`), so the first jump runs the resolver, which then jumps on
 * to libfn. */
#include <stdlib.h>
int libfn(int x);
volatile int out;
__attribute__((noinline)) int via(int x) { return libfn(x + 1); }
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1000, r = 0;
    for (int i = 0; i < n; i++) r += via(i);
    out = r;
    return 0;
}
