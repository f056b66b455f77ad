/* libFuzzer harness for the pprof reader (pprof_reader.c), its stack view
 * (pprof_stacks.c), the stack merging (stack_profile.c) and the flame
 * graph writer that consumes it, and for the pprof input of report/diff
 * (profile_costs.c, cost_rank.c).
 * Any input must either load or be rejected with an error message. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/cmdutil.h"
#include "analyse/cost_rank.h"
#include "write/flamegraph_svg.h"
#include "read/profile_costs.h"
#include "read/pprof_reader.h"
#include "read/pprof_stacks.h"
#include "model/stack_profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null;
    if (!null)
        null = fopen("/dev/null", "w");
    /* Keep decompression bombs within the fuzzer's memory limit. */
    pprof_max_bytes = (size_t)32 << 20;
    stack_profile_t sp;
    char err[CU_ERRLEN];
    sp_init(&sp);
    if (pprof_stacks_read_mem(&sp, "fuzz", data, size, err, sizeof err) < 0) {
        if (!err[0])
            __builtin_trap();
    } else {
        sp_sort_by_count(&sp);
        sp_sort_by_name(&sp);
        fg_opts_t o = {"t", sp.cmd, "instructions", 1200, 0.1};
        fg_write_svg(null, &sp, &o);
    }
    sp_free(&sp);

    cg_profile_t p;
    cg_init(&p);
    err[0] = 0;
    if (pc_add_pprof_mem(&p, "fuzz", data, size, err, sizeof err) < 0) {
        if (!err[0])
            __builtin_trap();
    } else {
        for (int by = BY_FUNCTION; by <= BY_OBJECT; by++) {
            rank_t r;
            rank_build(&p, (rank_by_t)by, by == BY_FUNCTION, &r);
            rank_free(&r);
        }
    }
    cg_free(&p);
    return 0;
}
