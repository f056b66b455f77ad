/* cycprof: buffered output files that appear completely or not at all. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "cp_outfile.h"

#define BUF_BYTES (64 * 1024)

struct OutFile {
   Int    fd;
   Bool   failed;
   UInt   used;
   HChar* path;
   HChar* tmp_path;
   HChar  buf[BUF_BYTES];
};

OutFile* cp_outfile_open(const HChar* path)
{
   SysRes sr;
   OutFile* f = VG_(malloc)("cp.outfile", sizeof(OutFile));
   SizeT n = VG_(strlen)(path) + 32;
   f->path = VG_(strdup)("cp.outfile.path", path);
   f->tmp_path = VG_(malloc)("cp.outfile.tmp", n);
   VG_(snprintf)(f->tmp_path, n, "%s.tmp.%d", path, VG_(getpid)());
   sr = VG_(open)(f->tmp_path, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                  VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP | VKI_S_IROTH);
   if (sr_isError(sr)) {
      VG_(free)(f->path);
      VG_(free)(f->tmp_path);
      VG_(free)(f);
      return NULL;
   }
   f->fd = sr_Res(sr);
   f->failed = False;
   f->used = 0;
   return f;
}

static void flush(OutFile* f)
{
   UInt done = 0;
   while (done < f->used && !f->failed) {
      Int n = VG_(write)(f->fd, f->buf + done, f->used - done);
      if (n <= 0) f->failed = True;
      else done += n;
   }
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

static void release(OutFile* f)
{
   VG_(free)(f->path);
   VG_(free)(f->tmp_path);
   VG_(free)(f);
}

Bool cp_outfile_commit(OutFile* f)
{
   Bool ok;
   flush(f);
   VG_(close)(f->fd);
   ok = !f->failed && VG_(rename)(f->tmp_path, f->path) == 0;
   if (!ok) VG_(unlink)(f->tmp_path);
   release(f);
   return ok;
}

void cp_outfile_abandon(OutFile* f)
{
   VG_(close)(f->fd);
   VG_(unlink)(f->tmp_path);
   release(f);
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
