/* A loop of tail calls: built with -O2, drop() ends in `jmp step` and
 * step() in `jmp drop` (a release that releases its owner, as CPython's
 * deallocators do through Py_DECREF).  Both stay active until the shared
 * return slot returns, so step's inclusive cost holds the drop after it. */
#include <stdio.h>
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void work(int n) { for (int i = 0; i < n; i++) sink += i; }
void drop(int d);
__attribute__((noinline)) void step(int d) { work(100); if (d > 0) drop(d - 1); }
__attribute__((noinline)) void drop(int d) { work(1000); step(d); }
int main(int argc, char **argv) {
    int n = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 10;   /* not atoi: inlined from stdlib.h, it would make main two rows in the report */
    for (int i = 0; i < n; i++) drop(3);
    printf("%lu\n", sink);
    return 0;
}
