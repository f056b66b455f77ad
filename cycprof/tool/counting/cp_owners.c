/* cycprof: functions as owners of dense counter arrays (see cp_owners.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "cp_addrmap.h"
#include "cp_keymap.h"
#include "cp_heap.h"
#include "cp_owners.h"


static AddrMap id_of_fn;   /* function entry -> owner id */
/* A key per superblock (cc1plus: 260,000): 32-bit values, 3/4 full. */
static KeyMap  owner_at;   /* superblock address -> its owner id */
static Owner*  owners;     /* [1 .. n_owners]; [0] is the root's */
static UInt    n_owners, owners_capacity;

static UInt new_owner(Addr fn)
{
   if (n_owners + 1 >= owners_capacity) {
      owners_capacity = owners_capacity ? 2 * owners_capacity : 64;
      owners = cp_heap_realloc("cp.owners", owners,
                            owners_capacity * sizeof(Owner));
   }
   n_owners++;
   owners[n_owners] = (Owner){ .fn = fn };
   return n_owners;
}

void cp_owners_init(void)
{
   cp_addrmap_init(&id_of_fn, 256);
   cp_keymap_init(&owner_at, 256);
   new_owner(0);   /* id 1: code run before a thread's first frame */
}

UInt cp_owner_id(Addr fn)
{
   UWord* known;
   UInt id;
   if (fn == 0) return 1;
   known = cp_addrmap_find(&id_of_fn, fn);
   if (known) return *known;
   id = new_owner(fn);
   cp_addrmap_put(&id_of_fn, fn, id);
   return id;
}

UInt cp_owner_of_frame(Addr fn)
{
   UInt* entry = fn ? cp_keymap_find(&owner_at, fn) : NULL;
   return entry ? *entry : cp_owner_id(fn);
}

UInt cp_owner_count(void)
{
   return n_owners;
}

const Owner* cp_owner(UInt id)
{
   tl_assert(id >= 1 && id <= n_owners);
   return &owners[id];
}

void cp_owner_take(UInt id, SBInfo* sb)
{
   Owner* o;
   tl_assert(id >= 1 && id <= n_owners);
   if (owners[id].n_counters + sb->n_exits > CP_OWNER_MAX_COUNTERS)
      id = new_owner(owners[id].fn);
   o = &owners[id];
   sb->owner = id;
   {
      Bool added;
      UInt* at = cp_keymap_slot(&owner_at, sb->addr, &added);
      if (added) *at = id;
   }
   sb->local = o->n_counters;
   if (o->n_counters + sb->n_exits > o->counters_capacity) {
      o->counters_capacity = 2 * (o->n_counters + sb->n_exits);
      o->sb_at = cp_heap_realloc("cp.owners.sbat", o->sb_at,
                              o->counters_capacity * sizeof(UInt));
   }
   while (o->n_counters < sb->local + sb->n_exits)
      o->sb_at[o->n_counters++] = sb->id;
}

void cp_owner_note_len(UInt id, UInt len)
{
   Owner* o;
   tl_assert(id >= 1 && id <= n_owners);
   o = &owners[id];
   o->typical_len = o->typical_len ? (o->typical_len + len) / 2 : len;
}
