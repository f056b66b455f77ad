/* cargo-cycprof: `cargo cycprof [OPTIONS] [-- ARGS]` builds a Rust binary
 * with debug info, runs it under `valgrind --tool=cycprof` and prints
 * `cycprof report` of the result and where the profile files are. A
 * separate program because cargo finds subcommands as `cargo-NAME` on
 * PATH. */
#define _POSIX_C_SOURCE 200809L
#include "cargo/cargo_build.h"
#include "cargo/cargo_opts.h"
#include "cargo/cargo_proc.h"
#include "read/region_table.h"
#include "util/cmdutil.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Everything that is missing is found before the build, which can take
 * minutes: cargo, valgrind, the cycprof tool, the cycprof command. */
static void check_valgrind(void)
{
    if (!cargo_which("cargo"))
        cargo_die("cargo not found on PATH");
    if (!cargo_which("valgrind"))
        cargo_die("valgrind not found on PATH (install it, e.g. apt-get "
                  "install valgrind)");
    char *argv[] = {"valgrind", "--tool=cycprof", "--help", NULL};
    if (cargo_wait(cargo_spawn(argv, -1, 1)) != 0)
        cargo_die("valgrind has no cycprof tool (valgrind --tool=cycprof "
                  "fails): install cycprof, or set VALGRIND_LIB to a "
                  "build's vg-lib directory");
}

/* The `cycprof` command installed next to us (we may be reached through
 * a symlink, hence /proc/self/exe), else the one on PATH. */
static char *find_cycprof(const char *argv0)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    const char *me = argv0;
    if (n > 0) {
        self[n] = 0;
        me = self;
    }
    const char *slash = strrchr(me, '/');
    if (slash) {
        size_t len = (size_t)(slash - me) + 1;
        char *p = cu_malloc(len + sizeof "cycprof");
        memcpy(p, me, len);
        strcpy(p + len, "cycprof");
        if (access(p, X_OK) == 0)
            return p;
        free(p);
    }
    char *p = cargo_which("cycprof");
    if (!p)
        cargo_die("the cycprof command is not installed (not next to "
                  "cargo-cycprof, not on PATH); install cycprof or use "
                  "--no-report");
    return p;
}

/* Line tables are what make function and file names exact, and a
 * stripped binary has no names at all. Environment settings override
 * Cargo.toml's profile without editing it; a variable the user set
 * already wins. */
static void want_debug_info(const char *profile)
{
    char var[256], up[200];
    size_t k = 0;
    for (; profile[k] && k < sizeof up - 1; k++)
        up[k] = profile[k] == '-' ? '_' : (char)toupper((unsigned char)profile[k]);
    up[k] = 0;
    snprintf(var, sizeof var, "CARGO_PROFILE_%s_DEBUG", up);
    setenv(var, "true", 0);
    snprintf(var, sizeof var, "CARGO_PROFILE_%s_STRIP", up);
    setenv(var, "none", 0);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const cargo_exe_t *)a)->name, ((const cargo_exe_t *)b)->name);
}

/* The one executable to run, or a one-line error naming the choices
 * (sorted: cargo reports them in the order its build jobs finish). */
static const cargo_exe_t *choose(cargo_exe_t *exe, int nexe)
{
    if (nexe == 0)
        cargo_exit(CARGO_USAGE, "cargo built no binary (a library "
                   "crate?); choose one with --bin NAME or --example NAME");
    if (nexe == 1)
        return &exe[0];
    char names[512] = "";
    qsort(exe, (size_t)nexe, sizeof *exe, by_name);
    for (int k = 0; k < nexe; k++) {
        strncat(names, k ? ", " : "", sizeof names - strlen(names) - 1);
        strncat(names, exe[k].name, sizeof names - strlen(names) - 1);
    }
    cargo_exit(CARGO_USAGE, "%d binaries (%s) and none chosen: use --bin "
               "NAME, or set default-run in Cargo.toml", nexe, names);
}

