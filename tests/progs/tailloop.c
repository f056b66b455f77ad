/* A loop of tail calls: built with -O2, drop() ends in `jmp step` and
 * step() in `jmp drop` (a release that releases its owner, as CPython's
 * deallocators do through Py_DECREF); enter() reaches the loop by a tail
 * jump too, so every frame of the loop shares the return slot of enter's
 * call.  All of them stay active until that slot returns, so step's
 * inclusive cost holds the drops after it.  Usage: tailloop [N [DEPTH]]. */
#include <stdio.h>
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void work(int n) { for (int i = 0; i < n; i++) sink += i; }
void drop(int d);
__attribute__((noinline)) void step(int d) { work(100); if (d > 0) drop(d - 1); }
__attribute__((noinline)) void drop(int d) { work(1000); step(d); }
__attribute__((noinline)) void enter(int d) { work(10); drop(d); }
int main(int argc, char **argv) {
    /* not atoi: inlined from stdlib.h, it would make main two rows in the report */
    int n = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 10;
    int depth = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 3;
    for (int i = 0; i < n; i++) enter(depth);
    printf("%lu\n", sink);
    return 0;
}
