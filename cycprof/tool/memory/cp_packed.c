/* cycprof: packed dense counters (cp_packed.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_heap.h"
#include "cp_hugemem.h"
#include "cp_packed.h"

/* Copies are bump-allocated without headers: a malloc block's overhead
 * would be as large as the typical copy. */
#define CHUNK_BYTES (4 * 1024 * 1024)

static UChar* chunk_next;
static SizeT  chunk_left;
static SizeT  total_bytes, released_bytes;

/* Released copies by size, for copies of that size to come: linked
 * through their first bytes (copies too small to hold the link are
 * lost).  Sizes are small: a copy is about a tenth of its counters. */
#define REUSE_SIZES 256
static UChar* released[REUSE_SIZES];

static UChar* scratch;          /* encoding buffer, worst case sized */
static SizeT  scratch_capacity;

static UChar* put_varint(UChar* p, ULong v)
{
   while (v >= 0x80) {
      *p++ = (UChar)(v | 0x80);
      v >>= 7;
   }
   *p++ = (UChar)v;
   return p;
}

static const UChar* get_varint(const UChar* p, ULong* v)
{
   ULong x = 0;
   UInt shift = 0;
   for (;; shift += 7) {
      UChar b = *p++;
      x |= (ULong)(b & 0x7f) << shift;
      if (!(b & 0x80)) break;
   }
   *v = x;
   return p;
}

/* A nonzero counter and the zeros before it, in one byte when there are
 * fewer than 15 zeros and the value is below 16 (cc1plus: most of them,
 * called a few times each): the zeros in the high nibble, the value in
 * the low one.  15 zeros or a value 0 in its nibble: a varint with the
 * real number follows. */
#define GAP_ESCAPE 15

static UChar* put_counter(UChar* p, UInt gap, ULong value)
{
   UChar* head = p++;
   UInt gap_nibble = gap < GAP_ESCAPE ? gap : GAP_ESCAPE;
   UInt value_nibble = value < 16 ? (UInt)value : 0;
   *head = (UChar)(gap_nibble << 4 | value_nibble);
   if (gap_nibble == GAP_ESCAPE) p = put_varint(p, gap);
   if (value_nibble == 0) p = put_varint(p, value);
   return p;
}

static const UChar* get_counter(const UChar* p, ULong* gap, ULong* value)
{
   UChar head = *p++;
   *gap = head >> 4;
   *value = head & 15;
   if (*gap == GAP_ESCAPE) p = get_varint(p, gap);
   if (*value == 0) p = get_varint(p, value);
   return p;
}

static UChar* bump(SizeT size)
{
   UChar* p;
   if (size < REUSE_SIZES && released[size]) {
      p = released[size];
      VG_(memcpy)(&released[size], p, sizeof(UChar*));
      released_bytes -= size;
      return p;
   }
   if (size > chunk_left) {
      SizeT bytes = size > CHUNK_BYTES ? size : CHUNK_BYTES;
      chunk_next = cp_hugemem_carve(bytes);
      chunk_left = bytes;
   }
   p = chunk_next;
   chunk_next += size;
   chunk_left -= size;
   total_bytes += size;
   return p;
}

static void release(UChar* copy, SizeT size)
{
   released_bytes += size;
   if (size >= sizeof(UChar*) && size < REUSE_SIZES) {
      VG_(memcpy)(copy, &released[size], sizeof(UChar*));
      released[size] = copy;
   }
}

static SizeT packed_size(const UChar* packed)
{
   ULong len, n_nonzero, gap, value, k;
   const UChar* p = get_varint(packed, &len);
   p = get_varint(p, &n_nonzero);
   for (k = 0; k < n_nonzero; k++) p = get_counter(p, &gap, &value);
   return p - packed;
}

UChar* cp_packed_encode(const ULong* dense, UInt len, UChar* old)
{
   SizeT worst = 3 * 10 + (SizeT)len * 20, size, old_size;
   UChar* p;
   UChar* copy;
   UInt i, n_nonzero = 0, gap = 0;
   if (worst > scratch_capacity) {
      scratch_capacity = worst > 4096 ? worst : 4096;
      scratch = cp_heap_realloc("cp.packed.scratch", scratch, scratch_capacity);
   }
   for (i = 0; i < len; i++) n_nonzero += dense[i] != 0;
   p = put_varint(scratch, len);
   p = put_varint(p, n_nonzero);
   for (i = 0; i < len; i++) {
      if (!dense[i]) {
         gap++;
         continue;
      }
      p = put_counter(p, gap, dense[i]);
      gap = 0;
   }
   size = p - scratch;
   old_size = old ? packed_size(old) : 0;
   if (old && old_size >= size) {
      /* What the new copy leaves of the old one is lost: it is little,
       * counts grow slowly. */
      released_bytes += old_size - size;
      copy = old;
   } else {
      if (old) release(old, old_size);
      copy = bump(size);
   }
   VG_(memcpy)(copy, scratch, size);
   return copy;
}

UInt cp_packed_len(const UChar* packed)
{
   ULong len;
   get_varint(packed, &len);
   return (UInt)len;
}

UInt cp_packed_nonzero(const UChar* packed)
{
   ULong len, n_nonzero;
   get_varint(get_varint(packed, &len), &n_nonzero);
   return (UInt)n_nonzero;
}

void cp_packed_decode(const UChar* packed, ULong* dense)
{
   ULong len, n_nonzero, gap, value, k;
   const UChar* p = get_varint(packed, &len);
   UInt at = 0;
   p = get_varint(p, &n_nonzero);
   VG_(memset)(dense, 0, len * sizeof(ULong));
   for (k = 0; k < n_nonzero; k++) {
      p = get_counter(p, &gap, &value);
      at += (UInt)gap;
      tl_assert(at < len);
      dense[at++] = value;
   }
}

/* The count of nonzero counters follows the length: a zero there ends
 * the copy whatever came after. */
void cp_packed_zero(UChar* packed)
{
   ULong len;
   UChar* count = (UChar*)get_varint(packed, &len);
   *count = 0;
}


SizeT cp_packed_bytes(void)
{
   return total_bytes;
}

SizeT cp_packed_released_bytes(void)
{
   return released_bytes;
}
