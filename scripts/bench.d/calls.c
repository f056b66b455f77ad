/* Call-heavy workload of scripts/bench: deep and wide recursion, mutual
 * recursion, a recursive-descent evaluator. Built with gcc -O1 -g.
 * Usage: calls [N]  (default 27: fib(27), ~0.6 M calls for fib alone).
 * Deterministic; prints one checksum line. */
#include <stdio.h>
#include <stdlib.h>

/* Keep every call a real call (gcc -O1 would inline is_odd into is_even). */
#define NOINLINE __attribute__((noinline))

NOINLINE static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

/* Mutual recursion, depth up to n. */
static int is_odd(unsigned n);
NOINLINE static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
NOINLINE static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

/* Three mutually recursive functions over a generated expression. */
static const char *p;
static long expr(void);
NOINLINE static long atom(void)
{
    if (*p == '(') { p++; long v = expr(); p++; return v; }
    long v = 0;
    while (*p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
    return v;
}
NOINLINE static long term(void)
{
    long v = atom();
    while (*p == '*') { p++; v = v * atom() % 1000003; }
    return v;
}
NOINLINE static long expr(void)
{
    long v = term();
    while (*p == '+' || *p == '-') {
        char op = *p++;
        long w = term();
        v = op == '+' ? v + w : v - w;
    }
    return v;
}

static unsigned long seed = 12345;
static unsigned rnd(void)
{
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    return (unsigned)(seed >> 33);
}
NOINLINE static char *gen(char *s, int depth)
{
    unsigned r = rnd();
    if (depth == 0) return s + sprintf(s, "%u", r % 1000);
    *s++ = '(';
    s = gen(s, depth - 1);
    *s++ = "+-*"[r % 3];
    s = gen(s, depth - 1);
    *s++ = ')';
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 27;
    unsigned long check = (unsigned long)fib(n);
    for (unsigned i = 0; i < (1u << (n - 16)); i++)
        check += is_even(1000 + i % 1000);
    static char buf[1 << 20];
    for (int i = 0; i < (n - 14); i++) {
        *gen(buf, 14) = 0;
        p = buf;
        check += (unsigned long)expr();
    }
    printf("calls checksum %lu\n", check);
    return 0;
}
