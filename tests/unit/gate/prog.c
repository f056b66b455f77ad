/* Builds of one program for the `cycprof diff` gate tests (run.sh).
 *   (none)     the base
 *   -DEXTRA    adds a function that never runs: code after it moves, the
 *              count does not change
 *   -DTINY     main does two more instructions' worth of work: a real but
 *              tiny change, below the default --min-change floor
 *   -DMORE     real work: more() runs n more loop iterations
 *   -DSWAP     the inlined helper runs inlined into right() instead of
 *              left(): its line costs the same, in another function
 * right() comes before left() so that sorting sections by name reorders
 * them. */
#include <stdio.h>
#include <stdlib.h>

static inline long helper(long x) { return (x * x) % 7 + (x & 3); } /* HELPER_LINE */

__attribute__((noinline)) long right(int n)
{
    long s = 0;
#ifdef SWAP
    for (int i = 0; i < n; i++)
        s += helper(i);
#endif
    return s;
}

__attribute__((noinline)) long left(int n)
{
    long s = 0;
#ifndef SWAP
    for (int i = 0; i < n; i++)
        s += helper(i);
#endif
    return s;
}

#ifdef EXTRA
__attribute__((noinline, used)) long never_called(int n)
{
    long s = 1;
    for (int i = 0; i < n; i++)
        s = s * 3 + i;
    return s;
}
#endif

#ifdef MORE
__attribute__((noinline)) long more(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += i % 5;
    return s;
}
#endif

volatile long sink;

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    long r = left(n) + right(n);
#ifdef TINY
    sink = r;
#endif
#ifdef MORE
    r += more(n);
#endif
    printf("%ld\n", r);
    return 0;
}
