/* See stack_cmd.h. */
#define _POSIX_C_SOURCE 200809L
#include "commands/stack_cmd.h"
#include "util/cmdutil.h"
#include "util/out_file.h"

#include <errno.h>
#include <string.h>

int sc_arg(stack_cmd_t *c, int argc, char **argv, int *i)
{
    const char *a = argv[*i], *v;
    int r;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
        fputs(c->usage, stdout);
        return 1;
    } else if ((r = cu_opt_value(argc, argv, i, "--output", "-o", &v))) {
        if (r < 0) {
            cu_err(c->name, "-o/--output needs a file name");
            return -1;
        }
        c->out = v;
        cu_output_is_stdout = 0;
    } else if ((r = cu_opt_value(argc, argv, i, "--event", NULL, &v))) {
        if (r < 0 || !*v) {
            cu_err(c->name, "--event needs an event name");
            return -1;
        }
        c->event = v;
    } else if (a[0] == '-' && a[1]) {
        cu_err(c->name, "unknown option '%s' (see cycprof %s --help)", a,
               c->name);
        return -1;
    } else if (c->file) {
        cu_err(c->name, "only one FILE, please");
        return -1;
    } else {
        c->file = a;
    }
    return 0;
}

int sc_write(const stack_cmd_t *c, int (*write)(FILE *f, const void *ctx),
             const void *ctx)
{
    struct out_file o;
    char err[1200];
    if (!c->out) {
        if (write(stdout, ctx) < 0 || fflush(stdout) != 0) {
            cu_err(c->name, "standard output: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    if (of_open(&o, c->out, err, sizeof err) != 0) {
        cu_err(c->name, "%s", err);
        return -1;
    }
    if (write(o.f, ctx) < 0) {
        int e = errno;
        of_abort(&o);
        cu_err(c->name, "%s: %s", c->out, strerror(e));
        return -1;
    }
    if (of_commit(&o, err, sizeof err) != 0) {
        cu_err(c->name, "%s", err);
        return -1;
    }
    return 0;
}
