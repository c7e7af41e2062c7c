/*
 * preflight — whether one test selection can run here, asked before anything
 * is built or measured: the workload's own prerequisites (its available()
 * hook: a loadfile, a server binary) and, given a target, the free space the
 * runner will ask for. `list --check` prints the verdicts; `run --require-all`
 * refuses to start when any selection would be skipped.
 */
#ifndef SB_RUNNER_PREFLIGHT_H
#define SB_RUNNER_PREFLIGHT_H

#include <stddef.h>

#include "workloads/workload.h"

/* 0 when cfg can run (on target, when not NULL); -ENOTSUP (a prerequisite is missing:
 * the run would be skipped), -ENOSPC (not enough free space on target: the run would
 * fail) or another negative errno, with one line in why. */
int sb_preflight(const sb_config *cfg, const char *target, char *why, size_t whylen);

/* The runner's free-space rule: what space_needed() asks, with a margin, must be free
 * on target. 0, or -ENOSPC with "TEST: TARGET: No space left on device (needs …)". */
int sb_preflight_space(const sb_config *cfg, const char *target, char *why, size_t whylen);

#endif
