/*
 * select — what `run`, `scenario run` and `list` share about choosing tests (select.c):
 * their -n/--runs and -o KEY=VALUE arguments, and runner/selection.h with the CLI's
 * printing. Each returns 0, or SB_EXIT_USAGE after its one line.
 */
#ifndef SB_CLI_SELECT_H
#define SB_CLI_SELECT_H

#include <stdbool.h>
#include <stddef.h>

/* -n/--runs N (1 to 100 scheduled runs) into *runs, and -o KEY=VALUE appended to list (*n
 * of them, at most SB_MAX_ASSIGNMENTS). */
#define SB_MAX_ASSIGNMENTS 64
int sb_runs_arg(const char *cmd, const char *arg, unsigned *runs);
int sb_assignment_arg(const char *cmd, char *arg, char **list, size_t *n);
/* The pts/ note on stderr, a refusal as "storbench: CMD: line". sb_cli_select_validate
 * resolves every configuration's options (runner/selection.h), before anything runs. */
struct sb_selection;
int sb_cli_select(const char *cmd, struct sb_selection *s, char *name, bool quick);
int sb_cli_select_options(const char *cmd, struct sb_selection *s, char **assignments, size_t n);
int sb_cli_select_validate(const char *cmd, struct sb_selection *s);

#endif
