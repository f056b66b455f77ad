/* Unbalanced control flow, REPS times each: a ret with no matching call (push+ret),
   and a call with no matching ret (call next insn; pop). Built with -mno-red-zone. */
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void push_ret(void) {
    __asm__ volatile("lea 1f(%%rip), %%rax\n\tpush %%rax\n\tret\n1:\n" ::: "rax", "memory");
    sink++;
}
__attribute__((noinline)) void call_pop(void) {
    __asm__ volatile("call 1f\n1:\n\tpop %%rax\n" ::: "rax", "memory");
    sink++;
}
__attribute__((noinline)) void tail_work(void) { for (int i = 0; i < 10; i++) sink += i; }
int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 10000;
    for (int i = 0; i < reps; i++) { push_ret(); call_pop(); tail_work(); }
    return 0;
}
