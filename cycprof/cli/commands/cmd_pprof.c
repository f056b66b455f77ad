/* cmd_pprof.c: `cycprof pprof DUMP -o OUT` — turns the tool's stacks dump
 * (docs/internals/stacks-format.md) into a gzip-compressed pprof profile
 * (cycprof/proto/profile.proto) that `go tool pprof` reads, streaming
 * (write/dump_convert.h). OUT is written as out_file.h says: a regular
 * file is either the old one, or absent, or a whole profile. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "util/cmdutil.h"
#include "util/out_file.h"
#include "write/dump_convert.h"
#include "read/stacks_reader.h"

/* zlib level 1: profiles are mostly small varints that compress well even
 * at the fastest level, and conversion time is paid at every tool exit. */
#define DEFAULT_LEVEL 1

static const char usage_text[] =
    "usage: cycprof pprof [-z LEVEL] [--max-samples N] [--per-function]\n"
    "                     [--follow] DUMP -o OUT\n"
    "\n"
    "Convert a stacks dump, written by the cycprof Valgrind tool at exit\n"
    "(kept with --keep-stacks=yes), into a gzip-compressed pprof profile.\n"
    "Open the result with:  go tool pprof -http=127.0.0.1:8000 OUT\n"
    "\n"
    "options:\n"
    "  -o, --output OUT  the profile to write (a regular file is replaced\n"
    "                    atomically; a device or FIFO is written in place)\n"
    "  -z, --level N     gzip level, 1 (fastest, default) to 9 (smallest)\n"
    "  --max-samples N   when the line-level profile would have more than N\n"
    "                    samples (default 250000; 0: no limit), write it at\n"
    "                    function granularity, and if still too many, merge\n"
    "                    the smallest calling contexts into their callers;\n"
    "                    totals and self costs stay exact, a note says so;\n"
    "                    a dump the tool wrote per function is always\n"
    "                    converted at function granularity (0: no merging)\n"
    "  --per-function    DUMP's samples are per function (the tool says so\n"
    "                    in its last line; this says it before it is read)\n"
    "  --follow          DUMP is still being written: read it as it grows,\n"
    "                    until standard input, a pipe from its writer, is\n"
    "                    closed (the tool's exit does this; needs\n"
    "                    --per-function)\n"
    "  -h, --help        show this help\n"
    "\n"
    "On a malformed or truncated dump it prints one line\n"
    "'cycprof pprof: FILE:LINE: problem', leaves no output and exits 1.\n"
    "Exit status: 0 success, 1 conversion failed, 2 bad usage.\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("cycprof pprof: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs(" (see cycprof pprof --help)\n", stderr);
    return 2;
}

/* The note a coarse conversion ends with. user_max: --max-samples (a
 * dump written per function is converted so whatever it says). */
static void note_coarse(const struct pc_result *res, uint64_t user_max)
{
    if (user_max && res->samples_in > user_max)
        fprintf(stderr, "cycprof pprof: note: %llu line-level samples are "
                "more than --max-samples=%llu: written at function "
                "granularity", (unsigned long long)res->samples_in,
                (unsigned long long)user_max);
    else
        fprintf(stderr, "cycprof pprof: note: the dump's samples are per "
                "function (%llu at line level): written at function "
                "granularity", (unsigned long long)res->samples_in);
    if (res->merged)
        fprintf(stderr, ", calling contexts under %lld instructions merged "
                "into their callers", (long long)res->threshold);
    fprintf(stderr, " (%llu samples; totals and self costs exact)\n",
            (unsigned long long)res->samples_out);
}

/* True if argv[1..] asks for help (-h or --help before any "--"), which
 * is answered before any other argument is looked at. */
static int wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return 0;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return 1;
    }
    return 0;
}

