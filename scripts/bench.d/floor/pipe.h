/* cpfloor --floor=pipe: the least a design that leaves the calling
 * contexts to another core must do, measured whole.  The run keeps the
 * floor's stack and counters, adds a running count of instructions, and
 * sends each call (callee, call site, count) and each pop (count) through
 * a ring in shared memory to a forked reader on the other core.  The
 * reader builds the calling-context tree much as cycprof does (one context
 * per (parent, call site, callee); a call to an active function keeps the
 * current context, where cycprof enters a re-entry context) and charges
 * each context the instructions between its events.  At exit the run waits for the reader, so the wall time is the
 * pipeline's.  It keeps a total per context only: no cost per line. */
#ifndef FLOOR_PIPE_H
#define FLOOR_PIPE_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* --floor=running: only the running count; --floor=pipe: all of it. */
typedef enum { PipeOff, PipeRunningCount, PipeOn } PipeMode;
extern PipeMode pipe_mode;
/* --floor=pipe-check: the pipe, and at the start of every superblock a
 * check shaped like cycprof's (a word compared with the superblock's key,
 * a helper call if they differ) that never fires: what noticing at run
 * time that code of another function runs in a frame would add. */
extern Bool pipe_check;
void pipe_add_check(IRSB* out);
/* The running count the inline code adds each exit's instructions to. */
extern ULong pipe_running;

void pipe_init(void);
/* At translation: an id for the call at site (direct_target 0 when the
 * target is computed). */
UInt pipe_site(Addr site, Addr direct_target);
void pipe_call(UInt site_id, Addr target);
void pipe_pop(UInt frames);
/* Sends the end, waits for the reader and prints its figures. */
void pipe_finish(void);
/* The running count's code: at each side exit (n instructions before it,
 * of total in the superblock), and at the end. */
void pipe_count_side_exit(IRSB* out, UInt n, UInt total, IRExpr* taken,
                          Bool* counted);
void pipe_count_end(IRSB* out, UInt total, Bool counted);

#endif
