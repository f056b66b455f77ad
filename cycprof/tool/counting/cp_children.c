/* cycprof: the (parent, edge) -> context table (cp_children.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "cp_addrmap.h"
#include "cp_children.h"
#include "cp_context_store.h"
#include "cp_hugemem.h"
#include "cp_tablesize.h"

#define BUCKET_SLOTS 12
#define CACHE_LINE   64

/* Slots fill in order: a bucket with a free slot ends a probe. */
typedef struct {
   UChar tag[BUCKET_SLOTS];   /* top byte of the key's hash */
   UInt  unused;
   UInt  id[BUCKET_SLOTS];    /* 0: free */
} Bucket;

STATIC_ASSERT(sizeof(Bucket) == CACHE_LINE);

/* The contexts found last, by their key's hash, in front of the table:
 * on a compiler most lookups find their key here, and the table is far
 * bigger than the caches.  A slot holds the context's id and 32 bits of
 * its key's hash: the context holds its key, and the caller reads the
 * context next anyway, but a slot of another key must not cost a read of
 * its context.  A miss here has already started loading the table's
 * bucket. */
#define RECENT_BITS 18
typedef struct {
   UInt hash_bits;   /* the hash's upper half */
   UInt id;          /* 0: empty */
} Recent;
static Recent* recent;        /* carved: lives as long as the tool */

static Bucket* buckets;
static UWord   n_buckets, n_entries;   /* n_buckets: cp_tablesize.h */

UWord cp_children_hash(const Context* parent, UInt edge)
{
   return cp_hash_word(((UWord)parent << 16) ^ ((UWord)edge * 0x9e3779b1u));
}

static UChar tag_of(UWord hash)
{
   return (UChar)(hash >> 56);
}

static void make_buckets(UWord n)
{
   buckets = cp_hugemem_table("cp.ctx.children", n * sizeof(Bucket));
   n_buckets = n;
}

void cp_children_init(void)
{
   /* Carved, not a table of its own: a 2 MiB block from Valgrind's
    * allocator would be a mapping of its own, one more line in the
    * program's /proc/self/maps from the start (cp_hugemem.h). */
   if (!recent)
      recent = cp_hugemem_carve_aligned((1u << RECENT_BITS) * sizeof(Recent));
   else
      VG_(memset)(recent, 0, (1u << RECENT_BITS) * sizeof(Recent));
   make_buckets(1 << 8);
   n_entries = 0;
}

static Recent* recent_slot(UWord hash)
{
   return &recent[(hash >> 20) & ((1u << RECENT_BITS) - 1)];
}

static void remember(Recent* r, UWord hash, UInt id)
{
   r->hash_bits = (UInt)(hash >> 32);
   r->id = id;
}

static Bool has_key(const Context* c, const Context* parent, UInt edge)
{
   return c->edge == edge
          && c->parent_id && cp_context_at(c->parent_id) == parent;
}

/* A context made right after its parent, in the same chunk (the next
 * record), is that parent's first child, and the table leaves it out: it
 * is found beside the parent, whose record was just read.  A tree grown
 * depth first makes most contexts so (a region set's tree: all of them).
 * Grafts (roots with a parent) are never entered by key.  The record
 * after the last context made is zero, a root: no first-born. */
static Bool is_first_born(const Context* c)
{
   return c->kind != CtxRoot && c == cp_context_at(c->parent_id) + 1;
}

Context* cp_children_find(const Context* parent, UInt edge, UWord hash)
{
   UWord b = cp_tablesize_home(hash, n_buckets);
   UChar tag = tag_of(hash);
   Recent* r = recent_slot(hash);
   Context* c;
   __builtin_prefetch(&buckets[b]);
   if (r->id && r->hash_bits == (UInt)(hash >> 32)
       && has_key(c = cp_context_at(r->id), parent, edge))
      return c;
   /* Not remembered: beside its parent, it costs no more to find. */
   c = (Context*)parent + 1;
   if (c->kind != CtxRoot && has_key(c, parent, edge)) return c;
   for (;; b = cp_tablesize_after(b, n_buckets)) {
      const Bucket* bucket = &buckets[b];
      UInt k;
      for (k = 0; k < BUCKET_SLOTS; k++) {
         if (bucket->id[k] == 0) return NULL;
         if (bucket->tag[k] != tag) continue;
         c = cp_context_at(bucket->id[k]);
         if (has_key(c, parent, edge)) {
            remember(r, hash, bucket->id[k]);
            return c;
         }
      }
   }
}

static UWord key_hash(const Context* c)
{
   return cp_children_hash(cp_context_at(c->parent_id), c->edge);
}

static void put(UInt id, UWord hash)
{
   UWord b = cp_tablesize_home(hash, n_buckets);
   for (;; b = cp_tablesize_after(b, n_buckets)) {
      Bucket* bucket = &buckets[b];
      UInt k;
      for (k = 0; k < BUCKET_SLOTS; k++)
         if (bucket->id[k] == 0) {
            bucket->id[k] = id;
            bucket->tag[k] = tag_of(hash);
            return;
         }
   }
}

/* The entries of the old buckets into the new ones.  Each key is read
 * from its context and each lands in a bucket anywhere: both wait on
 * memory, so the contexts of the buckets a few ahead and the new buckets
 * of the next one are asked for early, and the waits overlap (a table
 * that grows to 600,000 entries moves about as many again). */
#define MOVE_AHEAD 4
static void move_entries(const Bucket* old, UWord old_n)
{
   UWord b;
   UInt k;
   for (b = 0; b < old_n; b++) {
      if (b + MOVE_AHEAD < old_n)
         for (k = 0; k < BUCKET_SLOTS && old[b + MOVE_AHEAD].id[k]; k++)
            __builtin_prefetch(cp_context_at(old[b + MOVE_AHEAD].id[k]));
      if (b + 1 < old_n)
         for (k = 0; k < BUCKET_SLOTS && old[b + 1].id[k]; k++)
            __builtin_prefetch(&buckets[cp_tablesize_home(
               key_hash(cp_context_at(old[b + 1].id[k])), n_buckets)]);
      for (k = 0; k < BUCKET_SLOTS && old[b].id[k]; k++)
         put(old[b].id[k], key_hash(cp_context_at(old[b].id[k])));
   }
}

/* At most 3/4 full: with 12 slots to a bucket, probes rarely leave the
 * first one. */
void cp_children_add(const Context* c, UInt id)
{
   UWord capacity = n_buckets * BUCKET_SLOTS, hash;
   if (is_first_born(c)) return;
   hash = key_hash(c);
   if (4 * (n_entries + 1) > 3 * capacity) {
      Bucket* old = buckets;
      UWord old_n = n_buckets;
      make_buckets(cp_tablesize_next(old_n));
      move_entries(old, old_n);
      cp_hugemem_table_free(old);
   }
   put(id, hash);
   n_entries++;
   remember(recent_slot(hash), hash, id);
}

ULong cp_children_bytes(void)
{
   return n_buckets * sizeof(Bucket)
          + (1u << RECENT_BITS) * sizeof(Recent);
}

void cp_children_free(void)
{
   cp_hugemem_table_free(buckets);
   buckets = NULL;
}
