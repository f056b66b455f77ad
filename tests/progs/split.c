/* main->a->leaf 100x, main->b->leaf 300x: leaf's cost splits exactly 1:3. */
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void leaf(void) {
    for (int i = 0; i < 50; i++) sink += i;
}
__attribute__((noinline)) void a(void) { leaf(); }
__attribute__((noinline)) void b(void) { leaf(); }
int main(int argc, char **argv) {
    int scale = argc > 1 ? atoi(argv[1]) : 1;
    for (int i = 0; i < 100 * scale; i++) a();
    for (int i = 0; i < 300 * scale; i++) b();
    return 0;
}
