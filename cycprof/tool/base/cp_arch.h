/* cycprof: what the shadow stack must know about the guest architecture.
 *
 * x86 calls push the return address: a callee's frame starts one slot
 * below every frame of its caller, and a return always raises SP above
 * it.  arm64 calls (BL, BLR) leave it in the link register: a callee
 * starts at its caller's SP, and a leaf returns with SP unchanged, so
 * a return is recognised by where it goes (cp_on_link_return). */
#ifndef CP_ARCH_H
#define CP_ARCH_H

#include "pub_tool_basics.h"

/* CP_GUARDED_STORES: whether the host back end compiles a guarded
 * store (IRStmt_StoreG); arm64's does not, so there a conditional store
 * is a select and an unconditional store, one load more. */
#if defined(VGA_arm64)
#  define CP_CALL_PUSHES_RETURN 0
#  define CP_CALL_INSN_BYTES    4   /* a call returns to its address + 4 */
#  define CP_GUARDED_STORES     0
#else
#  define CP_CALL_PUSHES_RETURN 1
#  define CP_CALL_INSN_BYTES    0   /* unused: returns are found by SP */
#  define CP_GUARDED_STORES     1
#endif

/* A PLT stub recognised by its code, where Valgrind does not say which
 * section an address lies in. */
Bool cp_arch_is_plt_stub(Addr a);

/* Whether the instruction at a, which ends a superblock Valgrind marks as
 * a call (Ijk_Call), really calls.  The arm64 front end marks a plain `B`
 * (a jump: inside a function, or a tail call) as a call too; only BL and
 * BLR leave a return address in the link register. */
Bool cp_arch_insn_calls(Addr a);

#endif
