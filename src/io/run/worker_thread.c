/*
 * worker_thread — the life of one worker thread of an I/O job around its loop (loop.c):
 * the phase times, its own descriptor table, NUMA placement, nice/prio, the engine set up
 * in the thread that uses it, then the loop, the end fsync, the last time-series
 * interval, the log file's close and the engine's teardown. Apart from loop.c, which
 * keeps the hot path alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "core/clock.h"
#include "core/fdtable.h"
#include "io/run/worker.h"
#include "io/loop/replay.h"

/* A descriptor table of the thread's own, as each job process of fio has (core/fdtable.h
 * says why: fdget's shortcut, 1.5 % of a 4 KiB tmpfs psync run; issue 16). Only for
 * engines that pass the descriptor to no other thread (engine.h); the table keeps the
 * job's file, which the thread closes in it before it ends. */
static void private_fd_table(worker *w)
{
    /* not with log files: their descriptors, opened before, live in the shared table */
    if (w->td.ops->fd_own_thread && w->fd >= 3 && !w->log && !w->iolog && !w->fs && !w->job->submit_offload &&
        sb_private_fd_table(w->fd))
        w->fd_private = true;
}

/* The engine is set up in the thread that uses it: io_uring binds a single-issuer ring
 * to the task that creates it. */
static int worker_engine_init(worker *w)
{
    int r = w->td.ops->init(&w->td);
    if (r < 0) {
        w->err = r;
        snprintf(w->errmsg, sizeof w->errmsg, "%s engine: %s", w->td.ops->name,
                 w->td.why[0] ? w->td.why : strerror(-r));
        atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
        return r;
    }
    w->engine_ready = true;
    /* fio's fadvise_hint (by default the job's pattern): the kernel told the access
     * pattern, so that random buffered reads do not read ahead; a file system that
     * ignores the advice is no error. */
    int h = w->job->fadvise_hint;
    if (h == SB_FADVISE_PATTERN)
        h = sb_rw_is_random(w->job->rw) ? SB_FADVISE_RANDOM : SB_FADVISE_SEQUENTIAL;
    for (unsigned k = 0; h != SB_FADVISE_NONE && k < (w->fs ? w->fs->n : 1); k++)
        posix_fadvise(w->fs ? w->fs->f[k].fd : w->fd, 0, 0,
                      h == SB_FADVISE_RANDOM ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);
    return 0;
}

/* fio's nice and prio, for this thread alone (Linux keeps both per thread). */
static int thread_priority(worker *w)
{
    const sb_io_job *job = w->job;
    pid_t tid = (pid_t)syscall(SYS_gettid);
    const char *what = NULL;
    if (job->nice && setpriority(PRIO_PROCESS, (id_t)tid, job->nice) < 0)
        what = "nice";
    /* IOPRIO_WHO_PROCESS = 1; the class (prioclass, else best effort 2) in the top bits */
    else if ((job->prio >= 0 || job->prioclass >= 0) &&
             syscall(SYS_ioprio_set, 1, tid, sb_ioprio(job->prioclass >= 0 ? job->prioclass : 2,
                                                       job->prio >= 0 ? job->prio : 0, 0)) < 0)
        what = job->prio >= 0 ? "prio" : "prioclass";
    if (!what)
        return 0;
    w->err = -errno;
    snprintf(w->errmsg, sizeof w->errmsg, "%s: %s", what, strerror(errno));
    atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
    return w->err;
}

/* The loop the job's engine and mode call for: none for verify_only (it writes nothing:
 * the read-back after the threads, verify/run.c, is the job), submit_offload.c's for
 * io_submit_mode=offload, else loop.c's for a synchronous or an asynchronous engine. */
static void loop_run(worker *w)
{
    if (w->job->verify_only)
        return;
    if (w->td.ops->caps & SB_ENGINE_FILE_OPS)
        sb_io_loop_fileops(w);
    else if (w->job->submit_offload)
        sb_io_loop_offload(w);
    else if (w->td.ops->sync)
        sb_io_loop_sync(w);
    else
        sb_io_loop_async(w);
}

void *sb_io_worker_main(void *arg)
{
    worker *w = arg;
    const sb_io_job *job = w->job;
    w->io_start_ns = w->sh->start_ns + (uint64_t)(job->startdelay_s * 1e9);
    w->ramp_end_ns = w->io_start_ns + (uint64_t)(job->ramp_s * 1e9);
    w->end_ns = job->runtime_s > 0 ? w->ramp_end_ns + (uint64_t)(job->runtime_s * 1e9) : UINT64_MAX;
    sb_tsb_start(&w->ts, w->ramp_end_ns);
    w->next_tick_ns = 0;
    w->last_ns = w->ramp_end_ns;
    private_fd_table(w);
    bool numa = w->job->numa_cpu_nodes || w->job->numa_mem_mode;
    if ((numa && sb_io_numa_apply(w, w->buflen) < 0) || thread_priority(w) < 0 ||
        worker_engine_init(w) < 0) {
        atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
        if (w->fd_private)
            close(w->fd);
        w->finished_ns = sb_now_ns();
        atomic_store(&w->finished, true);
        return NULL;
    }
    sb_io_sleep_until(w, w->io_start_ns);
    loop_run(w);
    sb_flow_leave(&w->flow); /* the others no longer wait for this thread */
    if (job->end_fsync && sb_rw_writes(job->rw) && !job->verify_only && !w->err && !sb_io_stopped(w)) {
        sb_io_fsync(w);
        uint64_t now = sb_io_now(w);
        if (now > w->last_ns && now >= w->ramp_end_ns)
            w->last_ns = now;
    }
    /* fio's fsync_on_close: after the measurement, so outside its time */
    if (job->fsync_on_close && sb_rw_writes(job->rw) && !job->verify_only && !w->err)
        sb_io_fsync(w);
    /* The last, partial interval: before `finished`, which tells the controlling thread
     * that this worker's intervals are final. */
    const sb_histogram *h[SB_DDIR_N] = {&w->st[0].clat, &w->st[1].clat, &w->st[2].clat};
    sb_tsb_finish(&w->ts, w->last_ns, h, SB_DDIR_N, w->st[0].bytes + w->st[1].bytes + w->st[2].bytes);
    int lr = sb_iolog_close(w->log, w->last_ns - w->ramp_end_ns);
    w->log = NULL;
    if (lr < 0 && !w->err) {
        w->err = lr;
        snprintf(w->errmsg, sizeof w->errmsg, "writing a log file: %s", strerror(-lr));
    }
    sb_io_iolog_end(w); /* write_iolog's close line and last lines */
    /* Torn down here too: the ring belongs to this thread. */
    w->td.ops->cleanup(&w->td);
    w->engine_ready = false;
    if (w->fd_private) /* this table's reference only: the controlling thread closes its own */
        close(w->fd);
    atomic_store_explicit(&w->progress_bytes, w->bytes_issued, memory_order_relaxed);
    w->finished_ns = sb_now_ns();
    atomic_store(&w->finished, true);
    return NULL;
}
