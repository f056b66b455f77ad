/* The cargo side of cargo-cycprof: finding the package, its default-run
 * binary, and building it to learn which executables cargo made. */
#ifndef CYCPROF_CARGO_BUILD_H
#define CYCPROF_CARGO_BUILD_H

typedef struct cargo_exe {
    char *name; /* target name: what --bin/--example take */
    char *path; /* absolute path of the built executable */
} cargo_exe_t;

/* Path of the Cargo.toml cargo would use: the nearest one in the current
 * directory or a parent (malloc'd), or NULL if there is none. */
char *cargo_find_manifest(void);

/* The default-run key of the manifest's [package] table (malloc'd), or
 * NULL. cargo run honours it, so cargo cycprof does as well. */
char *cargo_default_run(const char *manifest);

/* Run `cargo build ARGS` (args NULL-terminated). cargo's messages and
 * compiler diagnostics go to stderr as usual. Returns cargo's exit
 * status; on success *exe holds the executables it built (binaries and
 * examples), *nexe of them. */
int cargo_build(char **args, cargo_exe_t **exe, int *nexe);

#endif
