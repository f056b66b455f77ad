/* cycprof: which objects Valgrind reads inline info for.
 *
 * The decision is a property of the object's file: does it hold a
 * .debug_info section of its own?  A program built with -g does; Debian's
 * libc does not, its DWARF is in libc6-dbg's separate file, which
 * Valgrind finds by build-id and whose compressed .debug_info it would
 * walk whole for the inline frames.  Each file is checked by reading its
 * ELF section headers: a file the program maps through the program's own
 * descriptor, with pread, which moves no offset and, unlike opening the
 * file again, keeps the program's fcntl locks on it. */
#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "cp_heap.h"
#include "cp_inline_info.h"
#include "cp_options.h"
#include "cp_sys.h"

/* Set by the core only for some tools. */
extern Bool VG_(clo_read_inline_info);

/* False: one setting holds for every object (the user's, or none). */
static Bool by_object;

/* The text of the object asked about last, and its answer.  A mapping
 * may put another object there, so each mmap forgets it. */
static Addr looked_up_start, looked_up_end;
static Bool looked_up_own;

static Bool read_at(Int fd, void* buf, Int count, ULong offset)
{
   return cp_sys_pread(fd, buf, count, offset) == count;
}

static ULong little_endian(const UChar* p, Int bytes)
{
   ULong v = 0;
   while (bytes-- > 0) v = (v << 8) | p[bytes];
   return v;
}

typedef enum { NotElf, NoOwnDwarf, OwnDwarf } DwarfAnswer;

/* Does the ELF file open at fd have a non-empty .debug_info (or the old
 * compressed .zdebug_info)?  Valgrind reads no debug info from a file
 * that is not ELF, and an ELF file that cannot be read through counts as
 * having its own: its inline info, if any, is read as before. */
static DwarfAnswer elf_dwarf(Int fd)
{
   UChar eh[64], *headers;
   HChar* names;
   Bool is64, found = False;
   ULong shoff, names_off, names_size;
   UInt shentsize, shnum, shstrndx, k;
   if (!read_at(fd, eh, 52, 0) || eh[0] != 0x7f || eh[1] != 'E'
       || eh[2] != 'L' || eh[3] != 'F')
      return NotElf;
   if (eh[5] != 1 /* little-endian */) return OwnDwarf;
   is64 = eh[4] == 2;
   if (is64 && !read_at(fd, eh, 64, 0)) return OwnDwarf;
   shoff = little_endian(eh + (is64 ? 0x28 : 0x20), is64 ? 8 : 4);
   shentsize = little_endian(eh + (is64 ? 0x3A : 0x2E), 2);
   shnum = little_endian(eh + (is64 ? 0x3C : 0x30), 2);
   shstrndx = little_endian(eh + (is64 ? 0x3E : 0x32), 2);
   if (shoff == 0 || shnum == 0 || shnum > 0xff00 || shstrndx >= shnum
       || shentsize < (is64 ? 64u : 40u))
      return NoOwnDwarf;
   headers = cp_heap_malloc("cp.inline.sh", (SizeT)shnum * shentsize);
   if (!read_at(fd, headers, shnum * shentsize, shoff)) {
      cp_heap_free(headers);
      return OwnDwarf;
   }
#define FIELD(k, off64, off32, bytes64, bytes32) \
   little_endian(headers + (SizeT)(k) * shentsize + (is64 ? (off64) : (off32)), \
                 is64 ? (bytes64) : (bytes32))
   names_off = FIELD(shstrndx, 0x18, 0x10, 8, 4);
   names_size = FIELD(shstrndx, 0x20, 0x14, 8, 4);
   if (names_size == 0 || names_size > (1u << 20)) {
      cp_heap_free(headers);
      return OwnDwarf;
   }
   names = cp_heap_malloc("cp.inline.names", names_size + 1);
   if (!read_at(fd, names, (Int)names_size, names_off)) {
      cp_heap_free(names);
      cp_heap_free(headers);
      return OwnDwarf;
   }
   names[names_size] = 0;
   for (k = 0; k < shnum && !found; k++) {
      ULong name = FIELD(k, 0, 0, 4, 4);
      ULong type = FIELD(k, 4, 4, 4, 4);
      ULong size = FIELD(k, 0x20, 0x14, 8, 4);
      if (type == 8 /* SHT_NOBITS */ || size == 0 || name >= names_size)
         continue;
      found = VG_(strcmp)(names + name, ".debug_info") == 0
              || VG_(strcmp)(names + name, ".zdebug_info") == 0;
   }
#undef FIELD
   cp_heap_free(names);
   cp_heap_free(headers);
   return found ? OwnDwarf : NoOwnDwarf;
}

/* path opened for reading if it is a regular file, else -1: O_NONBLOCK,
 * since opening a FIFO would wait for a writer. */
static Int open_regular(const HChar* path)
{
   SysRes r = VG_(open)(path, VKI_O_RDONLY | VKI_O_NONBLOCK, 0);
   struct vg_stat st;
   if (sr_isError(r)) return -1;
   if (VG_(fstat)(sr_Res(r), &st) == 0 && VKI_S_ISREG(st.mode))
      return sr_Res(r);
   VG_(close)(sr_Res(r));
   return -1;
}

/* The answer for a file open_regular opened, which it closes. */
static Bool own_dwarf_closing(Int fd)
{
   Bool own = elf_dwarf(fd) != NoOwnDwarf;
   VG_(close)(fd);
   return own;
}

static Bool path_has_own_dwarf(const HChar* path)
{
   Int fd = open_regular(path);
   return fd < 0 ? True : own_dwarf_closing(fd);
}

/* Objects are few: a list of their files' answers. */
typedef struct {
   HChar* path;
   Bool own;
} FileAnswer;

