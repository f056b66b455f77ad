/* "region" workload of scripts/bench: a program measured only around one
 * short call, as a gungraun or CI harness does.  Run with
 * --instr-atstart=no: everything but the region runs uninstrumented, so
 * the tool should cost about what --tool=none does.
 * Usage: region [N]  (default 40: rounds of hashing a 1 MB buffer).
 * Deterministic; prints one checksum line. */
#include <stdio.h>
#include <stdlib.h>
#include <valgrind/callgrind.h>

#define NOINLINE __attribute__((noinline))

static unsigned char buf[1 << 20];

NOINLINE static unsigned long hash(unsigned long h)
{
    for (size_t i = 0; i < sizeof buf; i++)
        h = (h ^ buf[i]) * 1099511628211UL;
    return h;
}

NOINLINE static unsigned long measured(unsigned long h)
{
    for (int i = 0; i < 1000; i++)
        h = h * 31 + (unsigned long)i;
    return h;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 40;
    unsigned long h = 1469598103934665603UL;
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i * 7 + 3);
    for (int r = 0; r < rounds / 2; r++)
        h = hash(h);
    CALLGRIND_START_INSTRUMENTATION;
    h = measured(h);
    CALLGRIND_STOP_INSTRUMENTATION;
    for (int r = rounds / 2; r < rounds; r++)
        h = hash(h);
    printf("%lx\n", h);
    return 0;
}
