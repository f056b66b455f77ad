/* cargo-cycprof: `cargo cycprof [OPTIONS] [-- ARGS]` builds a Rust binary
 * in release mode with debug info, runs it under `valgrind --tool=cycprof`
 * and prints `cycprof report` of the result. A separate program because
 * cargo finds subcommands as `cargo-NAME` on PATH. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const usage =
    "usage: cargo cycprof [OPTIONS] [CARGO BUILD OPTIONS] [-- PROGRAM ARGS]\n"
    "\n"
    "Build a binary of the current cargo package (release profile, with\n"
    "debug info), run it under valgrind --tool=cycprof, which counts every\n"
    "executed instruction exactly, and print the top of `cycprof report`.\n"
    "The profile is written to cycprof.out.<pid> and cycprof.out.<pid>.pb.gz.\n"
    "\n"
    "options:\n"
    "  --bin NAME, --example NAME, -p NAME, --features F, --profile P, ...\n"
    "                       passed to `cargo build` (choose the binary)\n"
    "  --dev                build the dev profile instead of --release\n"
    "  --vg-opt=OPT         pass OPT to valgrind (repeatable), e.g.\n"
    "                       --vg-opt=--cycprof-out-file=run.out\n"
    "  --top=N              rows of the report (default 20)\n"
    "  --no-report          do not print the report\n"
    "  -h, --help           show this help\n"
    "\n"
    "The program's exit status is returned; 101 if the build failed.\n";

static void die(const char *fmt, const char *arg)
{
    fputs("cargo-cycprof: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(101);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("%s", "out of memory");
    return p;
}

/* Append the JSON string value starting at s (just after the opening
 * quote) to a fresh buffer; handles the escapes cargo emits in paths. */
static char *json_string(const char *s)
{
    char *out = xmalloc(strlen(s) + 1), *o = out;
    for (; *s && *s != '"'; s++) {
        if (*s == '\\' && s[1]) {
            s++;
            *o++ = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
        } else {
            *o++ = *s;
        }
    }
    *o = 0;
    return out;
}

/* Run `cargo build --message-format=json-render-diagnostics ARGS` and
 * return the executables it reports (compiler-artifact messages with an
 * "executable"). Diagnostics go to our stderr as cargo renders them. */
