/* "region-scale" workload of scripts/bench: N transactions, each in a
 * region of its own name (tx-0, tx-1, ...), opened and closed once
 * around the same short loop: a harness that names a region per
 * transaction.  "region-plain" is the same program without the requests,
 * the baseline of its target (cycprof at most 2x that under cycprof).
 * Usage: regionscale N [plain]  (default 100000).
 * Deterministic; prints one checksum line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cycprof.h"   /* cycprof/include: the bench adds -I */

#define NOINLINE __attribute__((noinline))

NOINLINE static unsigned long transaction(unsigned long h, int i)
{
    for (int k = 0; k < 100; k++)
        h = h * 31 + (unsigned long)(i ^ k);
    return h;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int plain = argc > 2 && strcmp(argv[2], "plain") == 0;
    unsigned long h = 1469598103934665603UL;
    char name[32];
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "tx-%d", i);
        if (!plain)
            CYCPROF_REGION_BEGIN(name);
        h = transaction(h, i);
        if (!plain)
            CYCPROF_REGION_END(name);
    }
    printf("%lx\n", h);
    return 0;
}
