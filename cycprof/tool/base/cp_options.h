/* cycprof: command-line options of the tool (documented in docs/options.md). */
#ifndef CP_OPTIONS_H
#define CP_OPTIONS_H

#include "pub_tool_basics.h"

typedef struct {
   const HChar* out_file;        /* --cycprof-out-file, may hold %p, %q{VAR} */
   Bool         pprof;           /* --pprof */
   Bool         pprof_by_line;   /* --pprof-granularity=line (else instr) */
   const HChar* pprof_out_file;  /* --pprof-out-file, NULL: out_file + .pb.gz */
   const HChar* helper;          /* --cycprof-helper, NULL: search */
   const HChar* firefox_out_file; /* --firefox-out-file, NULL: none */
   Bool         fold_recursion;  /* --fold-recursion */
   Bool         dump_instr;      /* --dump-instr */
   Bool         keep_stacks;     /* --keep-stacks */
   Int          top;             /* --top=N, 0: no table */
   Int          pprof_time_limit;  /* --pprof-time-limit, seconds */
   Int          pprof_max_dump_mb; /* --pprof-max-dump, MiB */
   Int          pprof_max_samples; /* --pprof-max-samples, 0: no limit,
                                   * -1: not given (cp_pprof_max_samples) */
   Int          out_stall_limit;   /* --out-stall-limit, seconds, 0: none */
   Int          pack_cold_kb;      /* --pack-cold-counters, KiB, 0: never */
} CpOptions;

extern CpOptions cp_opts;

Bool cp_process_option(const HChar* arg);
void cp_print_usage(void);
/* The sample limit handed to the helper: --pprof-max-samples, or when not
 * given 250000 at line granularity and none at instr granularity (whose
 * point is one location per address). */
Int  cp_pprof_max_samples(void);
void cp_print_debug_usage(void);
/* Whether one of Valgrind's own arguments (command line, VALGRIND_OPTS,
 * .valgrindrc) starts with prefix, e.g. "--vgdb=": the core's options
 * have no "given" flag of their own. */
Bool cp_core_option_given(const HChar* prefix);

#endif
