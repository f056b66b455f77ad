/* hello.c: the cycprof example.  A tiny deterministic pipeline (generate
 * text, parse it into numbers, hash them, sort them recursively) so the
 * profile has a few distinct call paths:
 *   main -> run -> parse_all -> parse_number
 *   main -> run -> hash_all -> fnv1a
 *   main -> run -> quicksort -> partition (and quicksort -> quicksort ...)
 * No randomness, no time, no environment: its own functions cost the same
 * every run (the dynamic loader's share varies a little with the environment).
 * Built with -g -O1 (see Makefile.am).  */
#include <stdio.h>

#define N 2000

static char text[N * 8];
static unsigned values[N];
static unsigned hashes[N];

/* Fill text with N decimal numbers separated by commas (fixed LCG seed). */
static void generate(void)
{
    unsigned x = 12345, pos = 0;
    for (int i = 0; i < N; i++) {
        x = x * 1103515245u + 12345u;
        pos += (unsigned)sprintf(text + pos, "%u,", (x >> 16) % 100000u);
    }
}

static unsigned parse_number(const char **p)
{
    unsigned v = 0;
    while (**p >= '0' && **p <= '9')
        v = v * 10 + (unsigned)(*(*p)++ - '0');
    if (**p == ',')
        (*p)++;
    return v;
}

static int parse_all(void)
{
    const char *p = text;
    int n = 0;
    while (*p && n < N)
        values[n++] = parse_number(&p);
    return n;
}

/* FNV-1a over the 4 bytes of v. */
static unsigned fnv1a(unsigned v)
{
    unsigned h = 2166136261u;
    for (int i = 0; i < 4; i++) {
        h ^= (v >> (8 * i)) & 0xffu;
        h *= 16777619u;
    }
    return h;
}

static void hash_all(int n)
{
    for (int i = 0; i < n; i++)
        hashes[i] = fnv1a(values[i]);
}

static int partition(unsigned *a, int lo, int hi)
{
    unsigned pivot = a[hi];
    int i = lo;
    for (int j = lo; j < hi; j++) {
        if (a[j] < pivot) {
            unsigned t = a[i]; a[i] = a[j]; a[j] = t;
            i++;
        }
    }
    unsigned t = a[i]; a[i] = a[hi]; a[hi] = t;
    return i;
}

/* Recursive on purpose: exercises the shadow stack and --fold-recursion. */
static void quicksort(unsigned *a, int lo, int hi)
{
    if (lo >= hi)
        return;
    int p = partition(a, lo, hi);
    quicksort(a, lo, p - 1);
    quicksort(a, p + 1, hi);
}

static unsigned run(void)
{
    generate();
    int n = parse_all();
    hash_all(n);
    quicksort(hashes, 0, n - 1);
    unsigned sum = 0;
    for (int i = 0; i < n; i++)
        sum = sum * 31u + hashes[i];
    return sum;
}

int main(void)
{
    printf("hello from cycprof's example: checksum %08x\n", run());
    return 0;
}
