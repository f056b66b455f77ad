/* The tables of a pprof profile, checked and indexed once for every reader
 * of the message (pprof_reader.c, pprof_costs.c, firefox_profile.c).
 * protobuf-c checks only the wire format; what a reader takes from the
 * tables is checked here: the ids of mappings, functions and locations are
 * non-zero and distinct, the string indices of each mapping (file, build
 * id) and function (name, system name, file) are in the table, and each
 * location's mapping (0: none) and the function of each of its lines exist.
 * Samples each reader walks itself, once; pprof_sample_check checks one. */
#ifndef CYCPROF_PPROF_INDEX_H
#define CYCPROF_PPROF_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "model/tuplemap.h"

struct Perftools__Profiles__Profile;

/* id -> index in the message's array, for each kind of record. */
typedef struct pprof_index {
    tuplemap_t maps, fns, locs;
} pprof_index_t;

/* Checks pr's tables and fills ix (initialised here, free it with
 * pprof_index_free whatever the result). Returns 0, or -1 with
 * "NAME: what" in err. */
int pprof_index_build(pprof_index_t *ix,
                      const struct Perftools__Profiles__Profile *pr,
                      const char *name, char *err, size_t errlen);
void pprof_index_free(pprof_index_t *ix);

/* Sample si holds one value per sample type, and the one at vi, the value
 * the reader takes, is not negative. Returns 0, or -1 with "NAME: what". */
int pprof_sample_check(const struct Perftools__Profiles__Profile *pr,
                       size_t si, size_t vi, const char *name, char *err,
                       size_t errlen);

/* The position of the record with this id in its array, SIZE_MAX if none. */
size_t pprof_index_find(const tuplemap_t *m, uint64_t id);

#endif
