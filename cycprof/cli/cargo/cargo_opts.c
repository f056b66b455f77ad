/* See cargo_opts.h. */
#define _POSIX_C_SOURCE 200809L
#include "cargo/cargo_opts.h"
#include "util/cmdutil.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const cargo_usage =
    "usage: cargo cycprof [OPTIONS] [CARGO BUILD OPTIONS] [-- PROGRAM ARGS]\n"
    "\n"
    "Build a binary of the current cargo package (release profile, with\n"
    "debug info, Cargo.toml untouched), run it under valgrind --tool=cycprof,\n"
    "which counts every executed instruction exactly, print the top of\n"
    "`cycprof report` and where the profile files are: cycprof.out.<pid>\n"
    "(callgrind format) and cycprof.out.<pid>.pb.gz (pprof).\n"
    "\n"
    "options:\n"
    "  --release, -r        build the release profile (the default)\n"
    "  --dev                build the dev profile instead\n"
    "  --profile NAME       build this cargo profile\n"
    "  --bin NAME           the binary to profile (needed when the package\n"
    "                       has several and no default-run)\n"
    "  --example NAME       profile this example instead\n"
    "  -n N, --top N        rows of the report (default 20, 0 = all)\n"
    "  --sort EV[,EV...]    event(s) to rank by, for cycprof report (Ir)\n"
    "  -o, --output-dir DIR write the profile files into DIR (created if\n"
    "                       missing; default: the current directory, and\n"
    "                       with --deterministic <target dir>/cycprof)\n"
    "  --vg-opt=OPT         pass OPT to valgrind (repeatable), e.g.\n"
    "                       --vg-opt=--fold-recursion=no\n"
    "  --deterministic      the same clocks and entropy on every run, so the\n"
    "                       same build gives the same counts (valgrind's\n"
    "                       --deterministic=yes, docs/reproducible.md); the\n"
    "                       files go under the target dir, not into the\n"
    "                       working folder that the next run may list\n"
    "  --no-report          do not print the report\n"
    "  -h, --help           show this help\n"
    "Other options (-p NAME, --features F, --manifest-path P, ...) are passed\n"
    "to `cargo build`.\n"
    "\n"
    "Exit status: the program's; 2 for a bad command line (an unknown\n"
    "--sort event, a bad -n, no binary chosen); 1 when cargo cycprof cannot\n"
    "run it (no cargo project, cargo, valgrind, the tool or cycprof missing,\n"
    "no profile written); cargo's own status when the build fails.\n";

/* The events the tool records (cycprof/tool/output/cp_write_callgrind.c writes
 * "events: Ir"). Checked before building so that a typo costs no build
 * and no run; cycprof report would reject it only at the very end. */
static const char *const known_events[] = {"Ir"};

static int check_events(const char *list)
{
    char *copy = cu_strdup(list), *save = NULL;
    int rc = 0;
    if (!*list)
        rc = -1;
    for (char *t = strtok_r(copy, ",", &save); t && !rc;
         t = strtok_r(NULL, ",", &save)) {
        size_t k = 0, n = sizeof known_events / sizeof *known_events;
        while (k < n && strcmp(t, known_events[k]) != 0)
            k++;
        if (k == n) {
            fprintf(stderr, "cargo-cycprof: unknown event '%s' in --sort "
                    "(cycprof records: Ir)\n", t);
            rc = -1;
        }
    }
    if (!*list)
        fputs("cargo-cycprof: --sort needs an event list (cycprof records: "
              "Ir)\n", stderr);
    free(copy);
    return rc;
}

static int bad_value(const char *opt, const char *what, const char *got)
{
    fprintf(stderr, "cargo-cycprof: %s needs %s%s%s%s\n", opt, what,
            got ? ", got '" : "", got ? got : "", got ? "'" : "");
    return -1;
}

/* A cargo option that takes a value, given as "--opt=V" or "--opt V"?
 * Sets *val and advances *i. */