/* mkdir -p. */
static void make_dir(const char *dir)
{
    char *p = cu_strdup(dir);
    for (char *s = p + 1;; s++) {
        if (*s && *s != '/')
            continue;
        char c = *s;
        *s = 0;
        if (mkdir(p, 0777) < 0 && errno != EEXIST)
            cargo_die("cannot create %s: %s", p, strerror(errno));
        *s = c;
        if (!c)
            break;
    }
    struct stat sb;
    if (stat(dir, &sb) < 0 || !S_ISDIR(sb.st_mode))
        cargo_die("-o %s: not a directory", dir);
    free(p);
}

static const char out_file_opt[] = "--cycprof-out-file=";

/* The --cycprof-out-file=F the user gave with --vg-opt: F, or NULL. */
static const char *users_out_file(const cargo_opts_t *o)
{
    for (int j = 0; j < o->nvg; j++)
        if (strncmp(o->vgopt[j], out_file_opt, sizeof out_file_opt - 1) == 0)
            return o->vgopt[j] + sizeof out_file_opt - 1;
    return NULL;
}

/* <target dir>/cycprof for the executable exe, which cargo puts in
 * <target dir>[/TRIPLE]/PROFILE[/examples]/. A deterministic run's
 * files go there rather than into the working folder, whose listing
 * the next run's program may read (docs/reproducible.md). */
static char *target_cycprof_dir(const char *exe)
{
    char *d = cu_malloc(strlen(exe) + sizeof "/cycprof");
    strcpy(d, exe);
    char *slash = strrchr(d, '/'); /* the executable's folder */
    if (slash)
        *slash = 0;
    if (cu_ends_with(d, "/examples"))
        d[strlen(d) - sizeof "/examples" + 1] = 0;
    slash = strrchr(d, '/'); /* the profile's folder's parent */
    if (slash && slash != d)
        *slash = 0;
    strcat(d, "/cycprof");
    return d;
}

/* The --cycprof-out-file pattern valgrind gets: the user's own one if
 * given with --vg-opt, else DIR/cycprof.out.%p (added to vg). */
static const char *out_pattern(const cargo_opts_t *o, char **vg, int *k)
{
    const char *users = users_out_file(o);
    if (users)
        return users;
    size_t n = sizeof out_file_opt + (o->outdir ? strlen(o->outdir) : 0) + 16;
    char *arg = cu_malloc(n);
    if (o->outdir)
        snprintf(arg, n, "%s%s%scycprof.out.%%p", out_file_opt, o->outdir,
                 cu_ends_with(o->outdir, "/") ? "" : "/");
    else
        snprintf(arg, n, "%scycprof.out.%%p", out_file_opt);
    vg[(*k)++] = arg;
    return arg + sizeof out_file_opt - 1;
}

/* The file name valgrind made of pattern for pid, or NULL when the
 * pattern has more than %p (such as %q{VAR}) and we cannot tell. */
static char *expand_pid(const char *pattern, long pid)
{
    size_t n = strlen(pattern) + 32;
    char *out = cu_malloc(n), *o = out;
    for (const char *s = pattern; *s; s++) {
        if (*s != '%') {
            *o++ = *s;
        } else if (s[1] == 'p') {
            o += sprintf(o, "%ld", pid);
            s++;
        } else {
            free(out);
            return NULL;
        }
    }
    *o = 0;
    return out;
}

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

