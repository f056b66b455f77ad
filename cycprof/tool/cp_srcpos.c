/* cycprof: what the debug info says about a code address. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "cp_addrmap.h"
#include "cp_srcpos.h"
#include "cp_types.h"


const HChar* cp_pseudo_name(Addr a)
{
   static HChar buf[32];
   VG_(snprintf)(buf, sizeof buf, "<signal %d>",
                 (Int)(a - CP_SIGNAL_PSEUDO(0)));
   return buf;
}

/* The debug info hands out object, directory and file names as pointers
 * into its own tables, which stay put: remembering the id per pointer
 * saves joining and hashing the same strings hundreds of thousands of
 * times at exit.  So does a symbol's raw (mangled) name, which identifies
 * the function without demangling it again for each of its addresses
 * (cc1plus: most of the time spent naming a million addresses).
 * Direct-mapped, tied to one string table. */
#define NAME_CACHE_SIZE 4096

typedef struct {
   const HChar* dir;
   const HChar* file;
   UInt         id;
} CachedName;

typedef struct {
   const HChar* raw_name;
   UInt         id;
} CachedFunction;

static CachedName     name_cache[NAME_CACHE_SIZE];
static CachedFunction function_cache[NAME_CACHE_SIZE];
static const StrTab*  name_cache_table;

/* A later dump's table may get a freed one's address. */
void cp_srcpos_forget(void)
{
   name_cache_table = NULL;
}

static void caches_for(const StrTab* names)
{
   if (name_cache_table == names) return;
   VG_(memset)(name_cache, 0, sizeof name_cache);
   VG_(memset)(function_cache, 0, sizeof function_cache);
   name_cache_table = names;
}

static UInt cached_intern(StrTab* names, const HChar* dir, const HChar* file)
{
   UWord h = cp_hash_word((UWord)dir * 31 ^ (UWord)file)
             & (NAME_CACHE_SIZE - 1);
   CachedName* c = &name_cache[h];
   HChar path[4096];
   caches_for(names);
   if (c->id && c->dir == dir && c->file == file) return c->id;
   if (dir && dir[0]) {
      VG_(snprintf)(path, sizeof path, "%s/%s", dir, file);
      c->id = cp_strtab_intern(names, path);
   } else {
      c->id = cp_strtab_intern(names, file);
   }
   c->dir = dir;
   c->file = file;
   return c->id;
}

/* The demangled name comes from a reused buffer: it is interned at once,
 * and only its id kept. */
static UInt function_name_id(StrTab* names, DiEpoch ep, Addr a)
{
   const HChar *raw, *fn;
   CachedFunction* c;
   if (!VG_(get_fnname_raw)(ep, a, &raw))
      return cp_strtab_intern(names, VG_(get_fnname)(ep, a, &fn)
                                     ? fn : CP_UNKNOWN_NAME);
   caches_for(names);
   c = &function_cache[cp_hash_word((UWord)raw) & (NAME_CACHE_SIZE - 1)];
   if (c->id && c->raw_name == raw) return c->id;
   c->id = cp_strtab_intern(names, VG_(get_fnname)(ep, a, &fn)
                                   ? fn : CP_UNKNOWN_NAME);
   c->raw_name = raw;
   return c->id;
}

SrcPos cp_srcpos_of(StrTab* names, Addr a)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   const HChar *obj, *file, *dir;
   SrcPos p;
   p.line = 0;
   if (CP_IS_PSEUDO(a)) {
      p.obj = p.file = cp_strtab_intern(names, CP_UNKNOWN_NAME);
      p.fn = cp_strtab_intern(names, cp_pseudo_name(a));
      return p;
   }
   p.obj = VG_(get_objname)(ep, a, &obj)
           ? cached_intern(names, NULL, obj)
           : cp_strtab_intern(names, CP_UNKNOWN_NAME);
   /* Same file naming as cachegrind, so per-function keys compare. */
   if (VG_(get_filename_linenum)(ep, a, &file, &dir, &p.line))
      p.file = cached_intern(names, dir, file);
   else
      p.file = cp_strtab_intern(names, CP_UNKNOWN_NAME);
   p.fn = function_name_id(names, ep, a);
   return p;
}
