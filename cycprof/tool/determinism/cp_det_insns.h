/* cycprof: --deterministic=yes for the instructions that read a clock or
 * the hardware's random numbers (cp_det_insns.c). */
#ifndef CP_DET_INSNS_H
#define CP_DET_INSNS_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* Points the calls VEX makes for rdtsc, rdtscp, rdrand, rdseed (amd64)
 * and mrs cntvct_el0 (arm64) at the tool's own helpers, in place. */
void cp_det_rewrite_insns(IRSB* sb);

#endif
