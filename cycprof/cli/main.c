/* main.c: the `cycprof` command — dispatches to subcommands.
 *
 *     cycprof SUBCOMMAND [ARGS...]
 *     cycprof help [SUBCOMMAND] | --help | --version
 *
 * The subcommand table comes from commands.def, so adding a subcommand is
 * one line there (plus its own source file). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <string.h>

#include "commands/commands.h"
#include "read/pprof_reader.h"
#include "write/dump_convert.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.0.0-dev"
#endif

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
#define CYCPROF_COMMAND(name, summary) { #name, cmd_##name, summary },
#include "commands/commands.def"
#undef CYCPROF_COMMAND
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fprintf(out,
            "usage: cycprof SUBCOMMAND [ARGS...]\n"
            "       cycprof help [SUBCOMMAND]\n"
            "       cycprof --version\n"
            "\n"
            "Userland companion of the cycprof Valgrind tool\n"
            "(valgrind --tool=cycprof ./app), which counts every executed\n"
            "instruction and charges it to its exact call stack.\n"
            "\n"
            "subcommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-12s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'cycprof SUBCOMMAND --help' (or 'man cycprof-SUBCOMMAND') "
            "describes one\nsubcommand; 'man cycprof' has this and the "
            "tool's options.\n");
}

static const struct command *find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

int main(int argc, char **argv)
{
    /* Every command that reads pprof profiles reads a stacks dump too. */
    pprof_set_dump_converter(dc_load);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "-h") == 0 || strcmp(sub, "--help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(sub, "--version") == 0 || strcmp(sub, "-V") == 0) {
        printf("cycprof %s\n", PACKAGE_VERSION);
        return 0;
    }
    if (strcmp(sub, "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return 0;
        }
        const struct command *c = find(argv[2]);
        if (!c) {
            fprintf(stderr, "cycprof: unknown subcommand '%s' "
                    "(see cycprof --help)\n", argv[2]);
            return 2;
        }
        char help[] = "--help";
        char *hargv[] = { argv[2], help, NULL };
        return c->run(2, hargv);
    }
    const struct command *c = find(sub);
    if (!c) {
        fprintf(stderr, "cycprof: unknown subcommand '%s' "
                "(see cycprof --help)\n", sub);
        return 2;
    }
    return c->run(argc - 1, argv + 1);
}
