/*
 * cli — the subcommands. Each lives in its own file, parses its own options
 * with getopt_long, answers --help on stdout with exit 0, reports bad usage as
 * one line "storbench: CMD: ..." with exit 2 and runtime failures with exit 1.
 * main.c only dispatches.
 */
#ifndef SB_CLI_H
#define SB_CLI_H

#include <stdbool.h>
#include <stddef.h>

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
int sb_cmd_ior(int argc, char **argv);
int sb_cmd_io500(int argc, char **argv);
int sb_cmd_scenario(int argc, char **argv);

/* Shared helpers (cli_common.c). */
/* The one refusal of a bad option, for every command: call it from getopt_long's default
 * case, with opterr = 0 and an optstring that starts with ':' ("+:" to stop at the first
 * operand). "option '--width' needs a value" / "unknown option '-z' (see 'storbench CMD
 * --help')", exit 2 (SB_EXIT_USAGE). getopt itself never prints. */
int sb_bad_option(const char *cmd, char **argv, int c);
/* Prints "storbench: CMD: msg" and returns SB_EXIT_USAGE. */
int sb_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* sb_result_path() with the one-line refusal: 0, or the exit code after the message
 * (2 for a bad name, 1 when there is no results directory or the path goes through a
 * symlink the protected-symlink rule of core/safepath.h refuses). */
int sb_cli_result_path(const char *cmd, const char *name, const char *results_dir, char *out,
                       unsigned long len);
/* 0, or the usage error (exit 2) when value is not valid UTF-8; what names it ("--title"). */
int sb_check_utf8_arg(const char *cmd, const char *what, const char *value);
/* What `run` and `scenario run` share: -n/--runs N (1 to 100 scheduled runs) into *runs,
 * and -o KEY=VALUE appended to list (*n of them, at most SB_MAX_ASSIGNMENTS). 0, or the
 * usage error (exit 2) after its line. */
#define SB_MAX_ASSIGNMENTS 64
int sb_runs_arg(const char *cmd, const char *arg, unsigned *runs);
int sb_assignment_arg(const char *cmd, char *arg, char **list, size_t *n);
/* runner/selection.h with the CLI's printing: the pts/ note on stderr, a refusal as
 * "storbench: CMD: line". 0, or SB_EXIT_USAGE after the line. */
struct sb_selection;
int sb_cli_select(const char *cmd, struct sb_selection *s, char *name, bool quick);
int sb_cli_select_options(const char *cmd, struct sb_selection *s, char **assignments, size_t n);
int sb_cli_select_validate(const char *cmd, struct sb_selection *s);
/* Terminal width of stdout, else $COLUMNS (capped at 10000, as --width), else 80. */
int sb_terminal_width(void);
/* The long option every command that touches result files accepts. */
#define SB_OPT_RESULTS_DIR 0x1000

#endif
