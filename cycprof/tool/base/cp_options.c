/* cycprof: command-line options of the tool. */
#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_options.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_xarray.h"
#include "cp_options.h"

CpOptions cp_opts = {
   .out_file       = "cycprof.out.%p",
   .pprof          = True,
   .pprof_by_line  = True,
   .pprof_out_file = NULL,
   .helper         = NULL,
   .fold_recursion = True,
   .dump_instr     = False,
   .keep_stacks    = False,
   .top            = 0,
   .pprof_time_limit  = 300,
   .pprof_max_dump_mb = 2048,
   .pprof_max_samples = -1,   /* 250000 at line granularity, else 0 */
   .out_stall_limit   = 300,
   .pack_cold_kb      = 12288,
};

Bool cp_process_option(const HChar* arg)
{
   const HChar* value;
   if      VG_STR_CLO(arg, "--cycprof-out-file", cp_opts.out_file) {}
   else if VG_BOOL_CLO(arg, "--pprof", cp_opts.pprof) {}
   else if VG_STR_CLO(arg, "--pprof-out-file", cp_opts.pprof_out_file) {}
   else if VG_XACT_CLO(arg, "--pprof-granularity=line",
                       cp_opts.pprof_by_line, True) {}
   else if VG_XACT_CLO(arg, "--pprof-granularity=instr",
                       cp_opts.pprof_by_line, False) {}
   else if VG_STR_CLO(arg, "--pprof-granularity", value)
      VG_(fmsg_bad_option)(arg, "--pprof-granularity takes 'line' or "
                           "'instr', not '%s'\n", value);
   else if VG_STR_CLO(arg, "--cycprof-helper", cp_opts.helper) {}
   else if VG_STR_CLO(arg, "--firefox-out-file", cp_opts.firefox_out_file) {}
   else if VG_BINT_CLO(arg, "--pprof-time-limit", cp_opts.pprof_time_limit,
                       1, 86400) {}
   else if VG_BINT_CLO(arg, "--pprof-max-dump", cp_opts.pprof_max_dump_mb,
                       1, 1 << 20) {}
   else if VG_BINT_CLO(arg, "--pprof-max-samples",
                       cp_opts.pprof_max_samples, 0, 1 << 30) {}
   else if VG_BINT_CLO(arg, "--out-stall-limit", cp_opts.out_stall_limit,
                       0, 86400) {}
   else if VG_BINT_CLO(arg, "--pack-cold-counters", cp_opts.pack_cold_kb,
                       0, 1 << 30) {}
   else if VG_BOOL_CLO(arg, "--fold-recursion", cp_opts.fold_recursion) {}
   else if VG_BOOL_CLO(arg, "--dump-instr", cp_opts.dump_instr) {}
   else if VG_BOOL_CLO(arg, "--keep-stacks", cp_opts.keep_stacks) {}
   else if VG_BINT_CLO(arg, "--top", cp_opts.top, 0, 100000) {}
   else return False;
   return True;
}

Int cp_pprof_max_samples(void)
{
   if (cp_opts.pprof_max_samples >= 0) return cp_opts.pprof_max_samples;
   return cp_opts.pprof_by_line ? 250000 : 0;
}

void cp_print_usage(void)
{
   VG_(printf)(
"    --cycprof-out-file=<f>    callgrind-format output file [cycprof.out.%%p]\n"
"    --pprof=no|yes            also write a pprof profile [yes]\n"
"    --pprof-out-file=<f>      pprof output file [<cycprof-out-file>.pb.gz]\n"
"    --pprof-granularity=line|instr  one pprof location per source line\n"
"                              (per function without line info) or per\n"
"                              instruction address [line]; inlined frames\n"
"                              for objects with DWARF of their own (all with\n"
"                              --read-inline-info=yes, none with =no)\n"
"    --firefox-out-file=<f>    also write a Firefox Profiler profile, from\n"
"                              the pprof one, at exit ('cycprof firefox';\n"
"                              gzipped when <f> ends in .gz) [none]\n"
"    --cycprof-helper=<path>   the userland 'cycprof' command that writes pprof\n"
"    --pprof-time-limit=<s>    stop writing the pprof profile after s seconds\n"
"                              (the stacks dump and the helper) [300]\n"
"    --pprof-max-dump=<MiB>    no pprof profile when the stacks dump handed\n"
"                              to the helper would be larger [2048]\n"
"    --pprof-max-samples=<N>   above N line-level samples, the pprof profile\n"
"                              is written per function (and the smallest\n"
"                              contexts merged into their callers if still\n"
"                              above N), so that pprof can read it; totals\n"
"                              and self costs stay exact; 0: no limit\n"
"                              [250000; 0 with --pprof-granularity=instr]\n"
"    --out-stall-limit=<s>     give up an output written in place (FIFO,\n"
"                              pipe, terminal) that takes nothing for s\n"
"                              seconds; 0 waits without end [300]\n"
"    --fold-recursion=no|yes   a call to a function already on the stack reuses\n"
"                              that frame's context (bounded memory) [yes]\n"
"    --pack-cold-counters=<KiB>  once counters take more than KiB, pack\n"
"                              those of contexts no frame is in (their\n"
"                              counts stay exact) [12288]; 0: never\n"
"    --dump-instr=no|yes       per-instruction positions in the callgrind file [no]\n"
"    --top=<N>                 print the N costliest functions at exit [0]\n"
"    --collect-atstart=no|yes  collect from the start [yes]\n"
"    --instr-atstart=no|yes    instrument from the start [yes]; off runs at\n"
"                              near --tool=none speed until a\n"
"                              START_INSTRUMENTATION request, and reads no\n"
"                              inline info unless --read-inline-info=yes\n"
"    --toggle-collect=<func>   toggle collection on entry/exit of func\n"
"                              (repeatable; * and ? match any characters)\n"
"    --sp1-markers=no|yes      SP1's 'cycle-tracker-start: NAME' lines on\n"
"                              stdout open and close regions [yes]\n"
   );
}

void cp_print_debug_usage(void)
{
   VG_(printf)(
"    --keep-stacks=no|yes      keep the stacks dump handed to 'cycprof pprof' [no]\n"
   );
}

Bool cp_core_option_given(const HChar* prefix)
{
   SizeT len = VG_(strlen)(prefix);
   Word i, n = VG_(sizeXA)(VG_(args_for_valgrind));
   for (i = 0; i < n; i++) {
      const HChar* arg = *(HChar**)VG_(indexXA)(VG_(args_for_valgrind), i);
      if (VG_(strncmp)(arg, prefix, len) == 0) return True;
   }
   return False;
}
