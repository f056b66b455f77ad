/* Two pthreads run worker_a / worker_b (each calls its own spin function);
   main runs main_work() meanwhile. */
#include <pthread.h>
volatile unsigned long sink_a, sink_b, sink_m;
__attribute__((noinline)) void spin_a(void) { for (int i = 0; i < 20000; i++) sink_a += i; }
__attribute__((noinline)) void spin_b(void) { for (int i = 0; i < 30000; i++) sink_b += i; }
__attribute__((noinline)) void spin_m(void) { for (int i = 0; i < 10000; i++) sink_m += i; }
__attribute__((noinline)) void *worker_a(void *arg) { (void)arg; spin_a(); return 0; }
__attribute__((noinline)) void *worker_b(void *arg) { (void)arg; spin_b(); return 0; }
__attribute__((noinline)) void main_work(void) { spin_m(); }
int main(void) {
    pthread_t ta, tb;
    if (pthread_create(&ta, 0, worker_a, 0) || pthread_create(&tb, 0, worker_b, 0)) return 1;
    main_work();
    pthread_join(ta, 0);
    pthread_join(tb, 0);
    return 0;
}
