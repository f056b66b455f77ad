/* cycprof: buffered output files, written where the user pointed: a
 * regular file (through any symlinks) appears completely or not at all,
 * by a rename; a device, FIFO or /dev/stdout is written in place. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "cp_options.h"
#include "cp_outfile.h"
#include "cp_sys.h"

#define BUF_BYTES (64 * 1024)

struct OutFile {
   Int    fd;
   Bool   failed;
   Bool   in_place;
   UInt   used;
   ULong  written;
   ULong  max_bytes;     /* 0: no limit */
   ULong  deadline_ms;   /* cp_sys_now_ms() limit, 0: none */
   HChar* path;
   HChar* tmp_path;
   HChar  buf[BUF_BYTES];
};

static HChar last_error[300];
static OutLimit last_limit;

const HChar* cp_outfile_error(void)
{
   return last_error;
}

OutLimit cp_outfile_limit_hit(void)
{
   return last_limit;
}

static void set_errno_error(UWord err)
{
   VG_(snprintf)(last_error, sizeof last_error, "%s", cp_sys_strerror(err));
}

static Bool starts_with(const HChar* s, const HChar* prefix)
{
   return VG_(strncmp)(s, prefix, VG_(strlen)(prefix)) == 0;
}

/* /dev/stdout, /dev/fd/N and /proc/.../fd/N name an open file of this
 * process: reopening them reaches that file, renaming over them would
 * replace a link. */
static Bool names_open_file(const HChar* s)
{
   return starts_with(s, "/proc/") || starts_with(s, "/dev/fd/");
}

#define MAX_LINK_HOPS 40

Bool cp_outtarget_resolve(const HChar* path, OutTarget* t)
{
   HChar* cur = VG_(strdup)("cp.outfile.target", path);
   HChar link[4096];
   struct vg_stat st;
   UInt hops;
   SysRes sr;
   t->in_place = names_open_file(path);
   for (hops = 0; !t->in_place; hops++) {
      SSizeT n = VG_(readlink)(cur, link, sizeof link - 1);
      SizeT len;
      HChar* next;
      if (n < 0) break;
      if (hops == MAX_LINK_HOPS) {
         VG_(free)(cur);
         set_errno_error(VKI_ELOOP);
         return False;
      }
      link[n] = 0;
      if (names_open_file(link)) {
         t->in_place = True;
         break;
      }
      len = VG_(strlen)(cur) + n + 2;
      next = VG_(malloc)("cp.outfile.target", len);
      if (link[0] == '/')
         VG_(strcpy)(next, link);
      else
         VG_(snprintf)(next, len, "%s/%s", VG_(dirname)(cur), link);
      VG_(free)(cur);
      cur = next;
   }
   sr = VG_(stat)(cur, &st);
   if (!sr_isError(sr) && VKI_S_ISDIR(st.mode)) {
      VG_(free)(cur);
      set_errno_error(VKI_EISDIR);
      return False;
   }
   if (!sr_isError(sr) && !VKI_S_ISREG(st.mode)) t->in_place = True;
   t->path = cur;
   return True;
}

void cp_outtarget_free(OutTarget* t)
{
   VG_(free)(t->path);
   t->path = NULL;
}

/* Why no file can be created beside target (err: an errno value). */
static void set_folder_error(const HChar* target, Int err)
{
   const HChar* dir = VG_(dirname)(target);
   if (err == VKI_ENOENT)
      VG_(snprintf)(last_error, sizeof last_error,
                    "the folder %s does not exist", dir);
   else
      VG_(snprintf)(last_error, sizeof last_error,
                    "cannot create a file in %s: %s", dir,
                    cp_sys_strerror(err));
}

/* The file the exit writes first, made and removed: what fails now
 * (a missing folder, no permission, a read-only file system) would fail
 * then. */
