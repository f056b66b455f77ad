/* Code written at run time: machine code is copied into an anonymous
 * mapping, run, rewritten in place (another loop count and result) and
 * run again.  Valgrind must notice the rewrite (--smc-check) and the tool
 * must count both versions exactly. x86-64 only. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* mov ecx, imm32; L: dec ecx; jnz L; mov eax, imm32; ret */
static void emit(unsigned char* p, unsigned loops, unsigned result)
{
    static const unsigned char code[] = {
        0xb9, 0, 0, 0, 0, 0xff, 0xc9, 0x75, 0xfc, 0xb8, 0, 0, 0, 0, 0xc3 };
    memcpy(p, code, sizeof code);
    memcpy(p + 1, &loops, 4);
    memcpy(p + 10, &result, 4);
}

int main(void)
{
    unsigned char* page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int (*fn)(void) = (int (*)(void))page;
    int a, b;
    if (page == MAP_FAILED) { perror("mmap"); return 1; }
    emit(page, 1000, 7);
    a = fn();
    emit(page, 3000, 11);
    b = fn();
    printf("%d %d\n", a, b);
    return a == 7 && b == 11 ? 0 : 2;
}
