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

/* Whether a file can be written at path, tried now (at start-up, long
 * before the exit writes it): a name ending in '/', a folder, a missing
 * folder and a folder that takes no new file give False, and the reason
 * in cp_outfile_error().  A regular target is tried by creating and
 * removing the file it would be written to first; a device or FIFO
 * is taken as it is, since a FIFO's reader may come later.  On True, *t
 * is the resolved target (cp_outtarget_free it). */
Bool cp_outtarget_check(const HChar* path, OutTarget* t);

/* NULL on error (see cp_outfile_error). */
OutFile* cp_outfile_open(const HChar* path);
/* Writing stops (and the file fails) past max_bytes or once
 * cp_sys_now_ms() passes deadline_ms; 0: no limit. */
void     cp_outfile_set_limits(OutFile* f, ULong max_bytes,
                               ULong deadline_ms);
Bool     cp_outfile_failed(const OutFile* f);
/* Why the last open, write or commit of this process failed. */
const HChar* cp_outfile_error(void);
/* Which limit of cp_outfile_set_limits made the last write fail, if one
 * did: the caller names its option only then. */
typedef enum { CP_OUT_NO_LIMIT, CP_OUT_SIZE_LIMIT, CP_OUT_TIME_LIMIT } OutLimit;
OutLimit cp_outfile_limit_hit(void);
void     cp_outfile_printf(OutFile* f, const HChar* format, ...)
            PRINTF_CHECK(2, 3);
void     cp_outfile_puts(OutFile* f, const HChar* s);
/* n in decimal, then the character after (a separator). */
void     cp_outfile_put_u64(OutFile* f, ULong n, HChar after);
/* The file written until commit: the temporary one, or the target. */
const HChar* cp_outfile_writing_path(const OutFile* f);
/* Flushes, closes and renames; False (and no file at path, unless it is
 * written in place) on error. */
Bool     cp_outfile_commit(OutFile* f);

/* 1234567 -> "1,234,567" in a static buffer (one of four, rotating). */
const HChar* cp_thousands(ULong n);

#endif
