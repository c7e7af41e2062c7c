/*
 * syncs — a thread's syncs and cache drops, beside the hot loop (loop.c) that asks for
 * them: the periodic fsync or fdatasync (fsync=N, fdatasync=N), timed; end_fsync's and
 * fsync_on_close's sync of every file; and the cache drop that starts each time-based
 * pass cold. Each is a system call that dwarfs the loop's own cost, so none is inlined.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/histogram.h"
#include "io/run/worker.h"

/* fsync, or fdatasync when data_only (fio's fdatasync=N). */
static void do_fsync(worker *w, bool data_only)
{
    w->td.datasync = data_only;
    /* fio's sync_file_range=FLAGS:N, over the job's region of the file in use */
    const sb_io_job *job = w->job;
    int r = !job->sfr_flags ? w->td.ops->fsync(&w->td)
            : sync_file_range(w->td.fd, (off64_t)job->offset, (off64_t)job->size, job->sfr_flags) < 0 ? -errno : 0;
    if (r < 0 && !w->err) {
        w->err = r;
        snprintf(w->errmsg, sizeof w->errmsg, "%s: %s", data_only ? "fdatasync" : "fsync", strerror(-r));
        atomic_store_explicit(&w->sh->stop, true, memory_order_relaxed);
    }
    if (__builtin_expect(w->iolog_sync != NULL, 0)) /* write_iolog logs it */
        w->iolog_sync(w, data_only);
}

/* The periodic sync (fsync=N, fdatasync=N), due since the Nth write and done before the
 * next I/O is drawn, as fio's (it issues the sync when it fetches the next I/O, so none
 * follows a job's last write: the loops ask only while a pass remains), and timed as
 * fio's sync latency. */
void sb_io_periodic_sync(worker *w)
{
    w->sync_pending = false;
    uint64_t t0 = sb_io_now(w);
    do_fsync(w, w->sync_data);
    uint64_t t1 = sb_io_now(w);
    if (t0 >= w->ramp_end_ns) {
        sb_hist_record(&w->sync_st.clat, t1 - t0);
        w->sync_st.ios++;
        w->fsyncs += !w->sync_data;
    }
}

/* Every pass of a time-based job starts cold, as fio's does (it reopens and
 * invalidates the file when it wraps around): one fadvise per pass, never per I/O. */
void sb_io_invalidate_region(worker *w)
{
    w->invalidate_pending = false;
    for (unsigned k = 0; k < (w->fs ? w->fs->n : 1); k++)
        posix_fadvise(w->fs ? w->fs->f[k].fd : w->fd, (off_t)w->job->offset, (off_t)w->job->size,
                      POSIX_FADV_DONTNEED);
}

/* end_fsync, fsync_on_close: every file of the thread, as fio's on each file's close. */
void sb_io_fsync(worker *w)
{
    if (!w->fs) {
        do_fsync(w, false);
        return;
    }
    int cur = w->td.fd;
    unsigned cur_file = w->td.file;
    for (unsigned k = 0; k < w->fs->n; k++) {
        w->td.fd = w->fs->f[k].fd;
        w->td.file = k; /* mmap's msync: the file's mapping */
        do_fsync(w, false);
    }
    w->td.fd = cur;
    w->td.file = cur_file;
}