int main(int argc, char **argv)
{
    /* cargo runs us as `cargo-cycprof cycprof ARGS`. */
    int first = argc > 1 && strcmp(argv[1], "cycprof") == 0 ? 2 : 1;
    cargo_opts_t o;
    int r = cargo_opts_parse(argc, argv, first, &o);
    if (r)
        return r > 0 ? 0 : CARGO_USAGE;

    char *manifest = NULL;
    if (!o.manifest_path) {
        manifest = cargo_find_manifest();
        if (!manifest) {
            char *cwd = getcwd(NULL, 0);
            cargo_die("not inside a cargo project (no Cargo.toml in %s or "
                      "any parent directory)", cwd ? cwd : ".");
        }
    }
    check_valgrind();
    char *cyc = o.report ? find_cycprof(argv[0]) : NULL;

    /* Like cargo run, a package with several binaries runs its
     * default-run one unless told otherwise. */
    if (!o.chose_target && manifest) {
        char *d = cargo_default_run(manifest);
        if (d) {
            o.build[o.nbuild++] = "--bin";
            o.build[o.nbuild++] = d;
            o.build[o.nbuild] = NULL;
        }
    }
    want_debug_info(o.profile);
    cargo_exe_t *exe;
    int nexe;
    int rc = cargo_build(o.build, &exe, &nexe);
    if (rc != 0)
        cargo_exit(rc, "cargo build failed (exit status %d; its messages "
                   "are above); nothing was profiled", rc);
    const cargo_exe_t *target = choose(exe, nexe);

    if (!o.outdir && o.deterministic && !users_out_file(&o))
        o.outdir = target_cycprof_dir(target->path);
    if (o.outdir)
        make_dir(o.outdir);
    char **vg = cu_calloc((size_t)(o.nvg + o.nprog + 5), sizeof *vg);
    int k = 0;
    vg[k++] = "valgrind";
    vg[k++] = "--tool=cycprof";
    const char *pattern = out_pattern(&o, vg, &k);
    for (int j = 0; j < o.nvg; j++)
        vg[k++] = o.vgopt[j];
    vg[k++] = target->path;
    for (int j = 0; j < o.nprog; j++)
        vg[k++] = o.prog[j];
    vg[k] = NULL;
    /* valgrind runs the program in the process we start, so %p in the
     * output name is that process's pid. */
    pid_t pid = cargo_spawn(vg, -1, 0);
    rc = cargo_wait(pid);

    char *out = expand_pid(pattern, (long)pid);
    if (!out) {
        fprintf(stderr, "cargo-cycprof: cannot tell the file name from "
                "--cycprof-out-file=%s; not reporting\n", pattern);
        return rc;
    }
    if (!exists(out)) {
        fprintf(stderr, "cargo-cycprof: valgrind wrote no %s\n", out);
        return rc ? rc : CARGO_FAIL;
    }
    if (cyc) {
        char top[64], sort[256];
        char *rep[6] = {cyc, "report", top, NULL, NULL, NULL};
        snprintf(top, sizeof top, "--top=%s", o.top);
        int n = 3;
        if (o.sort) {
            snprintf(sort, sizeof sort, "--sort=%s", o.sort);
            rep[n++] = sort;
        }
        rep[n] = out;
        int rrc = cargo_wait(cargo_spawn(rep, -1, 0));
        if (rrc && !rc)
            rc = rrc;
        /* The program's named regions (cycprof crate, SP1's markers). */
        region_table_t regions;
        if (region_table_load("cargo-cycprof", out, &regions) == 0) {
            if (regions.n) {
                printf("\nRegions (instructions; self leaves out nested "
                       "regions):\n");
                region_table_print(stdout, &regions);
            }
            region_table_free(&regions);
        }
        fflush(stdout);
    }
    size_t pn = strlen(out) + sizeof ".pb.gz";
    char *pb = cu_malloc(pn);
    snprintf(pb, pn, "%s.pb.gz", out);
    int w = (int)strlen(pb);
    printf("\nProfile files:\n"
           "  %-*s  callgrind format: cycprof report, callgrind_annotate, "
           "kcachegrind\n", w, out);
    if (exists(pb))
        printf("  %-*s  pprof: go tool pprof, cycprof folded, cycprof "
               "flamegraph\n", w, pb);
    return rc;
}
