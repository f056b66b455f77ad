/* cycprof: tool registration, start-up and exit. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"
#include "cp_callstack.h"
#include "cp_cold.h"
#include "cp_collect.h"
#include "cp_context.h"
#include "cp_costs.h"
#include "cp_det.h"
#include "cp_det_syscalls.h"
#include "cp_details.h"
#include "cp_dump.h"
#include "cp_functions.h"
#include "cp_inline_info.h"
#include "cp_instrument.h"
#include "cp_options.h"
#include "cp_owners.h"
#include "cp_outfile.h"
#include "cp_regions.h"
#include "cp_requests.h"
#include "cp_sp1.h"
#include "cp_zkmodel.h"
#include "cp_zkpager.h"

/* Each module parses its own options: the general ones (cp_options.h),
 * what is collected when (cp_collect.h), SP1's markers (cp_sp1.h), the
 * deterministic machine (cp_det.h). */
static Bool process_option(const HChar* arg)
{
   return cp_process_option(arg) || cp_collect_option(arg)
          || cp_sp1_option(arg) || cp_det_option(arg)
          || cp_zk_option(arg);
}

static void print_usage(void)
{
   cp_print_usage();
   cp_det_print_usage();
   cp_zk_print_usage();
}

/* A forked child writes its own files, named with its own pid. */
static void cp_atfork_child(ThreadId tid)
{
   (void)tid;
   cp_det_after_fork();
   cp_dump_after_fork();
}

/* Valgrind takes one function per event: these pass each event to every
 * part that follows it. */
static void cp_pre_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nargs)
{
   cp_inline_info_pre_syscall(sysno, args, nargs);
   cp_sp1_pre_syscall(tid, sysno, args, nargs);
   cp_det_pre_syscall(tid, sysno, args, nargs);
}

static void cp_post_syscall(ThreadId tid, UInt sysno, UWord* args,
                            UInt nargs, SysRes res)
{
   cp_det_post_syscall(tid, sysno, args, nargs, res);
   cp_sp1_post_syscall(tid, sysno, args, nargs, res);
}

static void cp_thread_created(ThreadId parent, ThreadId child)
{
   cp_det_note_thread(parent, child);
   cp_regions_thread_created(parent, child);
}

static void cp_pre_signal(ThreadId tid, Int sig, Bool alt_stack)
{
   cp_det_note_signal(tid, sig);
   cp_callstack_pre_signal(tid, sig, alt_stack);
}

/* Today's Valgrind caps both options below CP_MAX_SB_INSTRS; a later one
 * that allowed more would otherwise stop the run at the first superblock
 * too long to describe. */
static void keep_within_superblock_bound(Int* value, const HChar* option)
{
   if (*value <= CP_MAX_SB_INSTRS) return;
   VG_(umsg)("cycprof: %s lowered to %d\n", option, CP_MAX_SB_INSTRS);
   *value = CP_MAX_SB_INSTRS;
}

/* For cp_cold_init: cp_context_owner is inline. */
static UInt context_owner(const Context* ctx)
{
   return cp_context_owner(ctx);
}

static void cp_post_clo_init(void)
{
   /* Chasing puts code of both branch arms into one superblock, which
    * breaks "one superblock = one straight run"; like callgrind, force it
    * off whatever the user asked. */
   VG_(clo_vex_control).guest_chase = False;
   keep_within_superblock_bound(&VG_(clo_vex_control).guest_max_insns,
                                "--vex-guest-max-insns");
   keep_within_superblock_bound(&VG_(clo_vex_control).iropt_unroll_thresh,
                                "--vex-iropt-unroll-thresh");
   cp_inline_info_init(cp_instr_on);
   cp_zk_check_options();
   if (cp_zk_model) cp_zk_init();
   cp_functions_init();
   cp_owners_init();
   cp_cold_init(context_owner, cp_callstack_mark_live_contexts);
   cp_context_init(cp_collect_new_context);
   cp_callstack_init();
   cp_dump_init();
   cp_det_init();
   VG_(atfork)(NULL, NULL, cp_atfork_child);
}

static void cp_fini(Int exitcode)
{
   (void)exitcode;
   cp_zk_finish();
   cp_dump_all();
}

static void cp_pre_clo_init(void)
{
   cp_details_describe_tool();
   VG_(details_avg_translation_sizeB)(300);

   cp_inline_info_before_options();
   /* Real names for _start and __libc_start_call_main in the stacks,
    * rather than "(below main)". */
   VG_(clo_show_below_main) = True;

   VG_(basic_tool_funcs)(cp_post_clo_init, cp_instrument, cp_fini);
   VG_(needs_command_line_options)(process_option, print_usage,
                                   cp_print_debug_usage);
   VG_(needs_client_requests)(cp_handle_client_request);
   VG_(needs_syscall_wrapper)(cp_pre_syscall, cp_post_syscall);
   VG_(track_start_client_code)(cp_collect_thread_switch);
   VG_(track_stop_client_code)(cp_det_blocks_done);
   VG_(track_pre_thread_ll_create)(cp_thread_created);
   VG_(track_pre_deliver_signal)(cp_pre_signal);
   VG_(track_post_deliver_signal)(cp_callstack_post_signal);
}

VG_DETERMINE_INTERFACE_VERSION(cp_pre_clo_init)
