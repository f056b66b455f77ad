/* Built by region_prog (-O1 -fno-inline): mix() and step() are
 * always_inline, so hot() holds their code as inlined frames, and only
 * hot() runs instrumented (START/STOP_INSTRUMENTATION around it). */
#include <stdlib.h>
#include <valgrind/callgrind.h>

volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
    return (x ^ (x >> 7)) * 2654435761UL;
}

static inline __attribute__((always_inline)) unsigned long step(unsigned long x, int i)
{
    return mix(x + (unsigned long)i) + sink;
}

__attribute__((noinline)) unsigned long hot(int n)
{
    unsigned long x = 1;
    for (int i = 0; i < n; i++)
        x = step(x, i);
    return x;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    CALLGRIND_START_INSTRUMENTATION;
    sink = hot(n);
    CALLGRIND_STOP_INSTRUMENTATION;
    return 0;
}
