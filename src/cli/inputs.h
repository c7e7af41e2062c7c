/*
 * inputs — NAME|FILE... into one result file in memory (inputs.c), for the commands
 * that read several: compare, plot.
 */
#ifndef SB_CLI_INPUTS_H
#define SB_CLI_INPUTS_H

#include "results/result.h"

/* Reads every name (a file here or a path before a saved result: sb_cli_input_path) and
 * joins them into rf (initialised by the caller): the first as it is, each next one's
 * systems and figures added, an identifier already there renamed "ID (NAME)" with a line
 * on stderr. 0, or the exit code after one line naming cmd. */
int sb_cli_load_inputs(const char *cmd, char **names, int n, const char *results_dir,
                       sb_resultfile *rf);

#endif
