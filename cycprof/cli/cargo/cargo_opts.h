/* The command line of `cargo cycprof`: our own options are taken out, the
 * rest goes to `cargo build`, and what follows "--" to the program. */
#ifndef CYCPROF_CARGO_OPTS_H
#define CYCPROF_CARGO_OPTS_H

typedef struct cargo_opts {
    const char *top;      /* rows of the report, a validated number */
    const char *sort;     /* --sort for cycprof report, or NULL */
    const char *outdir;   /* -o DIR, or NULL: the current directory, or
                             with deterministic <target dir>/cycprof */
    int deterministic;    /* --deterministic or
                             --vg-opt=--deterministic=yes */
    const char *profile;  /* cargo profile built: "release", "dev", ... */
    int report;           /* print cycprof report after the run */
    int chose_target;     /* --bin/--example/... given: cargo picks one */
    int manifest_path;    /* --manifest-path given: no Cargo.toml search */
    char **build;         /* arguments for `cargo build`, NULL-terminated,
                             with room for two more */
    int nbuild;
    char **vgopt;         /* --vg-opt values, for valgrind */
    int nvg;
    char **prog;          /* the program's arguments, after "--" */
    int nprog;
} cargo_opts_t;

/* Fill *o from argv (argv[first] is the first option). Returns 0 to go
 * on, 1 when --help was printed, -1 after printing a one-line error. */
int cargo_opts_parse(int argc, char **argv, int first, cargo_opts_t *o);

#endif
