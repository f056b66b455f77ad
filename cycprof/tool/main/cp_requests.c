/* cycprof: client requests.  Callgrind's and cachegrind's are
 * recognised by number, whatever headers the program was built with. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clreq.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_vki.h"
#include "cp_callstack.h"
#include "cp_collect.h"
#include "cp_context.h"
#include "cp_dump.h"
#include "cp_regions.h"
#include "cp_requests.h"
#define CYCPROF_NUMBERS_ONLY
#include "cycprof.h"   /* cycprof/include/, the header programs use */

/* callgrind.h */
#define CG_DUMP_STATS            VG_USERREQ_TOOL_BASE('C', 'T')
#define CG_ZERO_STATS            (CG_DUMP_STATS + 1)
#define CG_TOGGLE_COLLECT        (CG_DUMP_STATS + 2)
#define CG_DUMP_STATS_AT         (CG_DUMP_STATS + 3)
#define CG_START_INSTRUMENTATION (CG_DUMP_STATS + 4)
#define CG_STOP_INSTRUMENTATION  (CG_DUMP_STATS + 5)
/* cachegrind.h, Valgrind 3.22 and later */
#define CACHEGRIND_START         VG_USERREQ_TOOL_BASE('C', 'G')
#define CACHEGRIND_STOP          (CACHEGRIND_START + 1)

#define MAX_STRING 256
/* A request's own instruction count beyond this is not believed. */
#define MAX_OWN_INSTRS 64

/* Copies a NUL-terminated string from the client, readable page by page;
 * "(bad name)" when it is not. */
static void client_string(Addr a, HChar* buf, SizeT size)
{
   SizeT i;
   for (i = 0; i + 1 < size; i++) {
      if ((i == 0 || (a + i) % VKI_PAGE_SIZE == 0)
          && !VG_(am_is_valid_for_client)(a + i, 1, VKI_PROT_READ)) {
         VG_(strcpy)(buf, "(bad name)");
         return;
      }
      buf[i] = ((const HChar*)a)[i];
      if (!buf[i]) return;
   }
   buf[i] = 0;
}

/* args[2]: the request's own instruction count in the low byte, and
 * above it the name's length (0: NUL-terminated). */
static void exclude_own(ThreadId tid, UWord word)
{
   UWord own = word & 0xff;
   UInt serial = cp_context_tid(cp_callstack_root(tid));
   ULong mark;
   if (own == CYCPROF_OWN_SINCE_MARK) {
      ULong since = cp_running_take_mark(serial, &mark)
                       ? cp_running_thread(serial) - mark : ~0ULL;
      /* and, in advance, the instruction after the special sequence */
      if (since <= MAX_OWN_INSTRS) cp_running_exclude(serial, since + 1);
   } else if (own <= MAX_OWN_INSTRS) {
      cp_running_exclude(serial, own);
   }
}

/* A name given by address and length (Rust's &str): copied like a
 * NUL-terminated one, but never past its length. */
static void client_name(Addr a, UWord word, HChar* buf, SizeT size)
{
   SizeT len = (word >> 8) & 0xffff;
   if (len == 0) {
      client_string(a, buf, size);
      return;
   }
   if (len >= size) len = size - 1;
   if (!VG_(am_is_valid_for_client)(a, len, VKI_PROT_READ)) {
      VG_(strcpy)(buf, "(bad name)");
      return;
   }
   VG_(memcpy)(buf, (const HChar*)a, len);
   buf[len] = 0;
}

static Bool cycprof_request(ThreadId tid, UWord* args, UWord* ret)
{
   HChar name[MAX_STRING];
   *ret = 0;
   switch (args[0]) {
   case CYCPROF_REQ_COUNT:
   case CYCPROF_REQ_THREAD_COUNT:
      cp_running_need();
      exclude_own(tid, args[2]);
      *ret = args[0] == CYCPROF_REQ_COUNT
                ? cp_running_total()
                : cp_running_thread(cp_context_tid(cp_callstack_root(tid)));
      return True;
   case CYCPROF_REQ_MARK: {
      UInt serial = cp_context_tid(cp_callstack_root(tid));
      cp_running_need();
      exclude_own(tid, args[2]);
      /* The mark is the end of its sequence: the count here already
       * leaves out the one instruction after the special sequence. */
      cp_running_set_mark(serial, cp_running_thread(serial) + 1);
      return True;
   }
   case CYCPROF_REQ_REGION_BEGIN:
   case CYCPROF_REQ_REGION_END:
      cp_running_need();
      exclude_own(tid, args[2]);
      client_name(args[1], args[2], name, sizeof name);
      if (args[0] == CYCPROF_REQ_REGION_BEGIN)
         cp_region_begin(tid, name);
      else
         cp_region_end(tid, name);
      return True;
   }
   return False;
}

Bool cp_handle_client_request(ThreadId tid, UWord* args, UWord* ret)
{
   static Bool warned;
   HChar reason[MAX_STRING + 32];
   *ret = 0;
   /* Callgrind's requests: the superblock that ends in the request
    * counts in the state the request leaves, as in callgrind. */
   switch (args[0]) {
   case CG_DUMP_STATS:
   case CG_DUMP_STATS_AT:
      if (args[0] == CG_DUMP_STATS) {
         VG_(strcpy)(reason, "Client Request");
      } else {
         VG_(strcpy)(reason, "Client Request: ");
         client_string(args[1], reason + VG_(strlen)(reason), MAX_STRING);
      }
      cp_request_sb_recount(-1);
      cp_dump_part(reason);
      cp_request_sb_recount(+1);
      return True;
   case CG_ZERO_STATS:
      cp_dump_zero();
      cp_request_sb_recount(+1);
      return True;
   case CG_TOGGLE_COLLECT:
      cp_request_sb_recount(-1);
      cp_collect_toggle();
      cp_request_sb_recount(+1);
      return True;
   case CG_START_INSTRUMENTATION:
   case CACHEGRIND_START:
      cp_instr_set(tid, True, "client request");
      return True;
   case CG_STOP_INSTRUMENTATION:
   case CACHEGRIND_STOP:
      cp_request_sb_recount(-1);
      cp_instr_set(tid, False, "client request");
      return True;
   }
   if (cycprof_request(tid, args, ret)) return True;
   if (!warned) {
      warned = True;
      VG_(umsg)("cycprof: warning: client request 0x%lx (%c%c+%lu) is not "
                "one cycprof knows: ignored (this warning is shown once)\n",
                args[0], (HChar)((args[0] >> 24) & 0xff),
                (HChar)((args[0] >> 16) & 0xff), args[0] & 0xffff);
   }
   return True;
}
