/* The pprof reader: a pprof profile (gzip-compressed or plain
 * profile.proto), as the cycprof tool, Go and RISC Zero write it, decoded
 * into the profile model (profile.h), whose views the commands read
 * (pprof_stacks.h, profile_costs.h, firefox_profile.h). */
#ifndef CYCPROF_PPROF_READER_H
#define CYCPROF_PPROF_READER_H

#include <stddef.h>

#include "model/profile.h"

/* Upper bound on the decompressed size, so that a corrupt or hostile file
 * cannot make us allocate without limit. */
extern size_t pprof_max_bytes;

/* Read a file / a buffer into p (initialised by pf_init): gunzip if the
 * data is gzip, then protobuf-c, then the model. Returns 0, or -1 with
 * "NAME: what" in err when the data does not decode; a problem of the
 * tables is kept for pf_check_tables. name is used in messages only.
 * Whatever the result, free p with pf_free. */
int pprof_load_file(profile_t *p, const char *path, char *err, size_t errlen);

/* The tool's stacks dump (docs/internals/stacks-format.md) is read as the
 * pprof profile `cycprof pprof` makes of it: pprof_load_file hands a file
 * that starts like one to the converter, which returns that profile's
 * bytes (malloc'd) or -1 with "NAME:LINE: what" in err. The converter is
 * the pprof writer's (write/dump_convert.h), a floor above this one:
 * main.c sets it. Without it, a dump is read as any other file. */
typedef int (*pprof_dump_converter)(const char *path, unsigned char **buf,
                                    size_t *len, char *err, size_t errlen);
void pprof_set_dump_converter(pprof_dump_converter convert);
int pprof_load_mem(profile_t *p, const char *name, const unsigned char *buf,
                   size_t len, char *err, size_t errlen);

#endif
