/*
 * live — a running job's figures while it runs, for fio's --status-interval and its
 * progress line: the caller owns an sb_io_live per job and hands it to
 * sb_io_run_live() (or to the job's slot, jobrun.h); while the job's threads run, any
 * other thread may ask for a snapshot of their counters and histograms, cumulative since
 * the measurement began, as fio's interval reports are. When the threads have ended the
 * live view keeps their final figures, so that a report taken after a job of a phase
 * ended and before the phase did still shows it.
 *
 * A snapshot never stops the worker threads and adds nothing to their hot path: it reads
 * their statistics as fio's stat thread reads its jobs' (__show_running_run_stats), each
 * 64-bit counter with a relaxed atomic load, so every value read is one the worker wrote;
 * the counters are not all of one instant, so a histogram's count is recomputed from its
 * buckets (its percentiles then agree with it). The time series comes from the intervals
 * the workers have published (core/timeseries.h: release order). The lock only keeps the
 * workers from being freed while a snapshot reads them.
 */
#ifndef SB_IO_LIVE_H
#define SB_IO_LIVE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/cpuset.h"
#include "core/timeseries.h"
#include "io/job.h"

/* What a snapshot reads of one worker thread (worker.c points these into it): its
 * figures per direction, completions, depth maps, last completion, whether it ended,
 * its time series. */
typedef struct sb_io_live_thread {
    const sb_io_dir_stats *st;           /* [SB_DDIR_N] */
    const sb_io_dir_stats *sync;         /* fsync=N's syncs */
    const uint64_t *ios_done, *total_err, *last_ns;
    const sb_io_depths *depths;
    const atomic_bool *finished;
    const sb_tsb *ts;
    const uint64_t *fsyncs;              /* of sync's, the fsyncs */
} sb_io_live_thread;

typedef struct sb_io_live {
    pthread_mutex_t lock;
    int state;                /* SB_IO_LIVE_* */
    const sb_io_job *job;     /* the job as it runs (sizes per file) */
    const sb_io_live_thread *ws; /* while running: its threads */
    unsigned n;
    char engine[32];
    unsigned effective_iodepth;
    uint64_t start_ns;        /* the threads' start */
    sb_cpu_times cpu0;        /* the process's CPU then */
    sb_io_result *final;      /* once ended: the figures as the threads left them */
} sb_io_live;

enum { SB_IO_LIVE_WAITING = 0, SB_IO_LIVE_RUNNING, SB_IO_LIVE_ENDED };

void sb_io_live_init(sb_io_live *l);
/* A running job's bytes per thread when the run knows them other than by its size (a
 * replayed log's, job.h's replay_bytes); 0 otherwise. */
uint64_t sb_io_live_replay_bytes(sb_io_live *l);
void sb_io_live_free(sb_io_live *l);
/* The job's figures now into res (an empty result to fill; free with sb_io_result_free):
 * SB_IO_LIVE_RUNNING or _ENDED, or SB_IO_LIVE_WAITING (res untouched: nothing ran yet).
 * -ENOMEM when out of memory. */
int sb_io_live_snapshot(sb_io_live *l, sb_io_result *res);
/* Only the completed I/Os and bytes per direction (for a progress line: cheap). The
 * state as above. */
int sb_io_live_counts(sb_io_live *l, uint64_t ios[SB_DDIR_N], uint64_t bytes[SB_DDIR_N]);

/* worker.c's side: the threads started (attach) and joined, before they are freed
 * (detach: their final figures kept). */
void sb_io_live_attach(sb_io_live *l, const sb_io_job *job, const sb_io_live_thread *ws, unsigned n,
                       const char *engine, unsigned depth, uint64_t start_ns, const sb_cpu_times *cpu0);
void sb_io_live_detach(sb_io_live *l);

/* sb_io_run() with a live view (NULL: none). */
int sb_io_run_live(const sb_io_job *job, sb_io_result *result, sb_io_live *live, char *err,
                   size_t errlen);

#endif
