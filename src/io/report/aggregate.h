/*
 * aggregate — a job's results summed into the blocks fio reports: one per job, one per
 * thread of a job (numjobs without group_reporting), or one per group (group_reporting:
 * the group's jobs summed, their latencies merged). This is the arithmetic of a report,
 * kept in the engine's layer so that the command line (cli/io_output.c) only lays the
 * blocks out in fio's formats and prints them: counts and bytes added, histograms merged,
 * an asynchronous engine's latency split into fio's slat/clat/lat, IO depth maps, the
 * process's CPU and faults over a phase, cmdprio's priorities as fio's class and level.
 */
#ifndef SB_IO_REPORT_AGGREGATE_H
#define SB_IO_REPORT_AGGREGATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "core/histogram.h"
#include "io/job.h"
#include "io/loop/cmdprio.h"

/* The directions of a block: read, write, trim, and unified_rw_reporting's "mixed" (every
 * I/O of the job as one direction; empty without the option). */
#define SB_IO_AGG_MIXED SB_DDIR_N
#define SB_IO_AGG_NDIR (SB_DDIR_N + 1)

/* One priority's latency (cmdprio): fio's class and level of the ioprio value. */
typedef struct sb_io_agg_prio {
    int cls, level;
    const sb_histogram *clat;
} sb_io_agg_prio;

/* One direction of a block. The histograms are the block's own (merged into, freed with it). */
typedef struct sb_io_agg_dir {
    uint64_t ios, bytes;
    /* fio's clat: from the submission to completion. slat and lat: an asynchronous
     * engine's split (start to submission, start to completion), else NULL. */
    sb_histogram *clat, *slat, *lat;
    /* fio's bandwidth and IOPS samples of the whole job when it has this one direction: one
     * per bwavgtime / iopsavgtime where the result has them, else one a second; n = 0: none */
    double *bw, *iops;
    size_t n_samples, n_iops_samples;
    sb_io_agg_prio prios[SB_CMDPRIO_MAX_PRIOS];
    unsigned n_prios;
    double runtime_s;          /* fio's runtime of this direction; 0: the block's; SB_IO_AGG_NO_RUNTIME: none */
} sb_io_agg_dir;

/* A direction that ran no time of its own: verify_backlog's reads in a job that does not
 * read and has no verify phase (time based), to which fio gives a read runtime of 0 ms, and
 * so a bandwidth and IOPS of 0 (its normal output then leaves the direction out). */
#define SB_IO_AGG_NO_RUNTIME (-1.0)

typedef struct sb_io_agg {
    unsigned groupid;
    bool group_reporting;      /* the job's: a later block of its group joins this one */
    unsigned jobs;             /* threads the block covers */
    int error;                 /* the job's errno, else continue_on_error's first */
    double runtime_s, elapsed_s;
    sb_io_agg_dir dir[SB_IO_AGG_NDIR];
    sb_histogram *all;         /* every direction's clat together (empty under disable_clat) */
    double usr_pct, sys_pct;   /* of the process, over the job's wall time */
    uint64_t ctx, majf, minf;  /* of the process, since the phase began */
    bool depth_known;
    uint64_t depth_level[SB_IO_DEPTH_BUCKETS], depth_submit[SB_IO_DEPTH_BUCKETS],
        depth_complete[SB_IO_DEPTH_BUCKETS];
    bool no_syncs;             /* the job calls no fsync/fdatasync */
    sb_histogram *sync_lat;    /* fsync=N / fdatasync=N: their latency (a copy), or NULL */
    uint64_t sync_ios;         /* ... of them fsyncs (fio's sync total_ios) */
    uint64_t zone_resets;
    bool continue_on_error;
    uint64_t total_err;
    int first_error;
    sb_prio_stats *prio;       /* cmdprio's (a copy; the prios point into it), or NULL */
} sb_io_agg;

/* The block of job's result r, or of its thread t (t < 0: the whole job), in group
 * groupid, with the mixed direction under unified_rw_reporting and without the figures
 * disable_bw_measurement and disable_clat leave out (samples, latency buckets); error the errno of a failed job. ru0 and ru: the process's usage when its
 * phase began and when the job ended (its context switches and faults are the
 * difference). Never NULL. */
sb_io_agg *sb_io_agg_new(const sb_io_job *job, const sb_io_result *r, int t, unsigned groupid,
                         int error, const struct rusage *ru0, const struct rusage *ru);
/* Whether b joins the block last under group_reporting (both report by group, same group). */
bool sb_io_agg_joins(const sb_io_agg *last, const sb_io_agg *b);
/* Adds b's figures into into (counts summed, histograms merged, the process's figures
 * the larger: each is the whole process's). b is left as it was. */
void sb_io_agg_merge(sb_io_agg *into, const sb_io_agg *b);
void sb_io_agg_free(sb_io_agg *a);

/* A group's figures per direction (fio's "Run status group"): its bytes, the aggregate
 * bandwidth (bytes over the longest runtime), its blocks' least and greatest bandwidth
 * and runtime; a direction no block did stays 0. */
typedef struct sb_io_agg_group {
    unsigned id;
    uint64_t bytes[SB_IO_AGG_NDIR];
    double agg_bw[SB_IO_AGG_NDIR], min_bw[SB_IO_AGG_NDIR], max_bw[SB_IO_AGG_NDIR];
    double min_run_s[SB_IO_AGG_NDIR], max_run_s[SB_IO_AGG_NDIR];
} sb_io_agg_group;
/* Group groupid over the n blocks of a report. */
void sb_io_agg_group_of(const sb_io_agg *const *blocks, size_t n, unsigned groupid, sb_io_agg_group *g);

#endif
