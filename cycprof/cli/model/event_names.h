/* Event names that mean the same thing in the two formats, so that
 * `--event` (and `--sort`) take either, and `diff` pairs a callgrind file
 * with a pprof file, or a RISC Zero guest profile with a cycprof zkVM
 * profile (docs/zkvm.md):
 *   - Ir (callgrind) and instructions (cycprof's pprof sample type);
 *   - Zk (callgrind), zkvm_cycles (cycprof's pprof sample type) and cycles
 *     (the one sample type of RISC Zero's guest profiles). */
#ifndef CYCPROF_EVENT_NAMES_H
#define CYCPROF_EVENT_NAMES_H

/* Same name, or two names of one event as above. */
int ev_alias(const char *a, const char *b);

/* The index of event `want` among names[0..n): the same name first, else
 * another name of it; -1 when neither. */
int ev_find(const char *const *names, int n, const char *want);

#endif
