/* A small program for comparing cycprof's two files of one run: a plain
 * call chain, a function called from two places, and recursion. Nothing
 * is inlined (noinline), so that the callgrind file, which has no inline
 * frames, and the pprof file, which does, name the same functions. */
#include <stdlib.h>

static volatile int sink;

__attribute__((noinline)) int leaf(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += i * i;
    return s;
}

__attribute__((noinline)) int rec(int d)
{
    if (d <= 0)
        return leaf(50);
    return leaf(10) + rec(d - 1);
}

__attribute__((noinline)) int mid(int n)
{
    return leaf(n) + leaf(n / 2);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    sink = mid(n) + rec(5);
    return 0;
}
