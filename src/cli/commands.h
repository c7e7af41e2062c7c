/*
 * commands — the subcommands' entry points, which main.c's table dispatches to. Each
 * lives in its own file, parses its own options with getopt_long, answers --help on
 * stdout with exit 0, reports bad usage as one line "storbench: CMD: ..." with exit 2
 * (cli/common.h) and runtime failures with exit 1. The CLI only parses and prints: what
 * a command does lives below src/cli/ (runner/, scenario/, io/, formats/, report/).
 */
#ifndef SB_CLI_COMMANDS_H
#define SB_CLI_COMMANDS_H

typedef struct sb_command {
    const char *name;
    const char *summary;
    int (*main)(int argc, char **argv); /* argv[0] is the command name */
} sb_command;

int sb_cmd_run(int argc, char **argv);
int sb_cmd_list(int argc, char **argv);
int sb_cmd_show(int argc, char **argv);
int sb_cmd_merge(int argc, char **argv);
int sb_cmd_import(int argc, char **argv);
int sb_cmd_sysinfo(int argc, char **argv);
int sb_cmd_dd(int argc, char **argv);
int sb_cmd_compare(int argc, char **argv);
int sb_cmd_plot(int argc, char **argv);
int sb_cmd_sweep(int argc, char **argv);
int sb_cmd_io(int argc, char **argv);
int sb_cmd_ior(int argc, char **argv);
int sb_cmd_io500(int argc, char **argv);
int sb_cmd_scenario(int argc, char **argv);

#endif
