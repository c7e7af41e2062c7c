/*
 * tool — running a system tool without a shell (see tool.c).
 */
#ifndef SB_SCENARIO_TOOL_H
#define SB_SCENARIO_TOOL_H

#include <stdbool.h>
#include <stddef.h>

/* Runs argv (argv[0] looked up in PATH) in cwd (NULL: here). Its stdout (the last 8 KiB)
 * goes to out when out is not NULL; on failure err gets "TOOL failed (exit N): the line
 * that says why". 0, or -EIO (non-zero exit, killed) / -errno. */
int sb_run_tool(char *const argv[], const char *cwd, char *out, size_t outlen, char *err, size_t errlen);
/* Whether prog is an executable in PATH (or the usual sbin/bin directories). */
bool sb_in_path(const char *prog);

#endif
