/* Reader for the callgrind profile format (the format of callgrind.out.<pid>
 * and of cycprof.out.<pid>): see valgrind's docs/callgrind-format. It fills
 * the profile model (model/profile.h says how a callgrind file maps to it),
 * whose views the commands read (profile_costs.h).
 *
 * Several files can be read into one profile; they are merged by name
 * (file, function, object), which is what "compare/merge runs" needs.
 * Function identity follows callgrind_annotate: "file:function" where file
 * is the current fl=/fi=/fe= file, so our numbers match it exactly. */
#ifndef CYCPROF_CALLGRIND_READER_H
#define CYCPROF_CALLGRIND_READER_H

#include <stddef.h>
#include <stdio.h>

#include "model/profile.h"

typedef struct cg_reader cg_reader_t;

/* A reader of callgrind files into pr (pf_init'ed, read into by this
 * reader only). events[0..nev), when nev > 0, are the events of profiles
 * pr is to be merged with: they become its sample types, and every
 * `events:` line must name among them. Free with cg_reader_free; pr
 * stays the caller's. */
cg_reader_t *cg_reader_new(profile_t *pr, char *const *events, size_t nev);
void cg_reader_free(cg_reader_t *r);
/* For a command whose rows have no line numbers (functions, files,
 * objects): from now on the self cost of a function in an object and a
 * source file is one location, line 0, rather than one per line
 * (profile.h), which makes the profile about as small as its function
 * table. */
void cg_reader_no_line_numbers(cg_reader_t *r);

/* Read one file into the reader's profile (name is used in messages).
 * Returns 0, or -1 with "NAME:LINE: what went wrong" (or "NAME: ...") in
 * err; after an error the profile is only fit for pf_free. */
int cg_read_file(cg_reader_t *r, const char *path, char *err, size_t errlen);
int cg_read_stream(cg_reader_t *r, const char *name, FILE *f, char *err,
                   size_t errlen);

#endif
