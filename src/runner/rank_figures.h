/*
 * rank_figures — the runner's side of MPI ranks (docs/mpi.md, "run on ranks").
 * Before each run every rank waits for the others, with the page cache
 * dropped once per host; after it the ranks agree on success, and rank 0
 * combines all ranks' samples (gathered to it) into one set of figures — IOR's
 * aggregate over the latest end minus the earliest start, per-rank minimum,
 * mean and maximum, first and last done, latency histograms merged — which it
 * broadcasts, so that the run-count rule decides the same on every rank and
 * rank 0 records what all ranks did. Not called without storbench-mpi.
 */
#ifndef SB_RANK_FIGURES_H
#define SB_RANK_FIGURES_H

#include <stddef.h>
#include <stdint.h>

#include "workloads/workload.h"

/* The checked barrier that starts a run, after the page cache was dropped: status is
 * whether this rank's directory was made (0 or -errno, its line in msg). 0, or the
 * agreed failure with its line in err. */
int sb_rank_run_begin(int status, const char *msg, char *err, size_t errlen);

/* After run() and the removal of its directory: status is this rank's (0 or -errno) and
 * msg its line. Returns 0 with samples holding every rank's combined figures, on every
 * rank (t_ref: the begin barrier; t_ret: when run() returned, for samples that do not
 * say when their measured part ended), or the agreed failure with "rank R on HOST: ..."
 * in err. */
int sb_rank_run_end(const sb_workload *w, int status, const char *msg, sb_sample *samples,
                    uint64_t t_ref, uint64_t t_ret, char *err, size_t errlen);

#endif