static FileAnswer* answers;
static UInt n_answers, answers_capacity;

static FileAnswer* find_answer(const HChar* path)
{
   UInt k;
   for (k = 0; k < n_answers; k++)
      if (VG_(strcmp)(answers[k].path, path) == 0) return &answers[k];
   return NULL;
}

static void remember_answer(const HChar* path, Bool own)
{
   FileAnswer* known = find_answer(path);
   if (known) {
      known->own = own;
      return;
   }
   if (n_answers == answers_capacity) {
      answers_capacity = answers_capacity ? 2 * answers_capacity : 16;
      answers = cp_heap_realloc("cp.inline.files", answers,
                                answers_capacity * sizeof *answers);
   }
   answers[n_answers].path = cp_heap_strdup("cp.inline.files", path);
   answers[n_answers++].own = own;
}

/* A file not mapped through the program (the program itself and ld.so,
 * which Valgrind maps) is opened by its path, as Valgrind does to read it. */
static Bool answer_for(const HChar* path)
{
   FileAnswer* known = find_answer(path);
   Bool own;
   if (known) return known->own;
   own = path_has_own_dwarf(path);
   remember_answer(path, own);
   return own;
}

/* The file the program maps through fd.  ld.so maps one file several
 * times in a row, so the last file's answer is kept; an ELF file's answer
 * is also kept by path, for Valgrind versions that read the file later. */
static Bool fd_has_own_dwarf(Int fd)
{
   static ULong last_dev, last_ino;
   static Bool last_own, have_last;
   struct vg_stat st;
   HChar link[64], path[4096];
   DwarfAnswer answer;
   SSizeT len;
   /* Only a regular file is read: on a device (DRM, say) a read may wait
    * or take what the program would have read. */
   if (VG_(fstat)(fd, &st) != 0 || !VKI_S_ISREG(st.mode)) return True;
   if (have_last && st.dev == last_dev && st.ino == last_ino) return last_own;
   answer = elf_dwarf(fd);
   last_own = answer != NoOwnDwarf;
   last_dev = st.dev;
   last_ino = st.ino;
   have_last = True;
   VG_(snprintf)(link, sizeof link, "/proc/self/fd/%d", fd);
   if (answer != NotElf
       && (len = VG_(readlink)(link, path, sizeof path - 1)) > 0) {
      path[len] = 0;
      remember_answer(path, last_own);
   }
   return last_own;
}

/* The program as Valgrind found it: a name without a slash is looked up
 * in PATH, as the shell and Valgrind's loader do. */
static Bool program_has_own_dwarf(const HChar* name)
{
   const HChar* dirs = VG_(getenv)("PATH");
   HChar path[4096];
   if (VG_(strchr)(name, '/') || !dirs) return path_has_own_dwarf(name);
   while (*dirs) {
      const HChar* end = VG_(strchr)(dirs, ':');
      SizeT len = end ? (SizeT)(end - dirs) : VG_(strlen)(dirs);
      Int fd;
      if (len == 0) path[len++] = '.';   /* an empty entry is the cwd */
      else if (len < sizeof path) VG_(memcpy)(path, dirs, len);
      else return True;
      VG_(snprintf)(path + len, sizeof path - len, "/%s", name);
      if ((fd = open_regular(path)) >= 0) return own_dwarf_closing(fd);
      if (!end) break;
      dirs = end + 1;
   }
   return True;
}

void cp_inline_info_before_options(void)
{
   VG_(clo_read_inline_info) = True;
}

void cp_inline_info_init(Bool instrumenting)
{
   /* The core parses --read-inline-info after cp_pre_clo_init has set the
    * global, so only the arguments tell whether the user chose. */
   if (cp_core_option_given("--read-inline-info=")) return;
   /* A run that starts uninstrumented measures a short region; reading
    * inline info would cost more than the region. */
   if (!instrumenting) {
      VG_(clo_read_inline_info) = False;
      return;
   }
   by_object = True;
   /* Valgrind 3.21 and before read the program (and ld.so with it)
    * before its first system call. */
   VG_(clo_read_inline_info) = program_has_own_dwarf(VG_(args_the_exename));
}

static Bool is_mmap(UInt sysno)
{
#if defined(__NR_mmap2)
   if (sysno == __NR_mmap2) return True;
#endif
#if defined(__NR_mmap) && !defined(VGP_x86_linux)
   /* x86's old mmap passes its arguments in memory; glibc uses mmap2. */
   if (sysno == __NR_mmap) return True;
#endif
   return False;
}

void cp_inline_info_pre_syscall(UInt sysno, UWord* args, UInt nargs)
{
   Int fd;
   if (!by_object || nargs < 5 || !is_mmap(sysno)) return;
   fd = (Int)args[4];
   looked_up_start = looked_up_end = 0;
   if (fd < 0 || (args[3] & VKI_MAP_ANONYMOUS)) return;
   VG_(clo_read_inline_info) = fd_has_own_dwarf(fd);
}

void cp_inline_info_before_lookup(Addr a)
{
   const DebugInfo* di;
   const HChar* path;
   if (!by_object) return;
   if (a >= looked_up_start && a < looked_up_end) {
      VG_(clo_read_inline_info) = looked_up_own;
      return;
   }
   di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), a);
   if (!di || !(path = VG_(DebugInfo_get_filename)(di))) return;
   looked_up_own = answer_for(path);
   looked_up_start = VG_(DebugInfo_get_text_avma)(di);
   looked_up_end = looked_up_start + VG_(DebugInfo_get_text_size)(di);
   VG_(clo_read_inline_info) = looked_up_own;
}

void cp_inline_info_before_describe(void)
{
   if (by_object) VG_(clo_read_inline_info) = True;
}
