/*
 * common — the helpers every subcommand uses (common.c): the one-line refusals of bad
 * usage (exit 2), a result file's path, a UTF-8 argument, the terminal width.
 */
#ifndef SB_CLI_COMMON_H
#define SB_CLI_COMMON_H

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
/* The result file a command reads (show, compare, merge, plot): NAME|FILE -> path. A name
 * with a '/' is a path; a name that is a regular file in the current directory is that
 * file ("show r.json" beside r.json), and when a saved result of that name exists too a
 * line on stderr says the file was taken; otherwise the saved result, as
 * sb_cli_result_path(). 0, or the exit code after the message. */
int sb_cli_input_path(const char *cmd, const char *name, const char *results_dir, char *out,
                      unsigned long len);
/* 0, or the usage error (exit 2) when value is not valid UTF-8; what names it ("--title"). */
int sb_check_utf8_arg(const char *cmd, const char *what, const char *value);
/* Terminal width of stdout, else $COLUMNS (capped at 10000, as --width), else 80. */
int sb_terminal_width(void);
/* The long option every command that touches result files accepts. */
#define SB_OPT_RESULTS_DIR 0x1000

#endif
