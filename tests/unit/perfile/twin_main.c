/* The program side of twin.h; see twin.h. */
#include <stdio.h>
#include "twin.h"

long lib_twin_loop(int n);

__attribute__((noinline)) long main_twin_loop(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s ^= twin_step(i);
    return s;
}

int main(void)
{
    printf("%ld\n", main_twin_loop(3000) + lib_twin_loop(5000));
    return 0;
}
