/* cycprof: the IR the zkVM model adds to a superblock (cp_zkpager.h):
 * a call per instruction and per memory access, as cachegrind's
 * cg_main.c finds them.  Only with --zk-model (cp_instrument.c). */
#ifndef CP_ZKINSTR_H
#define CP_ZKINSTR_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* Before the statements of superblock in. */
void cp_zk_instrument_begin(const IRSB* in);
/* The calls for statement st of the input, added to out before st. */
void cp_zk_instrument_stmt(IRSB* out, const IRStmt* st);

#endif
