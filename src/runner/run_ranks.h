/*
 * run_ranks — `storbench run` on MPI ranks: which tests may run there, rank
 * 0's verdict on the result file for every rank, and the system description
 * of every host (docs/mpi.md). Called only under storbench-mpi, by `run`
 * (cli/run.c), whose name the verdict's line carries.
 */
#ifndef SB_RUNNER_RUN_RANKS_H
#define SB_RUNNER_RUN_RANKS_H

#include <stddef.h>

#include "results/result.h"
#include "runner/selection.h"

/* 0, or -EINVAL with the line naming a test that does not run on ranks in err. */
int sb_run_ranks_check(const sb_selection *sel, char *err, size_t errlen);
/* Rank 0's exit code (it printed why), for every rank. */
int sb_run_ranks_settle(int code);
/* Every rank's code for one step (0, or an exit code with its line in msg): the first
 * failing rank's line is printed by rank 0, "run: rank R on HOST: msg"; its code returned. */
int sb_run_ranks_verdict(int code, const char *msg);
/* Gathers every rank's system description; on rank 0, fields whose values differ between
 * hosts show each value with its hosts, and Ranks, Hosts, Ranks Per Host and MPI are
 * added. Collective. 0 or -errno. */
int sb_run_ranks_describe(sb_system *sys);

#endif
