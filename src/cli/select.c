/*
 * select — what `run`, `scenario run` and `list` share about choosing tests (select.h):
 * -n/--runs and -o KEY=VALUE, and runner/selection.h with the CLI's printing (the pts/
 * note on stderr, a refusal as one usage line).
 */
#include <stdint.h>
#include <stdio.h>

#include "cli/common.h"
#include "cli/select.h"
#include "core/units.h"
#include "runner/selection.h"

int sb_runs_arg(const char *cmd, const char *arg, unsigned *runs)
{
    uint64_t v;
    if (sb_parse_uint(arg, 1, 100, &v) < 0)
        return sb_usage_error(cmd, "--runs must be a whole number from 1 to 100");
    *runs = (unsigned)v;
    return 0;
}

int sb_assignment_arg(const char *cmd, char *arg, char **list, size_t *n)
{
    if (*n >= SB_MAX_ASSIGNMENTS)
        return sb_usage_error(cmd, "too many --option");
    list[(*n)++] = arg;
    return 0;
}

int sb_cli_select(const char *cmd, sb_selection *s, char *name, bool quick)
{
    char err[512];
    int rc = sb_selection_add(s, name, quick, err, sizeof err);
    if (s->note[0])
        fprintf(stderr, "storbench: %s: %s\n", cmd, s->note);
    return rc < 0 ? sb_usage_error(cmd, "%s", err) : 0;
}

int sb_cli_select_options(const char *cmd, sb_selection *s, char **assignments, size_t n)
{
    char err[512];
    if (sb_selection_set_options(s, assignments, n, err, sizeof err) < 0)
        return sb_usage_error(cmd, "%s", err);
    return 0;
}

int sb_cli_select_validate(const char *cmd, sb_selection *s)
{
    char err[512];
    if (sb_selection_validate(s, err, sizeof err) < 0)
        return sb_usage_error(cmd, "%s", err);
    return 0;
}
