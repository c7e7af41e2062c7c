/*
 * io_ranks — `storbench io` on every rank of an MPI job, with the figures IOR
 * and IO500 define (docs/mpi.md): each rank its own files (or its own region
 * of one shared file), phases separated by checked barriers, the page cache
 * dropped between them, and the ranks' figures combined: aggregate bandwidth
 * over the latest end minus the earliest start, per-rank minimum, mean and
 * maximum, first and last done, stonewalling, merged latency histograms.
 * With one rank (plain storbench given --shared-file or --stonewall) it is
 * the same code with barriers that return at once.
 */
#ifndef SB_CLI_IO_RANKS_H
#define SB_CLI_IO_RANKS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/histogram.h"
#include "io/job.h"

typedef struct sb_io_ranks_opts {
    bool shared_file;   /* one file, each rank its own region of --size bytes */
    double stonewall_s; /* 0 = none: every rank stops this long into the measured phase */
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
    double stonewall_s;
    bool cache_dropped;         /* between phases, on every host (root only) */
    size_t n_phases;
    sb_io_phase_report phase[SB_IO_MAX_PHASES];
} sb_io_ranks_report;

/* Runs job on every rank (all ranks call it). res: the requested job's figures summed
 * over ranks, elapsed = latest end - earliest start; rep: every phase. 0, or the status
 * of the failing rank with "rank R on HOST: ..." in err, after every rank removed its
 * temporary files; -EINTR when interrupted. */
int sb_io_ranks_run(const sb_io_job *job, const sb_io_ranks_opts *o, sb_io_result *res,
                    sb_io_ranks_report *rep, char *err, size_t errlen);
void sb_io_ranks_print(FILE *out, const sb_io_ranks_report *rep);
json_t *sb_io_ranks_json(const sb_io_ranks_report *rep);

/* io_output.c's latency object (samples, min, max, mean, stddev, percentiles). */
json_t *sb_io_lat_json(const sb_histogram *h);

#endif
