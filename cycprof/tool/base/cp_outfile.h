/* cycprof: buffered output files that appear completely or not at all. */
#ifndef CP_OUTFILE_H
#define CP_OUTFILE_H

#include "pub_tool_basics.h"

typedef struct OutFile OutFile;

/* Where a path leads: symlinks followed.  A regular file, or one that
 * does not exist yet, is written to "<path>.tmp.<pid>" and renamed into
 * place; anything else (a device, a FIFO, /dev/stdout) is written in
 * place, at its end, and never replaced. */
typedef struct {
   HChar* path;
   Bool   in_place;
} OutTarget;

/* False (see cp_outfile_error) for a directory or a symlink loop. */
Bool cp_outtarget_resolve(const HChar* path, OutTarget* t);
void cp_outtarget_free(OutTarget* t);

/* NULL on error (see cp_outfile_error). */
OutFile* cp_outfile_open(const HChar* path);
/* Writing stops (and the file fails) past max_bytes or once
 * cp_sys_now_ms() passes deadline_ms; 0: no limit. */
void     cp_outfile_set_limits(OutFile* f, ULong max_bytes,
                               ULong deadline_ms);
Bool     cp_outfile_failed(const OutFile* f);
/* Why the last open, write or commit of this process failed. */
const HChar* cp_outfile_error(void);
void     cp_outfile_printf(OutFile* f, const HChar* format, ...)
            PRINTF_CHECK(2, 3);
void     cp_outfile_puts(OutFile* f, const HChar* s);
/* n in decimal, then the character after (a separator). */
void     cp_outfile_put_u64(OutFile* f, ULong n, HChar after);
/* Writes out what is buffered, so that a reader of the file being
 * written (cp_outfile_writing_path) sees every whole record so far. */
void     cp_outfile_flush(OutFile* f);
/* The file written until commit: the temporary one, or the target. */
const HChar* cp_outfile_writing_path(const OutFile* f);
/* Flushes, closes and renames; False (and no file at path, unless it is
 * written in place) on error. */
Bool     cp_outfile_commit(OutFile* f);
void     cp_outfile_abandon(OutFile* f);

/* 1234567 -> "1,234,567" in a static buffer (one of four, rotating). */
const HChar* cp_thousands(ULong n);

#endif
