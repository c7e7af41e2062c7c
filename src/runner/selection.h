/*
 * selection — what `run`, `scenario run` and `list --check` share: turning
 * test and suite names (with inline "TEST:k=v" options, --option assignments
 * and pts/NAME aliases) into resolved configurations for the runner. A
 * refusal is 0 or -EINVAL with one line in err, which the CLI prints as
 * "storbench: CMD: line" (exit 2; cli/select.h's sb_cli_select*).
 */
#ifndef SB_RUNNER_SELECTION_H
#define SB_RUNNER_SELECTION_H

#include <stdbool.h>
#include <stddef.h>

#include "results/result.h"
#include "workloads/workload.h"

#define SB_MAX_SELECTIONS 128

typedef struct sb_selection {
    size_t n;
    sb_config cfg[SB_MAX_SELECTIONS];
    /* Set by the last sb_selection_add() of a pts/NAME whose version the test does not
     * follow ("note: pts/… runs storbench's …"), else empty: a line for stderr. */
    char note[512];
} sb_selection;

/* Adds a test ("dd", "dd:count=8,bs=1M" — name is modified), a pts/NAME alias or every
 * test of a suite. 0, or -EINVAL with the reason in err. */
int sb_selection_add(sb_selection *s, char *name, bool quick, char *err, size_t errlen);
/* Applies each "KEY=VALUE" (modified) to every selected test that has KEY, and
 * "TEST:KEY=VALUE,…" to that test. 0, or -EINVAL with the reason in err. */
int sb_selection_set_options(sb_selection *s, char **assignments, size_t n, char *err, size_t errlen);
/* Resolves each configuration's options into its params, once (sb_config_resolve): what
 * runs a selection calls this before anything is built or measured. 0, or -EINVAL with
 * the reason in err. */
int sb_selection_validate(sb_selection *s, char *err, size_t errlen);
/* The charts a run of s as identifier will add figures to, each with an empty entry of
 * identifier, into out (initialised): for refusing before the run what the save would. */
void sb_selection_probe(const sb_selection *s, const char *identifier, sb_resultfile *out);

#endif
