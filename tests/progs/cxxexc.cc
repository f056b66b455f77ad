// REPS times: catcher() calls thrower1->thrower2->thrower3 which throws; catcher catches
// and then calls after_catch(): that work belongs to main->catcher->after_catch.
#include <cstdlib>
#include <stdexcept>
volatile unsigned long sink;
__attribute__((noinline)) void thrower3(int x) {
    sink += x;
    if (x >= 0) throw std::runtime_error("boom");
}
__attribute__((noinline)) void thrower2(int x) { sink++; thrower3(x); sink++; }
__attribute__((noinline)) void thrower1(int x) { sink++; thrower2(x); sink++; }
__attribute__((noinline)) void after_catch(void) {
    for (int i = 0; i < 30; i++) sink += i;
}
__attribute__((noinline)) void catcher(int x) {
    try {
        thrower1(x);
    } catch (const std::exception &) {
        after_catch();
    }
}
int main(int argc, char **argv) {
    int reps = argc > 1 ? std::atoi(argv[1]) : 1000;
    for (int i = 0; i < reps; i++) catcher(i);
    return 0;
}