static Bool can_create_beside(const HChar* target)
{
   SizeT n = VG_(strlen)(target) + 32;
   HChar* probe = VG_(malloc)("cp.outfile.probe", n);
   Int fd;
   VG_(snprintf)(probe, n, "%s.tmp.%d", target, VG_(getpid)());
   fd = cp_sys_create_new(probe);
   if (fd >= 0) {
      VG_(close)(fd);
      VG_(unlink)(probe);
   } else {
      set_folder_error(target, -fd);
   }
   VG_(free)(probe);
   return fd >= 0;
}

/* A name written in place (/dev/stdout, /proc/self/fd/1) is opened, never
 * created: it must be there. */
static Bool exists_in_place(const HChar* target)
{
   struct vg_stat st;
   SysRes sr = VG_(stat)(target, &st);
   if (sr_isError(sr)) set_errno_error(sr_Err(sr));
   return !sr_isError(sr);
}

Bool cp_outtarget_check(const HChar* path, OutTarget* t)
{
   SizeT n = VG_(strlen)(path);
   struct vg_stat st;
   if (n > 0 && path[n - 1] == '/') {
      VG_(snprintf)(last_error, sizeof last_error,
                    "the name ends in '/' (name a file, not a folder)");
      return False;
   }
   if (!sr_isError(VG_(stat)(path, &st)) && VKI_S_ISDIR(st.mode)) {
      VG_(snprintf)(last_error, sizeof last_error,
                    "it is a folder (name a file in it)");
      return False;
   }
   if (!cp_outtarget_resolve(path, t)) return False;
   if (t->in_place ? exists_in_place(t->path) : can_create_beside(t->path))
      return True;
   cp_outtarget_free(t);
   return False;
}

static void release(OutFile* f)
{
   VG_(free)(f->path);
   VG_(free)(f->tmp_path);
   VG_(free)(f);
}

OutFile* cp_outfile_open(const HChar* path)
{
   OutTarget t;
   OutFile* f;
   Int fd;
   last_limit = CP_OUT_NO_LIMIT;
   if (!cp_outtarget_resolve(path, &t)) return NULL;
   f = VG_(calloc)("cp.outfile", 1, sizeof(OutFile));
   f->path = t.path;
   f->in_place = t.in_place;
   if (t.in_place) {
      fd = cp_sys_open_in_place(f->path);
   } else {
      SizeT n = VG_(strlen)(f->path) + 32;
      f->tmp_path = VG_(malloc)("cp.outfile.tmp", n);
      VG_(snprintf)(f->tmp_path, n, "%s.tmp.%d", f->path, VG_(getpid)());
      fd = cp_sys_create_new(f->tmp_path);
   }
   if (fd == -VKI_ENXIO && t.in_place) {
      VG_(snprintf)(last_error, sizeof last_error,
                    "nothing reads from it (a FIFO without a reader)");
      release(f);
      return NULL;
   }
   if (fd < 0) {
      set_errno_error(-fd);
      release(f);
      return NULL;
   }
   f->fd = fd;
   return f;
}

void cp_outfile_set_limits(OutFile* f, ULong max_bytes, ULong deadline_ms)
{
   f->max_bytes = max_bytes;
   f->deadline_ms = deadline_ms;
}

Bool cp_outfile_failed(const OutFile* f)
{
   return f->failed;
}

static void fail(OutFile* f, const HChar* why)
{
   if (f->failed) return;
   f->failed = True;
   VG_(snprintf)(last_error, sizeof last_error, "%s", why);
}

/* A FIFO or pipe whose reader stopped reading (or a terminal held by
 * ^S) would keep the program from ever exiting: wait for it at most
 * --out-stall-limit seconds without progress.  False when that ran out. */
static Bool wait_for_reader(OutFile* f)
{
   Int limit_s = cp_opts.out_stall_limit;
   ULong deadline = cp_sys_now_ms() + (ULong)limit_s * 1000;
   for (;;) {
      Int left = -1, r;
      if (limit_s > 0) {
         ULong now = cp_sys_now_ms();
         if (now >= deadline) break;
         left = (Int)(deadline - now);
      }
      r = cp_sys_wait_writable(f->fd, left);
      if (r == 1) return True;
      if (r < 0 && r != -VKI_EINTR) return True; /* the write says why */
   }
   VG_(snprintf)(last_error, sizeof last_error, "nothing read from it for "
                 "%d s (--out-stall-limit); the rest is not written", limit_s);
   f->failed = True;
   return False;
}

