/* commands.h: the subcommand entry points, declared from commands.def. */
#ifndef CYCPROF_COMMANDS_H
#define CYCPROF_COMMANDS_H

/* Each returns the process exit status: 0 success, 1 failure, 2 bad usage. */
#define CYCPROF_COMMAND(name, summary) int cmd_##name(int argc, char **argv);
#include "commands/commands.def"
#undef CYCPROF_COMMAND

/* True if argv[1..] asks for help (-h or --help before any "--"): a helper
 * so that every subcommand answers --help the same way. */
int cli_wants_help(int argc, char **argv);

#endif
