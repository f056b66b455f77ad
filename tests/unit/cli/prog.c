/* Small deterministic program for the cli tests: recursion (fib), an
 * inlined helper (sq), a loop (work) and a second thread. Built twice, with
 * and without -DSLOWER, to give `cycprof diff` two builds to compare.
 * "prog N nothread" runs without the thread, whose futex waits vary from
 * run to run: that makes two runs count exactly the same. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static inline long sq(long x) { return x * x; }

__attribute__((noinline)) long fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) long work(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
#ifdef SLOWER
        s += sq(i) % 7 + (i & 3);
#else
        s += sq(i) % 7;
#endif
    }
    return s;
}

static void *thread_main(void *arg)
{
    return (void *)work((int)(long)arg);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 16;
    int threaded = argc <= 2;
    pthread_t t;
    if (threaded)
        pthread_create(&t, NULL, thread_main, (void *)20000L);
    long r = fib(n) + work(n * 1000);
    if (threaded)
        pthread_join(t, NULL);
    printf("%ld\n", r);
    return 0;
}
