/* rust_inline_names: fully qualified names for the inlined frames of Rust
 * code, read from the profiled object's DWARF.
 *
 * Valgrind names an inlined frame by the bare DW_AT_name of its abstract
 * origin ("mat_mul", "{closure#0}"), while a real frame gets its demangled
 * symbol ("fibonacci_rs::fib_matrix"). For a location in a Rust
 * compilation unit this module finds the DW_TAG_inlined_subroutine DIEs
 * that contain the address and names each one as the real frame of the
 * same function would be named: the origin's DW_AT_linkage_name demangled
 * as Valgrind demangles symbols (libiberty, the same code Valgrind carries)
 * or, without a linkage name, the DW_TAG_namespace path of the origin.
 *
 * C and C++ units, objects without debug info and addresses whose DWARF
 * disagrees with the tool's inline chain get no name (the caller keeps the
 * short one): a profile is never lost over a name. Without libdw at build
 * time every lookup answers "no name". */
#ifndef CYCPROF_RUST_INLINE_NAMES_H
#define CYCPROF_RUST_INLINE_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct inline_namer;

struct inline_namer *inn_new(void);
void inn_free(struct inline_namer *n);

/* The loaded object behind map `id` (ids dense from 1): the file at `path`
 * mapped at `start` from `file_offset`. Opened on first use. */
void inn_add_map(struct inline_namer *n, uint64_t id, uint64_t start,
                uint64_t file_offset, const char *path);

/* One inlined frame's better name. */
struct inn_name {
    const char *name;         /* qualified, NULL: keep the short one */
    const char *system_name;  /* the mangled origin, or = name */
    int64_t decl_line;        /* 0 when unknown */
};

/* The location at `address` of map `map_id` has `nlevels` frames, innermost
 * first, the last one the real function; short_names[k] is the tool's name
 * of frame k. Fills out[k] for each inlined frame k < nlevels - 1. The
 * strings stay valid until the next call. */
void inn_names(struct inline_namer *n, uint64_t map_id, uint64_t address,
              size_t nlevels, const char *const *short_names,
              struct inn_name *out);

#endif
