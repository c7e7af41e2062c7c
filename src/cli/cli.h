/*
 * cli — the subcommands. Each lives in its own file, parses its own options
 * with getopt_long, answers --help on stdout with exit 0, reports bad usage as
 * one line "storbench: CMD: ..." with exit 2 and runtime failures with exit 1.
 * main.c only dispatches.
 */
#ifndef SB_CLI_H
#define SB_CLI_H

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
int sb_cmd_io(int argc, char **argv);
int sb_cmd_scenario(int argc, char **argv);

/* Shared helpers (cli_common.c). */
/* Prints "storbench: CMD: msg" and returns SB_EXIT_USAGE. */
int sb_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Terminal width of stdout, else $COLUMNS, else 80. */
int sb_terminal_width(void);
/* The long option every command that touches result files accepts. */
#define SB_OPT_RESULTS_DIR 0x1000

#endif
