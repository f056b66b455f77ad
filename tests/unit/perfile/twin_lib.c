#include "twin.h"

__attribute__((noinline)) long lib_twin_loop(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += twin_step(i + s);
    return s;
}
