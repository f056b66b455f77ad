/* cpfloor: the run half of a design that leaves the calling contexts to
 * another core (docs/benchmarks.md).  The run would only record what
 * happened, for a reader on the other core to replay; here nobody reads:
 * the buffers are dropped when full, so this is what recording costs.
 *   TraceWords  a 32-bit word per exit taken, call and pop
 *   TraceBits   a bit per conditional exit reached, and the target of each
 *               computed jump or call (direct jumps, direct calls and
 *               returns a reader can follow by itself) */
#ifndef FLOOR_TRACE_H
#define FLOOR_TRACE_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

typedef enum { TraceNone, TraceWords, TraceBits } TraceMode;
extern TraceMode trace_mode;

void trace_init(void);
void trace_report(void);
/* Events of the shadow stack (TraceWords records them). */
void trace_call(Addr target);
void trace_pop(void);
/* Copies in's statements to out with the recording code. */
void trace_superblock(IRSB* out, const IRSB* in);

#endif
