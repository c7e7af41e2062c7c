/*
 * io_status — what `storbench io` shows while its jobs run, from a thread of its own
 * beside them: fio's --status-interval (a full report of the figures so far, cumulative
 * since the start, in every output format selected; cli/io_output.h) and fio's progress
 * line (--eta, --eta-interval, --eta-newline), always on standard error, so that a JSON
 * report on standard output is never broken by it. The figures come from the jobs'
 * live views (io/run/live.h), read without stopping their threads.
 */
#ifndef SB_CLI_IO_STATUS_H
#define SB_CLI_IO_STATUS_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/io_output.h"
#include "io/run/live.h"

enum { SB_ETA_AUTO = 0, SB_ETA_ALWAYS, SB_ETA_NEVER };

typedef struct sb_io_status_opts {
    double status_s;         /* --status-interval; 0 = none */
    int eta;                 /* SB_ETA_* */
    double eta_interval_s;   /* --eta-interval (fio's 1 s) */
    double eta_newline_s;    /* --eta-newline; 0 = none */
} sb_io_status_opts;

/* A job of the phase that runs now, as the report names it. */
typedef struct sb_io_status_job {
    const sb_io_job *job;
    unsigned group;
    const sb_jobfile_given *given;
} sb_io_status_job;

typedef struct sb_io_status sb_io_status;

/* Starts the thread when there is something to show (else NULL, and every call below
 * takes NULL). out: where interval reports go, shared with the caller under the lock. */
sb_io_status *sb_io_status_start(const sb_io_status_opts *opts, sb_io_out *out);
/* The jobs of the phase about to run: their live views (NULL when s is NULL), one per
 * job, for sb_io_run_live() or the jobs' slots (io/run/jobrun.h). */
sb_io_live *sb_io_status_phase(sb_io_status *s, const sb_io_status_job *jobs, size_t n);
/* The phase's jobs are done: their live views go. Called with the lock held, in the
 * same hold as their final figures go into out (no report then has them twice). */
void sb_io_status_phase_end(sb_io_status *s);
/* Held by the caller while it adds to out (a report may be written meanwhile). */
void sb_io_status_lock(sb_io_status *s);
void sb_io_status_unlock(sb_io_status *s);
/* Stops the thread (the progress line cleared) and frees s. */
void sb_io_status_stop(sb_io_status *s);

#endif
