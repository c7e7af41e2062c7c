/*
 * selection — what `run` and `scenario run` share: turning test and suite
 * names (with inline "TEST:k=v" options and --option assignments) into
 * resolved configurations (their result file is saved through save.h).
 * Functions that can be refused print one "storbench: CMD: ..." line and
 * return SB_EXIT_USAGE, like the rest of the CLI layer.
 */
#ifndef SB_CLI_SELECTION_H
#define SB_CLI_SELECTION_H

#include <stdbool.h>
#include <stddef.h>

#include "results/result.h"
#include "workloads/workload.h"

#define SB_MAX_SELECTIONS 128

typedef struct sb_selection {
    size_t n;
    sb_config cfg[SB_MAX_SELECTIONS];
} sb_selection;

/* Adds a test ("dd", "dd:count=8,bs=1M" — name is modified) or every test of a suite.
 * 0, or SB_EXIT_USAGE after printing the reason. */
int sb_selection_add(sb_selection *s, const char *cmd, char *name, bool quick);
/* Applies each "KEY=VALUE" (modified) to every selected test that has KEY. */
int sb_selection_set_options(sb_selection *s, const char *cmd, char **assignments, size_t n);
/* Runs each workload's validate(). */
int sb_selection_validate(const sb_selection *s, const char *cmd);
/* The charts a run of s as identifier will add figures to, each with an empty entry of
 * identifier, into out (initialised): for refusing before the run what the save would. */
void sb_selection_probe(const sb_selection *s, const char *identifier, sb_resultfile *out);

#endif
