/* cycprof: --deterministic=yes, a machine that is the same on every run.
 *
 * The program's clocks, its entropy and its CPU number come from the tool:
 * a virtual clock that advances with the superblocks executed (and by the
 * timeouts of blocking calls that time out), and a generator seeded by
 * --det-seed.  What the tool cannot fix (a second thread, an asynchronous
 * signal, a read of /proc) is named in the log, once each.  Nothing here
 * runs on the instrumented path: the clock is read at system calls and at
 * rdtsc, and the block count comes from the scheduler.  See
 * docs/reproducible.md. */
#ifndef CP_DET_H
#define CP_DET_H

#include "pub_tool_basics.h"

extern Bool cp_det_on;

Bool cp_det_option(const HChar* arg);
void cp_det_print_usage(void);

/* After the options: seeds the generator and rewrites AT_RANDOM. */
void cp_det_init(void);
/* In a forked child: a stream of its own, the same on every run. */
void cp_det_after_fork(void);

/* "yes, seed N, epoch S" or "no", for the outputs' headers. */
const HChar* cp_det_describe(void);

/* The scheduler's count of superblocks run, at the end of each slice. */
void cp_det_blocks_done(ThreadId tid, ULong blocks_done);

/* Nanoseconds of virtual time since the run started; every read is one
 * nanosecond later than the one before. */
ULong cp_det_elapsed_ns(void);
/* A blocking call timed out: time moves on by ns, or up to elapsed ns. */
void  cp_det_advance_by(ULong ns);
void  cp_det_advance_to(ULong elapsed_ns);
/* Virtual realtime and monotonic clocks, in ns, as the program sees them. */
ULong cp_det_realtime_ns(void);
ULong cp_det_monotonic_ns(void);
ULong cp_det_epoch_ns(void);
ULong cp_det_monotonic_base_ns(void);

/* The next bytes of the run's stream of entropy. */
void  cp_det_fill(void* buf, SizeT n);
ULong cp_det_next64(void);

/* Sources the tool cannot make deterministic: one log line each. */
void cp_det_note_thread(ThreadId parent, ThreadId child);
void cp_det_note_signal(ThreadId tid, Int sig);
void cp_det_note_self_signal(Int sig);
void cp_det_note_proc_open(const HChar* path);

#endif
