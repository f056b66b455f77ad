/* cycprof: packed dense counters (cp_packed.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cp_heap.h"
#include "cp_hugemem.h"
#include "cp_numbered.h"
#include "cp_packed.h"

/* Copies are bump-allocated without headers: a malloc block's overhead
 * would be as large as the typical copy.  Each has one byte before it,
 * the number of contexts that use it.  A copy is named by a 32-bit
 * handle (cp_packed.h): its chunk's number above, the byte within it
 * below; a copy bigger than a chunk gets chunks of its own, numbered in a
 * row. */
#define CHUNK_SHIFT 22
#define CHUNK_BYTES (1u << CHUNK_SHIFT)   /* 4 MiB */
#define MAX_CHUNKS  (1u << (32 - CHUNK_SHIFT))
/* A copy used this many times stays to the end: its count no longer
 * changes. */
#define USERS_FOREVER 255

static UChar* chunk_bases[MAX_CHUNKS];   /* [0] unused: no handle is 0 */
static UInt   numbered = 1;
static UInt   chunk_next;                /* handle of the current rest */
static SizeT  chunk_left;
static SizeT  total_bytes, released_bytes;

static UChar* at(UInt handle)
{
   return chunk_bases[handle >> CHUNK_SHIFT] + (handle & (CHUNK_BYTES - 1));
}

/* Released blocks (a copy and its count byte) by size, for blocks of that
 * size to come: linked through their first bytes by handle (blocks too
 * small to hold the link are lost).  Sizes are small: a copy is about a
 * tenth of its counters. */
#define REUSE_SIZES 256
static UInt released[REUSE_SIZES];

static UChar* scratch;          /* encoding buffer, worst case sized */
static SizeT  scratch_capacity;

/* Every copy in use, by its bytes: open addressing, linear probing, at
 * most three quarters full counting the slots of copies gone (8 bytes a
 * slot: cc1plus's 500,000 copies take 8 MB).  Not a WordMap
 * (cp_wordmap.h): the key is the bytes a slot points to, and a copy leaves
 * the table when its last user does.  A slot holds the copy's handle
 * with 16 bits of its hash above it, so that a probe reads no other copy
 * but one that likely matches; a copy gone leaves a mark (GONE) that
 * probes pass and a new copy may take, until the table is rebuilt. */
#define GONE        ((UWord)1)   /* no copy's handle: chunk 0 */
#define TAG_SHIFT   48
#define HANDLE_MASK ((UWord)0xffffffff)
static UWord* copies;
static SizeT  copy_slots, n_copies, n_gone;

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

static void new_chunk(SizeT size)
{
   UInt n = (UInt)((size + CHUNK_BYTES - 1) / CHUNK_BYTES);
   UChar* chunk = cp_hugemem_carve((SizeT)n * CHUNK_BYTES);
   chunk_next = cp_number_chunks(chunk_bases, &numbered, MAX_CHUNKS,
                                 CHUNK_BYTES, chunk, n,
                                 "cycprof: the packed counters took more "
                                 "than 4 GiB") << CHUNK_SHIFT;
   chunk_left = (SizeT)n * CHUNK_BYTES;
}

/* A block of size bytes, by handle. */
static UInt bump(SizeT size)
{
   UInt block;
   if (size < REUSE_SIZES && released[size]) {
      block = released[size];
      VG_(memcpy)(&released[size], at(block), sizeof(UInt));
      released_bytes -= size;
      return block;
   }
   if (size > chunk_left) new_chunk(size);
   block = chunk_next;
   /* Carving goes on within the chunks numbered in a row. */
   chunk_next += (UInt)size;
   chunk_left -= size;
   total_bytes += size;
   return block;
}

static void release(UInt block, SizeT size)
{
   released_bytes += size;
   if (size >= sizeof(UInt) && size < REUSE_SIZES) {
      VG_(memcpy)(at(block), &released[size], sizeof(UInt));
      released[size] = block;
   }
}

