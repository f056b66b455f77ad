/* cycprof: superblocks whose code is all of one function class, for the
 * stacks dump written per function (cp_write_stacks.c).
 *
 * A per-function dump sums each node's costs per function class
 * (cp_locset_function_classes).  For most superblocks every instruction
 * that ever ran is of one class and has a symbol, so a context's cost in
 * it is one sum over its exits: no per-instruction counts.  So is a
 * superblock whose code is all at one location without a symbol, in one
 * object (a program without symbols, e.g. cc1plus): a context names it
 * all after one address, so it has one location there, the one its first
 * instruction gets (listed here unnamed).  What a line-level dump would
 * have had is still counted exactly: the distinct locations of the
 * instructions that ran, which are a prefix of the superblock, listed
 * here by where each first appears. */
#ifndef CP_ST_CLASSES_H
#define CP_ST_CLASSES_H

#include "pub_tool_basics.h"
#include "cp_st_naming.h"

typedef struct {
   UInt loc;           /* a location of the superblock's code */
   UInt first_instr;   /* the first instruction at it */
} PrefixLocation;

typedef struct {
   /* [sb id]: its prefix locations are at[first[id] .. first[id + 1]),
    * in order of first_instr; none when it is not of one class. */
   UInt*           first;
   PrefixLocation* at;
} ClassSuperblocks;

void cp_st_classes_init(ClassSuperblocks* cs, const SuperblockLocations* sl,
                        const UInt* class_of);
void cp_st_classes_free(ClassSuperblocks* cs);

static inline Bool cp_st_one_class(const ClassSuperblocks* cs, UInt sb_id)
{
   return cs->first[sb_id] < cs->first[sb_id + 1];
}

#endif
