/* Reader for pprof profiles (gzip-compressed or plain profile.proto), as
 * written next to the callgrind file by the cycprof tool. Produces exact
 * function-name stacks with inlined frames expanded (stack_profile.h). */
#ifndef CYCPROF_PPROF_READER_H
#define CYCPROF_PPROF_READER_H

#include <stddef.h>

#include "stack_profile.h"

/* Upper bound on the decompressed size, so that a corrupt or hostile file
 * cannot make us allocate without limit. */
extern size_t pprof_max_bytes;

/* Read a file / a buffer into sp. Returns 0, or -1 with "NAME: what" in
 * err. name is used in messages only. */
int pprof_read_file(stack_profile_t *sp, const char *path, char *err,
                    size_t errlen);
int pprof_read_mem(stack_profile_t *sp, const char *name,
                   const unsigned char *buf, size_t len, char *err,
                   size_t errlen);

/* The decoded profile itself, for writers that need more than function
 * names (file, line, inline chain, labels, mappings): NULL with "NAME:
 * what" in err. Only the wire format is checked; free it with
 * perftools__profiles__profile__free_unpacked(pr, NULL). */
struct Perftools__Profiles__Profile;
struct Perftools__Profiles__Profile *pprof_unpack_file(const char *path,
                                                        char *err,
                                                        size_t errlen);

#endif
