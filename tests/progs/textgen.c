/* Deterministic text generator: textgen BYTES > file (LCG, no libc randomness). */
#include <stdio.h>
#include <stdlib.h>
static const char *words[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
    "hotel", "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec",
    "romeo", "sierra", "tango", "uniform", "victor", "whiskey", "xray", "yankee", "zulu"};
int main(int argc, char **argv) {
    long want = argc > 1 ? atol(argv[1]) : 1000000, n = 0;
    unsigned long x = 12345;
    int col = 0;
    while (n < want) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        const char *w = words[(x >> 33) % 26];
        int len;
        if ((x >> 20) % 7 == 0) len = printf("%lu", (x >> 40) % 100000);
        else len = printf("%s", w);
        n += len; col += len;
        if (col > 70) { putchar('\n'); col = 0; } else { putchar(' '); col++; }
        n++;
    }
    putchar('\n');
    return 0;
}