/* A copy: the length, the calls and the number of nonzero counters as
 * varints, then the nonzero counters (put_counter). */
static const UChar* get_head(const UChar* packed, ULong* len, ULong* calls,
                             ULong* n_nonzero)
{
   return get_varint(get_varint(get_varint(packed, len), calls), n_nonzero);
}

static SizeT packed_size(const UChar* packed)
{
   ULong len, calls, n_nonzero, gap, value, k;
   const UChar* p = get_head(packed, &len, &calls, &n_nonzero);
   for (k = 0; k < n_nonzero; k++) p = get_counter(p, &gap, &value);
   return p - packed;
}

static ULong hash_bytes(const UChar* bytes, SizeT size)
{
   ULong h = 0xcbf29ce484222325ULL;   /* FNV-1a, then a multiply that
                                       * carries it to the top bits */
   SizeT i;
   for (i = 0; i < size; i++) h = (h ^ bytes[i]) * 0x100000001b3ULL;
   return h * 0x9e3779b97f4a7c15ULL;
}

static SizeT home_of(ULong hash)
{
   return (SizeT)(hash >> 20) & (copy_slots - 1);
}

static UWord tag_of(ULong hash)
{
   return (UWord)(hash >> TAG_SHIFT) << TAG_SHIFT;
}

static UInt copy_in(UWord slot)
{
   return (UInt)(slot & HANDLE_MASK);
}

/* The copy equal to bytes[0 .. size) (hash its hash), or 0 with
 * *free_slot where it would go.  The encoding ends itself, so a copy that
 * differs differs within its own bytes: comparing reads no further. */
static UInt find_copy(const UChar* bytes, SizeT size, ULong hash,
                      SizeT* free_slot)
{
   SizeT i = home_of(hash), first_gone = copy_slots;
   UWord tag = tag_of(hash);
   for (;; i = (i + 1) & (copy_slots - 1)) {
      UWord slot = copies[i];
      if (slot == 0) {
         *free_slot = first_gone < copy_slots ? first_gone : i;
         return 0;
      }
      if (slot == GONE) {
         if (first_gone == copy_slots) first_gone = i;
      } else if ((slot & ~HANDLE_MASK) == tag
                 && VG_(memcmp)(at(copy_in(slot)), bytes, size) == 0) {
         return copy_in(slot);
      }
   }
}

static void put_copy(SizeT i, UInt copy, ULong hash)
{
   if (copies[i] == GONE) n_gone--;
   copies[i] = tag_of(hash) | (UWord)copy;
   n_copies++;
}

/* Rebuilt without the marks of copies gone, twice as large when the
 * copies in use take more than half of it. */
static void rebuild_copies(void)
{
   UWord* old = copies;
   SizeT old_slots = copy_slots, i, slot;
   if (!old_slots) copy_slots = 4096;
   else if (2 * n_copies > old_slots) copy_slots = 2 * old_slots;
   copies = cp_heap_realloc("cp.packed.copies", NULL,
                            copy_slots * sizeof(UWord));
   VG_(memset)(copies, 0, copy_slots * sizeof(UWord));
   n_copies = n_gone = 0;
   /* The copies are distinct and the new table has no marks: each goes
    * to the first empty slot from its home, with no compare. */
   for (i = 0; i < old_slots; i++) {
      if (old[i] > GONE) {
         UInt copy = copy_in(old[i]);
         ULong hash = hash_bytes(at(copy), packed_size(at(copy)));
         for (slot = home_of(hash); copies[slot];
              slot = (slot + 1) & (copy_slots - 1))
            ;
         put_copy(slot, copy, hash);
      }
   }
   if (old) cp_heap_free(old);
}

/* Takes copy (size bytes) out of the table, leaving a mark. */
static void forget(UInt copy, SizeT size)
{
   SizeT i = home_of(hash_bytes(at(copy), size));
   while (copy_in(copies[i]) != copy)   /* a mark holds no handle */
      i = (i + 1) & (copy_slots - 1);
   copies[i] = GONE;
   n_copies--;
   n_gone++;
}

