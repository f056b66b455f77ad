/* cycprof's x86-linux twin: the whole tool for 32-bit programs.
 *
 * cycprof keys its tables on 64-bit words and reads a 64-bit stack pointer
 * (docs/building.md), so it profiles amd64 and arm64 programs only.  Debian's
 * Valgrind runs a 32-bit program on amd64 with the tool's x86-linux twin;
 * without one, the user would read "failed to start tool" and think the
 * install broken.  This twin starts, accepts every cycprof option so that
 * the message is about the program and not an option, says why it cannot
 * profile it in one line, and exits non-zero before the program runs. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_tooliface.h"
#include "cp_details.h"

static Bool accept_any_option(const HChar* arg)
{
   (void)arg;
   return True;
}

static void refuse_32bit_program(void)
{
   VG_(fmsg)("cycprof: 32-bit x86 programs are not supported; "
             "cycprof profiles 64-bit amd64 and arm64 programs\n");
   VG_(exit)(1);
}

static IRSB* never_instrument(VgCallbackClosure* closure, IRSB* in,
                              const VexGuestLayout* layout,
                              const VexGuestExtents* vge,
                              const VexArchInfo* archinfo_host,
                              IRType gWordTy, IRType hWordTy)
{
   (void)closure; (void)layout; (void)vge; (void)archinfo_host;
   (void)gWordTy; (void)hWordTy;
   return in;
}

static void nothing_to_write(Int exitcode)
{
   (void)exitcode;
}

static void cp_guest32_pre_clo_init(void)
{
   cp_details_describe_tool();
   VG_(basic_tool_funcs)(refuse_32bit_program, never_instrument,
                         nothing_to_write);
   VG_(needs_command_line_options)(accept_any_option, NULL, NULL);
}

VG_DETERMINE_INTERFACE_VERSION(cp_guest32_pre_clo_init)
