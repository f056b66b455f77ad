/* zkspin N: N rounds of a loop that reads and writes a 512-byte array
 * (one or two pages, loaded and dirty in the first 64 rounds of each
 * zkVM segment) and does arithmetic in registers: in a segment of tens
 * of thousands of instructions no instruction near the end pages, so
 * each closes at the first instruction that passes the threshold
 * (tests/t-zkvm.sh, zkvm-close-exact). */
#include <stdlib.h>

static unsigned long cells[64];

int main(int argc, char** argv)
{
   unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 100000, x = 1, i;
   for (i = 0; i < n; i++) {
      cells[i & 63] += x;
      x = x * 6364136223846793005UL + 1442695040888963407UL;
   }
   return (int)(cells[5] & 1);
}
