/* Two builds of one program whose difference is known by construction:
 * built with -DNEW, b() calls extra() once more. work() is called from a()
 * and b() alike, so every stack but main;b (its one more call) and
 * main;b;extra costs the same in both builds, and so does every named
 * region but "calls b", which grows by the same. */
#include "cycprof.h"

#define NOINLINE __attribute__((noinline))

static volatile unsigned sink;

NOINLINE static void work(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        sink += i;
}

NOINLINE static void extra(void)
{
    for (unsigned i = 0; i < 1000; i++)
        sink ^= i;
}

NOINLINE static void a(void)
{
    work(3000);
}

NOINLINE static void b(void)
{
    work(2000);
#ifdef NEW
    extra();
#endif
}

int main(void)
{
    a();
    CYCPROF_REGION_BEGIN("calls b");
    b();
    CYCPROF_REGION_END("calls b");
    return 0;
}
