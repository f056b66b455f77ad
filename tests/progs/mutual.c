/* Recursion shapes whose inclusive costs the fold policy must keep whole:
 * mutual recursion (A <-> C), a three-function cycle (P -> Q -> R -> P) and
 * recursion through a callback (qsort's comparator calls back into the
 * sorter's caller).  Each function is active from its first entry to its
 * last exit; callgrind's inclusive cost of the outermost activation is
 * the oracle. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;
__attribute__((noinline)) void work(int n) { for (int i = 0; i < n; i++) sink += i; }

__attribute__((noinline)) void A(int d);
__attribute__((noinline)) void C(int d) { work(1000); if (d > 0) A(d - 1); }
__attribute__((noinline)) void A(int d) { work(5000); C(d); }

__attribute__((noinline)) void Q(int d);
__attribute__((noinline)) void R(int d);
__attribute__((noinline)) void P(int d) { work(100); if (d > 0) Q(d); work(10); }
__attribute__((noinline)) void Q(int d) { work(200); R(d); }
__attribute__((noinline)) void R(int d) { work(300); P(d - 1); }

static int depth_left;
__attribute__((noinline)) void sort_some(int n);
static int by_value(const void* a, const void* b)
{
    int x = *(const int*)a, y = *(const int*)b;
    if (depth_left > 0) { depth_left--; sort_some(4); }
    work(7);
    return (x > y) - (x < y);
}
__attribute__((noinline)) void sort_some(int n)
{
    int v[8];
    for (int i = 0; i < n; i++) v[i] = (i * 5) % n;
    qsort(v, n, sizeof v[0], by_value);
}

int main(void)
{
    A(3);
    P(5);
    depth_left = 3;
    sort_some(6);
    printf("%lu\n", sink);
    return 0;
}
