#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) unsigned long fib(int n) { return n < 2 ? (unsigned long)n : fib(n - 1) + fib(n - 2); }
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 27;
    printf("%lu\n", fib(n));
    return 0;
}
