/* cycprof: buffered output files that appear completely or not at all. */
#ifndef CP_OUTFILE_H
#define CP_OUTFILE_H

#include "pub_tool_basics.h"

typedef struct OutFile OutFile;

/* Writes go to "<path>.tmp.<pid>"; cp_outfile_commit renames it to path. */
OutFile* cp_outfile_open(const HChar* path);
void     cp_outfile_printf(OutFile* f, const HChar* format, ...)
            PRINTF_CHECK(2, 3);
void     cp_outfile_puts(OutFile* f, const HChar* s);
/* n in decimal, then the character after (a separator). */
void     cp_outfile_put_u64(OutFile* f, ULong n, HChar after);
/* Flushes, closes and renames; False (and no file at path) on error. */
Bool     cp_outfile_commit(OutFile* f);
void     cp_outfile_abandon(OutFile* f);

/* 1234567 -> "1,234,567" in a static buffer (one of four, rotating). */
const HChar* cp_thousands(ULong n);

#endif
