/* The functions of guest.txt (RISC Zero's profiling example) in C, for
 * `cycprof diff guest.pb zk.pb.gz`: a RISC Zero guest profile against a
 * cycprof zkVM profile of code with the same function names. Nothing is
 * inlined, so each name is one frame in both. */
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;
static unsigned long table[64 * 1024];

__attribute__((noinline)) unsigned long fibonacci_1(unsigned n)
{
    unsigned long a = 0, b = 1;
    for (unsigned i = 0; i < n; i++) {
        unsigned long t = a + b;
        a = b;
        b = t;
    }
    return a;
}

__attribute__((noinline)) unsigned long fibonacci_2(unsigned n)
{
    /* touches fresh pages: [PageIn] and [PageOut] under fibonacci_2 */
    table[0] = 0;
    table[1] = 1;
    for (unsigned i = 2; i < n; i++)
        table[i] = table[i - 1] + table[i - 2];
    return table[n - 1];
}

__attribute__((noinline)) void mat_mul(unsigned long r[4],
                                       const unsigned long a[4],
                                       const unsigned long b[4])
{
    unsigned long t[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                          a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
    memcpy(r, t, sizeof t);
}

__attribute__((noinline)) void mat_pow(unsigned long r[4],
                                       const unsigned long m[4], unsigned n)
{
    if (n == 1) {
        memcpy(r, m, 4 * sizeof *r);
        return;
    }
    unsigned long h[4];
    mat_pow(h, m, n / 2);
    mat_mul(r, h, h);
    if (n & 1)
        mat_mul(r, r, m);
}

__attribute__((noinline)) unsigned long fibonacci_3(unsigned n)
{
    unsigned long m[4] = {1, 1, 1, 0}, r[4];
    mat_pow(r, m, n);
    return r[1];
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 20000;
    sink = fibonacci_1(n);
    sink = fibonacci_2(n < 64 * 1024 ? n : 64 * 1024);
    sink = fibonacci_3(n);
    return 0;
}
