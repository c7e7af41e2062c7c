/*
 * engine_io_uring — io_uring through liburing. Queued I/Os become SQEs and
 * are submitted with one io_uring_enter per commit (with GETEVENTS, as fio);
 * completions are taken from the CQ ring without a syscall when they are
 * already there, else one io_uring_enter waits for the missing ones.
 * Registered files (IOSQE_FIXED_FILE: each of the thread's) and registered buffers
 * (READ_FIXED/WRITE_FIXED) are used by default when the kernel accepts them:
 * they save the kernel a file reference (an atomic on a line shared with the
 * io-wq worker that may run the I/O) and the pinning of the buffer's pages on
 * every I/O, and change nothing a device sees. fio leaves both off unless
 * asked (registerfiles, fixedbufs); --registerfiles=0 --fixedbufs=0 does the
 * same here.
 */
#include <errno.h>
#include <sched.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "io/engine.h"
#include "io/job.h"

#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080 /* linux/fs.h of 6.14: buffered I/O that leaves no cache behind */
#endif

typedef struct uring_data {
    struct io_uring ring;
    struct io_uring_cqe **cqes; /* [iodepth] */
    unsigned in_flight;         /* submitted, not reaped: drained before the ring goes */
    struct iovec *iov;          /* [iodepth] nonvectored=0: each I/O's one iovec; else NULL */
    unsigned force_async, until_async; /* force_async=N: IOSQE_ASYNC when the count runs out */
    int rw_flags;               /* RWF_ flags of every I/O: nowait, uncached */
} uring_data;

static int uring_probe(void)
{
    struct io_uring ring;
    int r = io_uring_queue_init(2, &ring, 0);
    if (r < 0)
        return r;
    io_uring_queue_exit(&ring);
    return 0;
}

/* fio's nonvectored=0, force_async, nowait and uncached (td->job's), once per ring */
static int uring_job_options(sb_engine_td *td, uring_data *d)
{
    const sb_io_job *job = td->job;
    d->rw_flags = td->nowait ? RWF_NOWAIT : 0;
    if (!job)
        return 0;
    if (job->io_uncached && !td->direct)
        d->rw_flags |= RWF_DONTCACHE;
    d->until_async = d->force_async = job->uring_force_async;
    if (job->uring_nonvectored == 0 && !td->fixed_bufs) {
        if (!(d->iov = calloc(td->iodepth, sizeof *d->iov)))
            return -ENOMEM;
        for (unsigned i = 0; i < td->iodepth; i++)
            d->iov[i].iov_base = td->ios[i].buf;
    }
    return 0;
}

/* Keep the ring's io-wq workers off the CPU the submitter runs on when the
 * job placed nothing itself: a read the kernel cannot issue without blocking
 * (every buffered read of tmpfs) goes to one io-wq worker and back, and when
 * the scheduler puts the worker on the submitter's CPU the two take turns
 * instead of running side by side, which halves the IOPS at random from one
 * run to the next. A job with cpus_allowed/cpumask, a one-CPU machine or a
 * kernel without IORING_REGISTER_IOWQ_AFF keeps the kernel's placement. */
static void uring_iowq_apart(sb_engine_td *td, struct io_uring *ring)
{
    if ((td->job && td->job->cpus_allowed_set) || td->sqpoll)
        return;
    cpu_set_t set;
    int cpu = sched_getcpu();
    if (cpu < 0 || sched_getaffinity(0, sizeof set, &set) != 0)
        return;
    CPU_CLR(cpu, &set);
    if (CPU_COUNT(&set) == 0)
        return;
    (void)io_uring_register_iowq_aff(ring, sizeof set, &set);
}

static int uring_init(sb_engine_td *td)
{
    uring_data *d = calloc(1, sizeof *d);
    if (!d)
        return -ENOMEM;
    d->cqes = calloc(td->iodepth, sizeof *d->cqes);
    if (!d->cqes) {
        free(d);
        return -ENOMEM;
    }
    /* One thread submits and reaps: completions are run when it asks for them
     * (DEFER_TASKRUN) instead of interrupting it; older kernels get a plain ring. */
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    p.flags = IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
    /* fio's sqthread_poll and hipri are asked for: a ring without them would measure
     * something else, so a kernel that refuses them fails the job (no fallback) */
    unsigned asked = (td->sqpoll ? IORING_SETUP_SQPOLL : 0) | (td->hipri ? IORING_SETUP_IOPOLL : 0);
    if (td->sqpoll && td->job && td->job->uring_sqpoll_cpu >= 0) { /* fio's sqthread_poll_cpu */
        asked |= IORING_SETUP_SQ_AFF;
        p.sq_thread_cpu = (unsigned)td->job->uring_sqpoll_cpu;
    }
    if (asked)
        p.flags = asked; /* SQPOLL excludes DEFER_TASKRUN */
    int r = io_uring_queue_init_params(td->iodepth, &d->ring, &p);
    if (r == -EINVAL && !asked)
        r = io_uring_queue_init(td->iodepth, &d->ring, 0);
    if (r < 0)
        goto fail;
    uring_iowq_apart(td, &d->ring);
    /* every file of the thread, as fio's registerfiles: an I/O names its file's index */
    if (td->fixed_files && (r = io_uring_register_files(&d->ring, td->fds ? td->fds : &td->fd,
                                                        td->fds ? td->nfds : 1)) < 0) {
        if (td->files_required)
            goto fail_ring;
        td->fixed_files = false; /* by default only: plain file references */
    }
    if (td->fixed_bufs) {
        struct iovec *iov = calloc(td->iodepth, sizeof *iov);
        if (!iov) {
            r = -ENOMEM;
            goto fail_ring;
        }
        for (unsigned i = 0; i < td->iodepth; i++) {
            iov[i].iov_base = td->ios[i].buf;
            iov[i].iov_len = td->ios[i].len;
        }
        r = io_uring_register_buffers(&d->ring, iov, td->iodepth);
        free(iov);
        if (r < 0 && td->bufs_required)
            goto fail_ring;
        if (r < 0)
            td->fixed_bufs = false; /* by default only (memlock limit, size): plain buffers */
    }
    if ((r = uring_job_options(td, d)) < 0)
        goto fail_ring;
    td->data = d;
    return 0;
fail_ring:
    io_uring_queue_exit(&d->ring);
fail:
    free(d->cqes);
    free(d);
    return r;
}

