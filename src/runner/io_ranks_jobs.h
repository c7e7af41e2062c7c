/*
 * io_ranks_jobs — a job file's jobs on every MPI rank (`mpirun -np N storbench-mpi io
 * job.fio`), as fio's client runs one job file on each server: each rank runs every job
 * on files of its own, and each job's figures are combined over the ranks (fio's "All
 * clients"). The command (cli/io.c) reads the file, names each rank's files with
 * sb_io_ranks_own_files() and runs each phase with sb_io_ranks_phase() in place of
 * sb_io_run_many(); it prints each job with its report as a run alone prints it.
 */
#ifndef SB_RUNNER_IO_RANKS_JOBS_H
#define SB_RUNNER_IO_RANKS_JOBS_H

#include <stdatomic.h>
#include <stddef.h>

#include "io/run/jobrun.h"
#include "runner/io_ranks.h"

/* This rank's own files for job: each file it names becomes "<FILE>.<R>" (IOR's file per
 * process) when there are several ranks; a device stays itself (each host's own), and a
 * job that writes one is refused when ranks share a host. A directory job needs nothing:
 * its files go into a private directory of its own. Its logs' prefixes become
 * "<PREFIX>.<R>" as well. 0, or -errno with the reason in err. */
int sb_io_ranks_own_files(sb_io_job *job, char *err, size_t errlen);

/* One phase on every rank (all ranks call it with the same jobs): a barrier, the phase's
 * jobs at once (sb_io_run_many; with per_job, the rank's own jobs, first being the index
 * of slots[0]'s job in the file), the ranks' agreement, then each job's result summed
 * over the ranks that ran it in its slot and their figures in reps[m]. 0, or the status
 * of the lowest failing rank with "rank R on HOST: JOB: ..." in err on every rank (the
 * slots' results freed); -EINTR when interrupted. */
int sb_io_ranks_phase(sb_io_run_slot *slots, size_t n, size_t first, unsigned per_job, atomic_bool *end_all,
                      sb_io_ranks_report *reps, char *err, size_t errlen);

/* --ranks-per-job K (per_job; 0: every rank): whether rank of size ranks runs the job at
 * index (its place in the job file, from 0). Job i runs on the K ranks from (i x K) mod
 * size on, wrapping past the last rank to rank 0: with K x jobs <= size each rank has
 * at most one job; with more, the jobs go round the ranks again, and a rank may run
 * several jobs of one phase at once. */
bool sb_io_ranks_runs_job(size_t index, unsigned per_job, int rank, int size);

#endif
