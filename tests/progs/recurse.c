/* Direct recursion (rec, depth DEPTH) and mutual recursion (ping/pong, depth DEPTH),
   REPS times. Each recursion level calls its own work function once. */
#include <stdlib.h>
#define DEPTH 20
volatile unsigned long sink;
__attribute__((noinline)) void rec_work(void) { for (int i = 0; i < 10; i++) sink += i; }
__attribute__((noinline)) void ping_work(void) { for (int i = 0; i < 5; i++) sink += i; }
__attribute__((noinline)) void pong_work(void) { for (int i = 0; i < 7; i++) sink += i; }
__attribute__((noinline)) void rec(int d) {
    rec_work();
    if (d > 1) rec(d - 1);
    sink++;
}
__attribute__((noinline)) void pong(int d);
__attribute__((noinline)) void ping(int d) { ping_work(); if (d > 1) pong(d - 1); sink++; }
__attribute__((noinline)) void pong(int d) { pong_work(); if (d > 1) ping(d - 1); sink++; }
int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 10;
    for (int i = 0; i < reps; i++) {
        rec(DEPTH);
        ping(DEPTH);
    }
    return 0;
}
