/* cycprof: the zkVM models, one table row each (cp_zkmodel.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_options.h"
#include "cp_zkmodel.h"

/* RISC Zero 3.0.5, the rv32im circuit.  Each figure as the source writes
 * it (file, constant), so that a reader can check it against the tag. */
static const CpZkModel risc0_v3 = {
   .name   = "risc0",
   .source = "risc0/risc0 v3.0.5: risc0/circuit/rv32im/src/execute/"
             "{pager,platform,executor}.rs, risc0/circuit/rv32im/src/lib.rs",
   .page_bytes = 1024,                    /* platform.rs PAGE_BYTES */
   .addr_bits  = 32,                      /* platform.rs MEMORY_BYTES 1<<32 */
   .user_start = 0x00010000,              /* platform.rs USER_START_ADDR */
   .user_end   = 0xc0000000,              /* platform.rs USER_END_ADDR */
   /* pager.rs PAGE_CYCLES: POSEIDON_PAGING + 10 * POSEIDON_PAGE_ROUNDS
    * + POSEIDON_DO_OUT = 1 + 10 * (256 words / 8) + 1 */
   .page_cycles = 1 + 10 * 32 + 1,
   /* pager.rs NODE_CYCLES: PAGING 1 + LOAD_IN 2 + EXTERNAL 8 + INTERNAL 1
    * + DO_OUT 1 */
   .node_cycles = 1 + 2 + 8 + 1 + 1,
   .fetch_loads    = True,    /* rv32im.rs step: ctx.load_memory(pc) */
   .store_pages_in = True,    /* pager.rs page_for_writing: page_in first */
   /* r0vm.rs resume loads SUSPEND_PC_ADDR, executor.rs resume stores at
    * GLOBAL_INPUT_ADDR: both in the page of MACHINE_REGS_ADDR */
   .start_page     = 0xffff0000,
   /* platform.rs RESERVED_CYCLES: LOOKUP_TABLE_CYCLES ((1<<8) + (1<<16))
    * / 16 + CONTROL_DONE_CYCLES 1 */
   .reserved_cycles = ((1 << 8) + (1 << 16)) / 16 + 1,
   /* pager.rs RESERVED_PAGING_CYCLES: LOAD_ROOT 1 + POSEIDON_ENTRY 1
    * + POSEIDON_PAGING 1 + RESUME 2 + SUSPEND 2 + POSEIDON_ENTRY 1
    * + POSEIDON_PAGING 1 + STORE_ROOT 1 */
   .reserved_paging_cycles = 1 + 1 + 1 + 2 + 2 + 1 + 1 + 1,
   .max_insn_cycles       = 25000,        /* lib.rs MAX_INSN_CYCLES */
   .max_insn_cycles_lower = 2000,         /* lib.rs MAX_INSN_CYCLES_LOWER_PO2 */
   .lower_po2   = 15,       /* zkvm host/server/exec/executor.rs: po2 >= 15 */
   .po2_min     = 13,       /* risc0-zkp lib.rs MIN_CYCLES_PO2 */
   .po2_max     = 24,       /* risc0-zkp lib.rs MAX_CYCLES_PO2 */
   .po2_default = 20,       /* execute/mod.rs DEFAULT_SEGMENT_LIMIT_PO2 */
};

static const CpZkModel* const models[] = { &risc0_v3 };

const CpZkModel* cp_zk_model = NULL;
UInt cp_zk_po2 = 0;
static Bool po2_given = False;

/* The model named name, NULL if there is none. */
static const CpZkModel* model_named(const HChar* name)
{
   UInt i;
   for (i = 0; i < sizeof models / sizeof models[0]; i++)
      if (VG_(strcmp)(models[i]->name, name) == 0) return models[i];
   return NULL;
}

UInt cp_zk_tree_depth(const CpZkModel* m)
{
   UInt page_bits = 0;
   while ((1u << page_bits) < m->page_bytes) page_bits++;
   return m->addr_bits - page_bits;
}

UInt cp_zk_max_insn_cycles(const CpZkModel* m, UInt po2)
{
   return po2 >= m->lower_po2 ? m->max_insn_cycles : m->max_insn_cycles_lower;
}

Bool cp_zk_option(const HChar* arg)
{
   const HChar* name;
   Int po2;
   if VG_STR_CLO(arg, "--zk-model", name) {
      if (VG_(strcmp)(name, "none") == 0) cp_zk_model = NULL;
      else if (!(cp_zk_model = model_named(name)))
         VG_(fmsg_bad_option)(arg, "--zk-model takes 'none' or 'risc0', "
                              "not '%s'\n", name);
   } else if VG_BINT_CLO(arg, "--zk-segment-po2", po2,
                         (Int)risc0_v3.po2_min, (Int)risc0_v3.po2_max) {
      cp_zk_po2 = (UInt)po2;
      po2_given = True;
   } else {
      return False;
   }
   return True;
}

/* After start-up Valgrind's bad-option message does not stop the run. */
static void refuse_po2(const HChar* why)
{
   VG_(fmsg_bad_option)("--zk-segment-po2", "%s\n", why);
   VG_(exit)(1);
}

void cp_zk_check_options(void)
{
   if (!cp_zk_model) {
      if (po2_given) refuse_po2("--zk-segment-po2 needs --zk-model=risc0");
      return;
   }
   if (!po2_given) cp_zk_po2 = cp_zk_model->po2_default;
   if (cp_zk_po2 < cp_zk_model->po2_min || cp_zk_po2 > cp_zk_model->po2_max)
      refuse_po2("--zk-segment-po2 is out of the model's range");
}

void cp_zk_print_usage(void)
{
   VG_(printf)(
"    --zk-model=none|risc0     also estimate the cycles of a zkVM guest:\n"
"                              RISC Zero 3.0.5's paging and segments [none]\n"
"    --zk-segment-po2=<N>      segments of 2^N cycles, 13 to 24 [20]\n"
   );
}
