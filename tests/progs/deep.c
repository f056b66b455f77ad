#include <stdlib.h>
/* Recursion to the depth given: one frame per level, nothing folded
 * away (noinline, no tail call: the addition comes after the call). */
__attribute__((noinline)) static unsigned long down(unsigned long n)
{
    return n == 0 ? 0 : 1 + down(n - 1);
}
int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
    return down(n) == n ? 0 : 1;
}
