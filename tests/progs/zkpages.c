/* A known page pattern for the zkVM model (tests/t-zkvm.sh).
 *
 *   zkpages K W R S [ADDRESS]
 *
 * Maps 64 KiB between two PROT_NONE pages (so the model places it as a run
 * of its own, 64 KiB aligned in the guest), then R times: reads the first
 * byte of each of the first K 1 KiB pages, in order, then writes the first
 * byte of each of the first W.  With S=1, then one 8-byte store across
 * the boundary of pages 1 and 2.  Give K, W and R with two digits each, so
 * that every run has the same arguments' length (the same stack).  With
 * ADDRESS (hex, 13 digits), the mapping is made there (MAP_FIXED_NOREPLACE):
 * the model's guest layout must not depend on it. */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define GUEST_PAGE 1024
#define BUF (64 * 1024)
#define GUARD 4096

static void read_pages(volatile unsigned char* buf, int k, unsigned* sum)
{
   for (int j = 0; j < k; j++) *sum += buf[j * GUEST_PAGE];
}

static void write_pages(volatile unsigned char* buf, int w)
{
   for (int j = 0; j < w; j++) buf[j * GUEST_PAGE] = (unsigned char)j;
}

static void store_across(volatile unsigned char* buf)
{
   *(volatile uint64_t*)(buf + 2 * GUEST_PAGE - 4) = 0x0102030405060708ull;
}

int main(int argc, char** argv)
{
   unsigned sum = 0;
   int k, w, r, s;
   unsigned char* map;
   void* at = NULL;
   int fixed = 0;
   if (argc != 5 && argc != 6) return 2;
   k = atoi(argv[1]), w = atoi(argv[2]), r = atoi(argv[3]), s = atoi(argv[4]);
   if (argc == 6) {
      at = (void*)strtoul(argv[5], NULL, 16);
      fixed = MAP_FIXED_NOREPLACE;
   }
   map = mmap(at, BUF + 2 * GUARD, PROT_NONE,
              MAP_PRIVATE | MAP_ANONYMOUS | fixed, -1, 0);
   if (map == MAP_FAILED
       || mprotect(map + GUARD, BUF, PROT_READ | PROT_WRITE) != 0)
      return 3;
   for (int i = 0; i < r; i++) {
      read_pages(map + GUARD, k, &sum);
      write_pages(map + GUARD, w);
   }
   if (s) store_across(map + GUARD);
   return (int)(sum & 1);
}