static int uring_queue(sb_engine_td *td, sb_io_u *u)
{
    uring_data *d = td->data;
    struct io_uring_sqe *sqe = io_uring_get_sqe(&d->ring);
    if (!sqe) {
        u->result = -EBUSY;
        return SB_Q_COMPLETED;
    }
    int fd = td->fixed_files ? (td->fds ? (int)td->file : 0) : td->fd;
    if (td->fixed_bufs) {
        if (u->ddir == SB_DDIR_READ)
            io_uring_prep_read_fixed(sqe, fd, u->buf, u->len, u->offset, (int)u->index);
        else
            io_uring_prep_write_fixed(sqe, fd, u->buf, u->len, u->offset, (int)u->index);
    } else if (d->iov) { /* nonvectored=0: IORING_OP_READV/WRITEV of one iovec */
        struct iovec *iov = &d->iov[u->index];
        iov->iov_len = u->len;
        if (u->ddir == SB_DDIR_READ)
            io_uring_prep_readv(sqe, fd, iov, 1, u->offset);
        else
            io_uring_prep_writev(sqe, fd, iov, 1, u->offset);
    } else {
        if (u->ddir == SB_DDIR_READ)
            io_uring_prep_read(sqe, fd, u->buf, u->len, u->offset);
        else
            io_uring_prep_write(sqe, fd, u->buf, u->len, u->offset);
    }
    if (td->fixed_files)
        sqe->flags |= IOSQE_FIXED_FILE;
    sqe->rw_flags |= d->rw_flags;
    if (d->force_async && --d->until_async == 0) { /* fio's force_async: every Nth to io-wq */
        sqe->flags |= IOSQE_ASYNC;
        d->until_async = d->force_async;
    }
    sqe->ioprio = u->ioprio; /* fio's cmdprio; 0: the thread's priority */
    io_uring_sqe_set_data(sqe, u);
    d->in_flight++;
    return SB_Q_QUEUED;
}

static int uring_commit(sb_engine_td *td)
{
    uring_data *d = td->data;
    int r;
    /* With GETEVENTS, as fio's engine submits: on a DEFER_TASKRUN ring this also
     * posts the completions that are ready, so the next reap finds them in the
     * ring without another syscall. */
    do {
        r = io_uring_submit_and_get_events(&d->ring);
    } while (r == -EINTR || r == -EAGAIN);
    return r < 0 ? r : 0;
}

static int uring_getevents(sb_engine_td *td, unsigned min, unsigned max, sb_io_u **out)
{
    uring_data *d = td->data;
    unsigned got = 0;
    if (max > td->iodepth)
        max = td->iodepth;
    for (;;) {
        unsigned n = io_uring_peek_batch_cqe(&d->ring, d->cqes, max - got);
        for (unsigned i = 0; i < n; i++) {
            sb_io_u *u = io_uring_cqe_get_data(d->cqes[i]);
            u->result = d->cqes[i]->res;
            out[got++] = u;
        }
        io_uring_cq_advance(&d->ring, n);
        d->in_flight -= n;
        if (got >= min || got >= max)
            return (int)got;
        struct io_uring_cqe *cqe;
        int r = io_uring_wait_cqe_nr(&d->ring, &cqe, min - got);
        if (r < 0 && r != -EINTR && r != -EAGAIN)
            return r;
    }
}

static void uring_cleanup(sb_engine_td *td)
{
    uring_data *d = td->data;
    if (!d)
        return;
    /* After an error the worker may leave I/Os in flight; their buffers are freed
     * after this, and the kernel tears a ring down asynchronously, so wait for them. */
    if (d->in_flight)
        io_uring_submit(&d->ring);
    while (d->in_flight) {
        struct io_uring_cqe *cqe;
        if (io_uring_wait_cqe(&d->ring, &cqe) < 0)
            break;
        io_uring_cqe_seen(&d->ring, cqe);
        d->in_flight--;
    }
    io_uring_queue_exit(&d->ring);
    free(d->iov);
    free(d->cqes);
    free(d);
    td->data = NULL;
}

static const char *const io_uring_aliases[] = {"uring", "iouring", NULL};
static const char *const io_uring_options[] = {
    "hipri", "cmdprio_percentage", "cmdprio_class", "cmdprio", "cmdprio_bssplit", "fixedbufs",
    "registerfiles", "sqthread_poll", "sqthread_poll_cpu", "nonvectored", "uncached", "nowait",
    "force_async", NULL};
const sb_engine_ops sb_engine_io_uring = {
    .name = "io_uring",
    .rank = 4,
    .caps = SB_ENGINE_REGISTERS | SB_ENGINE_PRIO | SB_ENGINE_RING,
    .aliases = io_uring_aliases,
    .options = io_uring_options,
    .description = "io_uring (liburing); registered file and buffers as options",
    .probe = uring_probe,
    .init = uring_init,
    .queue = uring_queue,
    .commit = uring_commit,
    .getevents = uring_getevents,
    .fsync = sb_engine_fsync_fd,
    .cleanup = uring_cleanup,
};
SB_ENGINE_REGISTER(sb_engine_io_uring);
