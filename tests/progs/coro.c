/* swapcontext ping-pong between main and a coroutine REPS times. */
#include <stdlib.h>
#include <ucontext.h>
volatile unsigned long sink;
static ucontext_t main_ctx, co_ctx;
static char co_stack[64 * 1024];
static int reps;
__attribute__((noinline)) void co_work(void) { for (int i = 0; i < 20; i++) sink += i; }
__attribute__((noinline)) void main_work(void) { for (int i = 0; i < 15; i++) sink += i; }
__attribute__((noinline)) void coroutine(void) {
    for (int i = 0; i < reps; i++) {
        co_work();
        swapcontext(&co_ctx, &main_ctx);
    }
}
int main(int argc, char **argv) {
    reps = argc > 1 ? atoi(argv[1]) : 1000;
    getcontext(&co_ctx);
    co_ctx.uc_stack.ss_sp = co_stack;
    co_ctx.uc_stack.ss_size = sizeof co_stack;
    co_ctx.uc_link = &main_ctx;
    makecontext(&co_ctx, coroutine, 0);
    for (int i = 0; i < reps; i++) {
        swapcontext(&main_ctx, &co_ctx);
        main_work();
    }
    swapcontext(&main_ctx, &co_ctx); /* let the coroutine finish (returns via uc_link) */
    return 0;
}