int cmd_pprof(int argc, char **argv)
{
    const char *dump = NULL, *out = NULL;
    int level = DEFAULT_LEVEL;
    uint64_t max_samples = DC_DEFAULT_MAX_SAMPLES;
    int follow = 0, per_function = 0;

    if (wants_help(argc, argv)) {
        fputs(usage_text, stdout);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        int is_out = 0, is_level = 0, is_max = 0;
        if (strcmp(a, "--follow") == 0) {
            follow = 1;
            continue;
        }
        if (strcmp(a, "--per-function") == 0) {
            per_function = 1;
            continue;
        }
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0)
            is_out = 1;
        else if (strncmp(a, "--output=", 9) == 0)
            is_out = 1, val = a + 9;
        else if (strcmp(a, "-z") == 0 || strcmp(a, "--level") == 0)
            is_level = 1;
        else if (strncmp(a, "--level=", 8) == 0)
            is_level = 1, val = a + 8;
        else if (strcmp(a, "--max-samples") == 0)
            is_max = 1;
        else if (strncmp(a, "--max-samples=", 14) == 0)
            is_max = 1, val = a + 14;
        else if (strcmp(a, "--") == 0) {
            if (i + 1 < argc && !dump)
                dump = argv[++i];
            if (i + 1 < argc)
                return usage_error("unexpected argument '%s'", argv[i + 1]);
            break;
        } else if (a[0] == '-' && a[1] != '\0')
            return usage_error("unknown option '%s'", a);
        else if (!dump) {
            dump = a;
            continue;
        } else
            return usage_error("unexpected argument '%s'", a);
        if (!val) {
            if (i + 1 >= argc)
                return usage_error("%s", is_out ? "-o/--output needs a file name"
                                   : is_level ? "-z/--level needs a gzip level 1..9"
                                   : "--max-samples needs a number");
            val = argv[++i];
        }
        if (is_out)
            out = val;
        if (is_level) {
            if (val[0] < '1' || val[0] > '9' || val[1] != '\0')
                return usage_error("gzip level must be 1..9, not '%s'", val);
            level = val[0] - '0';
        }
        if (is_max) {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(val, &end, 10);
            if (!val[0] || *end || errno || val[0] == '-')
                return usage_error("--max-samples needs a number, not '%s'",
                                   val);
            max_samples = v;
        }
    }
    if (!dump)
        return usage_error("%s", "missing the DUMP argument");
#ifdef M_MMAP_THRESHOLD
    /* Big tables grow by doubling. glibc raises its mmap threshold as big
     * blocks are freed, and then grows them on the heap, copying each one
     * and faulting in new pages; mmapped blocks grow in place (mremap). */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    if (!out || !out[0])
        return usage_error("%s", "missing -o OUT");
    /* A line-level dump's sample count, which decides how it is converted,
     * is in its last line. */
    if (follow && !per_function)
        return usage_error("%s", "--follow needs --per-function");

    /* Read the header before creating anything: a dump that is not one
     * leaves no trace. */
    cu_oom_names("pprof", dump);
    struct stacks_reader *r = sr_open_following(dump, follow ? 0 : -1);
    if (sr_error(r)) {
        fprintf(stderr, "cycprof pprof: %s\n", sr_error(r));
        sr_close(r);
        return 1;
    }

    struct out_file o;
    char err[1200];
    if (of_open(&o, out, err, sizeof err) != 0) {
        fprintf(stderr, "cycprof pprof: cannot write %s\n", err);
        sr_close(r);
        return 1;
    }
    cu_oom_names("pprof", out);
    uint64_t coarse_max = dc_coarse_limit(dump, max_samples, per_function,
                                          follow);
    struct pc_result res;
    int ok = dc_write(r, o.f, level, coarse_max, out, &res, err,
                      sizeof err) == 0;
    if (ok && coarse_max)
        note_coarse(&res, max_samples);
    if (!ok) {
        fprintf(stderr, "cycprof pprof: %s\n", err);
        of_abort(&o);
    }
    else if (of_commit(&o, err, sizeof err) != 0) {
        fprintf(stderr, "cycprof pprof: cannot write %s\n", err);
        ok = 0;
    }
    sr_close(r);
    return ok ? 0 : 1;
}
