/* cycprof: native addresses as 32-bit guest addresses (cp_zkaddr.h). */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "cp_addrmap.h"
#include "cp_heap.h"
#include "cp_zkaddr.h"

#define NATIVE_PAGE_SHIFT 12                 /* 4 KiB native pages */
#define FRESH_ALIGN_PAGES 16                 /* a new run starts at 64 KiB */

Addr cp_zkaddr_last_native = 1;
UInt cp_zkaddr_last_guest = 0;

static AddrMap slot_of_page;    /* native page number + 1 -> slot + 1 */
static UChar*  slot_used;       /* one bit per guest slot */
static UWord   n_slots;
static UWord   next_fresh;      /* above every slot used so far (it goes
                                 * on past n_slots when the range wraps) */
static Addr    guest_start;

void cp_zkaddr_init(Addr start, Addr end)
{
   guest_start = start;
   n_slots = (end - start) >> NATIVE_PAGE_SHIFT;
   slot_used = cp_heap_calloc("cp.zkaddr.used", (n_slots + 7) / 8, 1);
   cp_addrmap_init(&slot_of_page, 1024);
}

static Bool used(UWord slot)
{
   return (slot_used[slot >> 3] >> (slot & 7)) & 1;
}

/* Whether native pages n and m lie in one mapping: only then are they
 * neighbours in the guest too (two mappings that touch in one run may be
 * apart in another). */
static Bool same_mapping(UWord n, UWord m)
{
   NSegment const* seg = VG_(am_find_nsegment)((Addr)n << NATIVE_PAGE_SHIFT);
   Addr other = (Addr)m << NATIVE_PAGE_SHIFT;
   return seg && other >= seg->start && other <= seg->end;
}

/* The slot next to native neighbour nb's, dir slots away, if free. */
static Bool beside(UWord page, UWord nb, Word dir, UWord* slot)
{
   UWord* s = cp_addrmap_find(&slot_of_page, nb + 1);
   UWord want;
   if (!s) return False;
   want = *s - 1 + dir;
   if (want >= n_slots || used(want) || !same_mapping(page, nb)) return False;
   *slot = want;
   return True;
}

/* A new run starts at the next 64 KiB boundary above every slot used;
 * when the guest range is full, it wraps round and shares (the layout
 * stays deterministic, the sharing is the model's limit: docs/zkvm.md). */
static UWord fresh_slot(void)
{
   UWord run = (next_fresh + FRESH_ALIGN_PAGES - 1)
               & ~(UWord)(FRESH_ALIGN_PAGES - 1);
   next_fresh = run + 1;
   return run % n_slots;
}

static UWord place(UWord page)
{
   UWord slot;
   if (!beside(page, page - 1, 1, &slot) && !beside(page, page + 1, -1, &slot))
      slot = fresh_slot();
   slot_used[slot >> 3] |= (UChar)(1 << (slot & 7));
   if (slot + 1 > next_fresh) next_fresh = slot + 1;
   cp_addrmap_put(&slot_of_page, page + 1, slot + 1);
   return slot;
}

UInt cp_zkaddr_guest_slow(Addr a)
{
   UWord page = a >> NATIVE_PAGE_SHIFT;
   UWord* s = cp_addrmap_find(&slot_of_page, page + 1);
   UWord slot = s ? *s - 1 : place(page);
   cp_zkaddr_last_native = a & ~(Addr)0xFFF;
   cp_zkaddr_last_guest = (UInt)(guest_start + (slot << NATIVE_PAGE_SHIFT));
   return cp_zkaddr_last_guest | (UInt)(a & 0xFFF);
}
