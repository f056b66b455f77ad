/* What the stack-printing subcommands (folded, flamegraph) share: the
 * -h, -o OUT and FILE arguments, and writing to OUT or standard output. */
#ifndef CYCPROF_STACK_CMD_H
#define CYCPROF_STACK_CMD_H

#include <stdio.h>

typedef struct stack_cmd {
    const char *name;  /* "folded": the subcommand, for messages */
    const char *usage; /* printed by -h/--help */
    const char *out;   /* -o OUT, or NULL for standard output */
    const char *file;  /* FILE, or NULL for the newest profile here */
    const char *event; /* --event=EV, or NULL for pprof's default */
} stack_cmd_t;

/* Take argv[*i] if it is -h/--help, -o/--output OUT, --event=EV or the
 * FILE; call it
 * after the subcommand's own options. Returns 0 when taken, 1 after
 * printing the usage, -1 after a one-line error (unknown option, second
 * FILE, -o without a name). */
int sc_arg(stack_cmd_t *c, int argc, char **argv, int *i);

/* Open OUT (or use stdout), call write(f, ctx) and close; a failure to
 * open or a write error is one line. Returns 0 or -1. */
int sc_write(const stack_cmd_t *c, int (*write)(FILE *f, const void *ctx),
             const void *ctx);

#endif
