/*
 * io_ranks — `storbench io` on every rank of an MPI job, with the figures IOR
 * and IO500 define (docs/mpi.md): each rank its own files (or its own region
 * of one shared file), phases separated by checked barriers, the page cache
 * dropped between them, and the ranks' figures combined: aggregate bandwidth
 * over the latest end minus the earliest start, per-rank minimum, mean and
 * maximum, first and last done, stonewalling, merged latency histograms.
 * With one rank (plain storbench given --shared-file or --stonewall) it is
 * the same code with barriers that return at once. What the CLI prints of a
 * report (text and JSON) is cli/io_ranks.h's.
 */
#ifndef SB_RUNNER_IO_RANKS_H
#define SB_RUNNER_IO_RANKS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/histogram.h"
#include "io/job.h"

/* Where rank R's --size bytes lie in the shared file (--layout). */
enum {
    SB_IO_LAYOUT_CONTIGUOUS = 0, /* one region: [offset + R x size, offset + (R+1) x size) */
    SB_IO_LAYOUT_INTERLEAVED,    /* IOR's segments: rank R's segment s of size/segments
                                  * bytes at offset + (s x N + R) x (size/segments) */
};

typedef struct sb_io_ranks_opts {
    bool shared_file;   /* one file, each rank its own part of --size bytes (layout) */
    int layout;         /* SB_IO_LAYOUT_*: only with shared_file */
    uint64_t segments;  /* interleaved: segments per rank (IOR's -s); 0 = size / bs */
    double stonewall_s; /* 0 = none: every rank stops this long into the measured phase */
    unsigned per_job;   /* --ranks-per-job: each job of a job file on this many ranks (0: all) */
} sb_io_ranks_opts;

/* One phase's figures over all ranks. */
typedef struct sb_io_phase_report {
    char name[16];              /* the rw mode of the phase: "write", "randread" */
    uint64_t bytes, ios;        /* all ranks */
    double elapsed_s;           /* latest end - earliest start */
    double bw, iops;            /* aggregate: all bytes (I/Os) / elapsed_s */
    double bw_min, bw_mean, bw_max; /* per rank: its bytes / its own interval */
    double first_done_s, last_done_s; /* from the earliest start */
    uint64_t bytes_min, bytes_max;    /* per rank */
    int ranks_stonewalled;      /* ranks that the wall stopped (0 without --stonewall) */
    sb_histogram lat;           /* completion latency of every I/O of every rank */
} sb_io_phase_report;

#define SB_IO_MAX_PHASES 2

typedef struct sb_io_ranks_report {
    int ranks, hosts, max_per_host;
    char mpi[64];               /* "Open MPI v4.1.4", or "none" */
    bool shared_file;
    int layout;                 /* SB_IO_LAYOUT_* of the shared file */
    uint64_t segment_bytes;     /* interleaved: each segment's bytes (IOR's blockSize) */
    double stonewall_s;
    bool cache_dropped;         /* between phases, on every host (root only) */
    size_t n_phases;
    sb_io_phase_report phase[SB_IO_MAX_PHASES];
} sb_io_ranks_report;

/* The layout's rules, before anything is made: interleaved needs --shared-file, a
 * sequential job of one block size (none of zonemode, rw's skip), and a size that
 * splits into whole segments of whole blocks. 0, or -EINVAL with the reason in err. */
int sb_io_ranks_check(const sb_io_job *job, const sb_io_ranks_opts *o, char *err, size_t errlen);

/* Runs job on every rank (all ranks call it). res: the requested job's figures summed
 * over ranks, elapsed = latest end - earliest start; rep: every phase. 0, or the status
 * of the failing rank with "rank R on HOST: ..." in err, after every rank removed its
 * temporary files; -EINTR when interrupted. */
int sb_io_ranks_run(const sb_io_job *job, const sb_io_ranks_opts *o, sb_io_result *res,
                    sb_io_ranks_report *rep, char *err, size_t errlen);

/* rep emptied, with the MPI job's shape (ranks, hosts, ranks per host, implementation). */
void sb_io_ranks_report_start(sb_io_ranks_report *rep);

/* The figures of one job that ran on every rank between t0 and t1 (sb_now_ns() around
 * it, from the barrier that started it): r summed over the ranks (as sb_io_ranks_run's
 * res) and ph the phase's figures (IOR's). wall: the stonewall (0 = none), walled: the
 * poll stopped this rank at it. All ranks call it, for the same jobs in the same order.
 * 0 or a negative errno of the collectives. */
int sb_io_ranks_combine(const sb_io_job *j, sb_io_result *r, uint64_t t0, uint64_t t1, double wall,
                        bool walled, sb_io_phase_report *ph);
/* The same for a job that ran on some of the ranks only (--ranks-per-job): a rank that did
 * not run it (ran false) gives an empty r (sb_io_result_empty) and no interval, so the sums
 * are its ranks', the interval their earliest start to their latest end, and the per-rank
 * spread and ph->... counts theirs; *nran gets how many ran it. */
int sb_io_ranks_combine_some(const sb_io_job *j, sb_io_result *r, uint64_t t0, uint64_t t1, bool ran,
                             int *nran, sb_io_phase_report *ph);

#endif
