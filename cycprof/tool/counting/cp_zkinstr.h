/* cycprof: the IR the zkVM model adds to a superblock (cp_zkpager.h):
 * a compare at its entry, calls at the instructions that reach a new
 * code page and at loads and stores whose page is not known paged, and
 * the budget taken at its exits.  Only with --zk-model (cp_instrument.c). */
#ifndef CP_ZKINSTR_H
#define CP_ZKINSTR_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* Before the statements of superblock in. */
void cp_zk_instrument_begin(const IRSB* in);
/* The calls for statement st of the input, added to out before st. */
void cp_zk_instrument_stmt(IRSB* out, const IRStmt* st);
/* At an exit group, with the counters: the n_instrs instructions done
 * when leaving there leave the budget, if taken (NULL: always). */
void cp_zk_count_exit(IRSB* out, UInt n_instrs, IRExpr* taken);

#endif
