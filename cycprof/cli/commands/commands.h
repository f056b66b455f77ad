/* commands.h: the subcommand entry points, declared from commands.def. */
#ifndef CYCPROF_COMMANDS_H
#define CYCPROF_COMMANDS_H

/* Each returns the process exit status: 0 success, 1 failure, 2 bad usage. */
#define CYCPROF_COMMAND(name, summary) int cmd_##name(int argc, char **argv);
#include "commands/commands.def"
#undef CYCPROF_COMMAND

#endif