static char **cargo_build(char **args, int nargs, int *nexe)
{
    int fd[2];
    if (pipe(fd) < 0)
        die("pipe: %s", strerror(errno));
    char **argv = xmalloc(sizeof *argv * (size_t)(nargs + 4));
    int k = 0;
    argv[k++] = "cargo";
    argv[k++] = "build";
    argv[k++] = "--message-format=json-render-diagnostics";
    for (int i = 0; i < nargs; i++)
        argv[k++] = args[i];
    argv[k] = NULL;
    pid_t pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execvp("cargo", argv);
        fprintf(stderr, "cargo-cycprof: cannot run cargo: %s\n", strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    free(argv);
    FILE *f = fdopen(fd[0], "r");
    char *line = NULL, **exe = NULL;
    size_t cap = 0;
    *nexe = 0;
    while (getline(&line, &cap, f) >= 0) {
        if (!strstr(line, "\"reason\":\"compiler-artifact\""))
            continue;
        const char *e = strstr(line, "\"executable\":\"");
        if (!e)
            continue; /* "executable":null: a library */
        exe = realloc(exe, sizeof *exe * (size_t)(*nexe + 1));
        if (!exe)
            die("%s", "out of memory");
        exe[(*nexe)++] = json_string(e + strlen("\"executable\":\""));
    }
    free(line);
    fclose(f);
    int st;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        die("%s", "cargo build failed");
    return exe;
}

/* The `cycprof` command installed next to us, else the one on PATH. */
static char *find_cycprof(const char *argv0)
{
    const char *slash = strrchr(argv0, '/');
    if (slash) {
        size_t n = (size_t)(slash - argv0) + 1;
        char *p = xmalloc(n + 8);
        memcpy(p, argv0, n);
        strcpy(p + n, "cycprof");
        if (access(p, X_OK) == 0)
            return p;
        free(p);
    }
    char *p = xmalloc(8);
    strcpy(p, "cycprof");
    return p;
}

static int run(char **argv)
{
    pid_t pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        execvp(argv[0], argv);
        fprintf(stderr, "cargo-cycprof: cannot run %s: %s\n", argv[0],
                strerror(errno));
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0)
        die("waitpid: %s", strerror(errno));
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
    int first = 1;
    /* cargo runs us as `cargo-cycprof cycprof ARGS`. */
    if (argc > 1 && strcmp(argv[1], "cycprof") == 0)
        first = 2;

    char **build = xmalloc(sizeof *build * (size_t)(argc + 1));
    char **vgopt = xmalloc(sizeof *vgopt * (size_t)(argc + 1));
    int nbuild = 0, nvg = 0, dev = 0, report = 1, has_profile = 0;
    const char *top = "20";
    int i = first;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(a, "--dev") == 0) {
            dev = 1;
        } else if (strcmp(a, "--no-report") == 0) {
            report = 0;
        } else if (strncmp(a, "--vg-opt=", 9) == 0) {
            vgopt[nvg++] = argv[i] + 9;
        } else if (strncmp(a, "--top=", 6) == 0) {
            top = a + 6;
        } else {
            if (strcmp(a, "--release") == 0 || strcmp(a, "-r") == 0 ||
                strncmp(a, "--profile", 9) == 0)
                has_profile = 1;
            build[nbuild++] = argv[i];
        }
    }
    if (!dev && !has_profile)
        build[nbuild++] = "--release";
    /* Line tables are what make function and file names exact; keep a
     * setting the user made. */
    setenv("CARGO_PROFILE_RELEASE_DEBUG", "true", 0);

    int nexe;
    char **exe = cargo_build(build, nbuild, &nexe);
    if (nexe == 0)
        die("%s", "cargo built no executable (a library crate? use --bin or "
                  "--example)");
    if (nexe > 1) {
        fprintf(stderr, "cargo-cycprof: cargo built %d executables; choose "
                "one with --bin NAME or --example NAME:\n", nexe);
        for (int k = 0; k < nexe; k++)
            fprintf(stderr, "  %s\n", exe[k]);
        return 101;
    }

    char **vg = xmalloc(sizeof *vg * (size_t)(nvg + argc + 4));
    int k = 0;
    vg[k++] = "valgrind";
    vg[k++] = "--tool=cycprof";
    for (int j = 0; j < nvg; j++)
        vg[k++] = vgopt[j];
    vg[k++] = exe[0];
    for (; i < argc; i++)
        vg[k++] = argv[i];
    vg[k] = NULL;

    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        execvp("valgrind", vg);
        fprintf(stderr, "cargo-cycprof: cannot run valgrind: %s\n",
                strerror(errno));
        _exit(127);
    }
    int st, rc;
    if (waitpid(pid, &st, 0) < 0)
        die("waitpid: %s", strerror(errno));
    rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);

    /* valgrind runs the program in the process we forked, so the default
     * output name carries that pid. */
    char out[64];
    snprintf(out, sizeof out, "cycprof.out.%ld", (long)pid);
    struct stat sb;
    if (stat(out, &sb) != 0) {
        if (report)
            fprintf(stderr, "cargo-cycprof: no %s here (was "
                    "--cycprof-out-file given?); not reporting\n", out);
        return rc;
    }
    if (report) {
        char *cyc = find_cycprof(argv[0]);
        char topopt[64];
        snprintf(topopt, sizeof topopt, "--top=%s", top);
        char *rep[] = {cyc, "report", topopt, out, NULL};
        fflush(stdout);
        run(rep);
        free(cyc);
    }
    fprintf(stderr, "cargo-cycprof: profile in %s and %s.pb.gz; see also "
            "cycprof flamegraph %s -o flame.svg\n", out, out, out);
    return rc;
}