static void flush(OutFile* f)
{
   UInt done = 0;
   if (f->max_bytes && f->written + f->used > f->max_bytes
       && !f->failed) {
      fail(f, "it would pass the size limit");
      last_limit = CP_OUT_SIZE_LIMIT;
   }
   if (f->deadline_ms && cp_sys_now_ms() > f->deadline_ms && !f->failed) {
      fail(f, "the time limit ran out");
      last_limit = CP_OUT_TIME_LIMIT;
   }
   while (done < f->used && !f->failed) {
      Int n = VG_(write)(f->fd, f->buf + done, f->used - done);
      if (n == -VKI_EAGAIN && f->in_place) {
         wait_for_reader(f);
      } else if (n < 0) {
         set_errno_error(-n);
         f->failed = True;
      } else if (n == 0) {
         fail(f, cp_sys_strerror(VKI_ENOSPC));
      } else {
         done += n;
      }
   }
   f->written += done;
   f->used = 0;
}

static void sink(HChar c, void* opaque)
{
   OutFile* f = opaque;
   if (f->used == BUF_BYTES) flush(f);
   f->buf[f->used++] = c;
}

static void put_bytes(OutFile* f, const HChar* s, UInt n)
{
   while (n > 0) {
      UInt room = BUF_BYTES - f->used, k = n < room ? n : room;
      VG_(memcpy)(f->buf + f->used, s, k);
      f->used += k;
      s += k;
      n -= k;
      if (f->used == BUF_BYTES) flush(f);
   }
}

/* Records are short: format them whole, and only fall back to the
 * per-character printer for long ones (names, command lines). */
void cp_outfile_printf(OutFile* f, const HChar* format, ...)
{
   HChar line[512];
   va_list args;
   UInt n;
   va_start(args, format);
   n = VG_(vsnprintf)(line, sizeof line, format, args);
   va_end(args);
   if (n < sizeof line - 1) {
      put_bytes(f, line, n);
      return;
   }
   va_start(args, format);
   VG_(vcbprintf)(sink, f, format, args);
   va_end(args);
}

void cp_outfile_puts(OutFile* f, const HChar* s)
{
   put_bytes(f, s, VG_(strlen)(s));
}

/* The bulk of a profile is numbers: printed here without the generic
 * formatter, which took a tenth of writing the stacks dump. */
void cp_outfile_put_u64(OutFile* f, ULong n, HChar after)
{
   HChar digits[24];
   UInt i = sizeof digits;
   digits[--i] = after;
   do {
      digits[--i] = (HChar)('0' + n % 10);
      n /= 10;
   } while (n);
   put_bytes(f, digits + i, sizeof digits - i);
}

const HChar* cp_outfile_writing_path(const OutFile* f)
{
   return f->in_place ? f->path : f->tmp_path;
}

Bool cp_outfile_commit(OutFile* f)
{
   Bool ok;
   Int err;
   flush(f);
   VG_(close)(f->fd);
   ok = !f->failed;
   if (ok && !f->in_place) {
      err = cp_sys_rename(f->tmp_path, f->path);
      if (err) {
         set_errno_error(err);
         ok = False;
      }
   }
   if (!ok && !f->in_place) VG_(unlink)(f->tmp_path);
   release(f);
   return ok;
}

const HChar* cp_thousands(ULong n)
{
   static HChar bufs[4][32];
   static UInt next;
   HChar digits[24];
   HChar* out = bufs[next++ % 4];
   Int len = VG_(sprintf)(digits, "%llu", n), i, o = 0;
   for (i = 0; i < len; i++) {
      if (i > 0 && (len - i) % 3 == 0) out[o++] = ',';
      out[o++] = digits[i];
   }
   out[o] = 0;
   return out;
}
