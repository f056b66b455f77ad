/* inline_renamer: gives the inlined Rust frames of a stacks dump their
 * qualified names (rust_inline_names.h) on the way to the pprof writer.
 *
 * The tool keys functions by (short name, file), so two closures
 * "{closure#0}" of one file share a dump `fn` record. Renaming is
 * therefore per location: each inlined frame that gets a better name points
 * to a new Function (ids after the dump's), written once per distinct
 * (name, system name, file, line). */
#ifndef CYCPROF_INLINE_RENAMER_H
#define CYCPROF_INLINE_RENAMER_H

#include <stdint.h>

#include "write/pprof_writer.h"
#include "read/stacks_reader.h"

struct inline_renamer;

struct inline_renamer *ir_new(void);
void ir_free(struct inline_renamer *r);

/* Feed every `map` and `fn` record. */
void ir_map(struct inline_renamer *r, const struct sr_record *map);
void ir_function(struct inline_renamer *r, const struct sr_record *fn);

/* Rewrites lines[] (the `loc` record's, same order) to point inlined frames
 * at their qualified functions, writing those functions to w first.
 * 0, or -1 when w failed (see pw_error). */
int ir_location(struct inline_renamer *r, struct pprof_writer *w,
                const struct sr_record *loc, struct pw_line *lines);

/* The highest function id in use: the dump's and the new ones. */
uint64_t ir_last_function(const struct inline_renamer *r);

#endif