static int cargo_value(int argc, char **argv, int *i, const char *name,
                       const char **val)
{
    int r = cu_opt_value(argc, argv, i, name, NULL, val);
    if (r < 0) {
        bad_value(name, "a value", NULL);
        return -1;
    }
    return r;
}

int cargo_opts_parse(int argc, char **argv, int first, cargo_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->top = "20";
    o->profile = "release";
    o->report = 1;
    o->build = cu_calloc((size_t)argc + 4, sizeof *o->build);
    o->vgopt = cu_calloc((size_t)argc + 1, sizeof *o->vgopt);
    o->prog = cu_calloc((size_t)argc + 1, sizeof *o->prog);
    int dev = 0, release = 0, r;
    const char *v;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        int from = i;
        if (strcmp(a, "--") == 0) {
            while (++i < argc)
                o->prog[o->nprog++] = argv[i];
            break;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(cargo_usage, stdout);
            return 1;
        } else if (strcmp(a, "--dev") == 0) {
            dev = 1;
            o->profile = "dev";
            continue;
        } else if (strcmp(a, "--deterministic") == 0) {
            /* One argument gives at most one valgrind option: vgopt has
             * room for argc of them. */
            o->vgopt[o->nvg++] = "--deterministic=yes";
            o->deterministic = 1;
            continue;
        } else if (strcmp(a, "--no-report") == 0) {
            o->report = 0;
            continue;
        } else if (strncmp(a, "--vg-opt=", 9) == 0) {
            /* Anything else would be taken by valgrind as the program. */
            if (a[9] != '-')
                return bad_value("--vg-opt", "a valgrind option starting "
                                 "with '-'", a + 9);
            o->vgopt[o->nvg++] = argv[i] + 9;
            if (strcmp(a + 9, "--deterministic=yes") == 0)
                o->deterministic = 1;
            continue;
        } else if ((r = cu_opt_value(argc, argv, &i, "--top", "-n", &v))) {
            uint64_t n;
            if (r > 0 && *v == '=') /* "-n=5" */
                v++;
            if (r < 0 || cu_parse_u64(v, &n) < 0)
                return bad_value("-n/--top", "a number of rows", r < 0 ? NULL : v);
            o->top = v;
            continue;
        } else if ((r = cu_opt_value(argc, argv, &i, "--sort", NULL, &v))) {
            if (r < 0)
                return bad_value("--sort", "an event list (cycprof records: Ir)",
                                 NULL);
            if (check_events(v) < 0)
                return -1;
            o->sort = v;
            continue;
        } else if ((r = cu_opt_value(argc, argv, &i, "--output-dir", "-o",
                                     &v))) {
            if (r > 0 && *v == '=') /* "-o=DIR" */
                v++;
            if (r < 0 || !*v)
                return bad_value("-o", "a directory", NULL);
            o->outdir = v;
            continue;
        }
        /* Everything else is cargo's; note what decides the binary and
         * the profile, and keep an option's value with it. */
        if (strcmp(a, "--release") == 0 || strcmp(a, "-r") == 0) {
            release = 1;
        } else if ((r = cargo_value(argc, argv, &i, "--profile", &v))) {
            if (r < 0)
                return -1;
            o->profile = v;
            release = 1; /* cargo must not get --release as well */
        } else if ((r = cargo_value(argc, argv, &i, "--bin", &v)) ||
                   (r = cargo_value(argc, argv, &i, "--example", &v))) {
            if (r < 0)
                return -1;
            o->chose_target = 1;
        } else if ((r = cargo_value(argc, argv, &i, "--manifest-path", &v))) {
            if (r < 0)
                return -1;
            o->manifest_path = 1;
        }
        for (; from <= i; from++)
            o->build[o->nbuild++] = argv[from];
    }
    if (dev && release) {
        fputs("cargo-cycprof: --dev conflicts with --release/--profile\n",
              stderr);
        return -1;
    }
    if (!dev && !release)
        o->build[o->nbuild++] = "--release";
    o->build[o->nbuild] = NULL;
    return 0;
}