/* One user fewer for copy; the last one gives its block back. */
static void drop_user(UInt copy)
{
   UChar* users = at(copy) - 1;
   SizeT size;
   if (*users == USERS_FOREVER) return;
   if (--*users > 0) return;
   size = packed_size(at(copy));
   forget(copy, size);
   release(copy - 1, size + 1);
}

/* The copy of bytes[0 .. size) in use, with one user more, or a new one;
 * then old (0: none) has one user fewer. */
static UInt share(const UChar* bytes, SizeT size, UInt old)
{
   ULong hash = hash_bytes(bytes, size);
   SizeT slot = 0;   /* set by find_copy when it finds none */
   UInt copy;
   if (4 * (n_copies + n_gone + 1) > 3 * copy_slots) rebuild_copies();
   copy = find_copy(bytes, size, hash, &slot);
   if (copy) {
      UChar* users = at(copy) - 1;
      if (*users < USERS_FOREVER) (*users)++;
   } else {
      copy = bump(size + 1) + 1;
      at(copy)[-1] = 1;
      VG_(memcpy)(at(copy), bytes, size);
      put_copy(slot, copy, hash);
   }
   if (old) drop_user(old);
   return copy;
}

UInt cp_packed_encode(const ULong* dense, UInt len, UInt calls, UInt old)
{
   SizeT worst = 3 * 10 + (SizeT)len * 20;
   UChar* p;
   UInt i, n_nonzero = 0, gap = 0;
   if (worst > scratch_capacity) {
      scratch_capacity = worst > 4096 ? worst : 4096;
      scratch = cp_heap_realloc("cp.packed.scratch", scratch, scratch_capacity);
   }
   for (i = 0; i < len; i++) n_nonzero += dense[i] != 0;
   p = put_varint(scratch, len);
   p = put_varint(p, calls);
   p = put_varint(p, n_nonzero);
   for (i = 0; i < len; i++) {
      if (!dense[i]) {
         gap++;
         continue;
      }
      p = put_counter(p, gap, dense[i]);
      gap = 0;
   }
   return share(scratch, p - scratch, old);
}

UInt cp_packed_len(UInt packed)
{
   ULong len;
   get_varint(at(packed), &len);
   return (UInt)len;
}

UInt cp_packed_calls(UInt packed)
{
   ULong len, calls, n_nonzero;
   get_head(at(packed), &len, &calls, &n_nonzero);
   return (UInt)calls;
}

UInt cp_packed_nonzero(UInt packed)
{
   ULong len, calls, n_nonzero;
   get_head(at(packed), &len, &calls, &n_nonzero);
   return (UInt)n_nonzero;
}

void cp_packed_decode(UInt packed, ULong* dense)
{
   ULong len, calls, n_nonzero, gap, value, k;
   const UChar* p = get_head(at(packed), &len, &calls, &n_nonzero);
   UInt at = 0;
   VG_(memset)(dense, 0, len * sizeof(ULong));
   for (k = 0; k < n_nonzero; k++) {
      p = get_counter(p, &gap, &value);
      at += (UInt)gap;
      tl_assert(at < len);
      dense[at++] = value;
   }
}

UInt cp_packed_zeroed(UInt packed)
{
   UChar zeros[3 * 10];
   UChar* p = put_varint(zeros, cp_packed_len(packed));
   p = put_varint(p, 0);
   p = put_varint(p, 0);
   return share(zeros, p - zeros, packed);
}

const UChar* cp_packed_at(UInt packed)
{
   return at(packed);
}

SizeT cp_packed_bytes(void)
{
   return total_bytes;
}

SizeT cp_packed_released_bytes(void)
{
   return released_bytes;
}

SizeT cp_packed_copies(void)
{
   return n_copies;
}
