/*
 * engine_libaio — Linux native AIO (io_setup/io_submit/io_getevents through
 * libaio). Queued I/Os are submitted in one io_submit per commit. Completions
 * the kernel has already posted are taken straight from the AIO completion
 * ring that io_setup maps into the process (as fio's userspace_reap does),
 * without a syscall; io_getevents is called only to wait for completions
 * that are not there yet. What reaches the device is unchanged: the same
 * submissions, the same "wait for at least min" rule. Asynchronous only with
 * O_DIRECT; buffered I/O completes inside io_submit, as with fio.
 */
#include <errno.h>
#include <libaio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "io/engine.h"
#include "io/job.h"

/* The kernel's completion ring (fs/aio.c), mapped at the address io_setup returns. */
#define AIO_RING_MAGIC 0xa10a10a1u
struct aio_ring {
    unsigned id, nr;
    unsigned head;           /* next event to take; written by whoever reaps */
    unsigned tail;           /* written by the kernel after the event */
    unsigned magic, compat_features, incompat_features, header_length;
    struct io_event io_events[];
};

typedef struct laio_data {
    io_context_t ctx;
    struct aio_ring *ring;   /* NULL when the kernel's ring is not the expected layout */
    struct iocb *iocbs;      /* [iodepth] */
    struct iocb **pending;   /* [iodepth] queued, not yet submitted */
    unsigned n_pending;
    struct io_event *events; /* [iodepth] */
    int rw_flags;            /* fio's nowait: RWF_NOWAIT in every iocb */
} laio_data;

static int laio_probe(void)
{
    io_context_t ctx = 0;
    int r = io_setup(1, &ctx);
    if (r < 0)
        return r;
    io_destroy(ctx);
    return 0;
}

static void laio_free(laio_data *d)
{
    free(d->iocbs);
    free(d->pending);
    free(d->events);
    free(d);
}

static int laio_init(sb_engine_td *td)
{
    laio_data *d = calloc(1, sizeof *d);
    if (!d)
        return -ENOMEM;
    d->iocbs = calloc(td->iodepth, sizeof *d->iocbs);
    d->pending = calloc(td->iodepth, sizeof *d->pending);
    d->events = calloc(td->iodepth, sizeof *d->events);
    if (!d->iocbs || !d->pending || !d->events) {
        laio_free(d);
        return -ENOMEM;
    }
    int r = io_setup((int)td->iodepth, &d->ctx);
    if (r < 0) {
        laio_free(d);
        return r;
    }
    struct aio_ring *ring = (struct aio_ring *)d->ctx;
    /* fio's userspace_reap=0: every reap through io_getevents, as fio's default */
    if (ring->magic == AIO_RING_MAGIC && ring->incompat_features == 0 &&
        !(td->job && td->job->laio_userspace_reap == 0))
        d->ring = ring;
    d->rw_flags = td->nowait ? RWF_NOWAIT : 0;
    td->data = d;
    return 0;
}

static int laio_queue(sb_engine_td *td, sb_io_u *u)
{
    laio_data *d = td->data;
    struct iocb *cb = &d->iocbs[u->index];
    if (u->ddir == SB_DDIR_READ)
        io_prep_pread(cb, td->fd, u->buf, u->len, (long long)u->offset);
    else
        io_prep_pwrite(cb, td->fd, u->buf, u->len, (long long)u->offset);
    cb->data = u;
    cb->aio_rw_flags = d->rw_flags;
    if (u->ioprio) { /* fio's cmdprio: the kernel takes aio_reqprio with this flag */
        cb->u.c.flags |= 1u << 1; /* IOCB_FLAG_IOPRIO (linux/aio_abi.h) */
        cb->aio_reqprio = (short)u->ioprio;
    }
    d->pending[d->n_pending++] = cb;
    return SB_Q_QUEUED;
}

static int laio_commit(sb_engine_td *td)
{
    laio_data *d = td->data;
    unsigned done = 0;
    while (done < d->n_pending) {
        int r = io_submit(d->ctx, (long)(d->n_pending - done), d->pending + done);
        if (r == -EINTR || r == -EAGAIN)
            continue;
        if (r < 0) {
            d->n_pending = 0;
            return r;
        }
        done += (unsigned)r;
    }
    d->n_pending = 0;
    return 0;
}

/* Takes up to max posted events from the ring without a syscall; this thread is
 * the ring's only reader. The acquire load of tail orders the event reads after
 * the kernel's writes; the release store of head hands the slots back. */
static unsigned ring_take(struct aio_ring *ring, unsigned max, sb_io_u **out)
{
    unsigned head = ring->head, nr = ring->nr, n = 0;
    unsigned tail = atomic_load_explicit((_Atomic unsigned *)&ring->tail, memory_order_acquire);
    while (n < max && head != tail) {
        const struct io_event *ev = &ring->io_events[head];
        sb_io_u *u = ev->data;
        u->result = (long)ev->res;
        out[n++] = u;
        if (++head == nr)
            head = 0;
    }
    if (n)
        atomic_store_explicit((_Atomic unsigned *)&ring->head, head, memory_order_release);
    return n;
}

static int laio_getevents(sb_engine_td *td, unsigned min, unsigned max, sb_io_u **out)
{
    laio_data *d = td->data;
    unsigned got = 0;
    if (max > td->iodepth)
        max = td->iodepth;
    if (d->ring) {
        got = ring_take(d->ring, max, out);
        if (got >= min)
            return (int)got;
    }
    /* Not enough posted yet: wait in the kernel for the rest. */
    int r;
    do {
        r = io_getevents(d->ctx, (long)(min - got), (long)(max - got), d->events, NULL);
    } while (r == -EINTR);
    if (r < 0)
        return got ? (int)got : r;
    for (int i = 0; i < r; i++) {
        sb_io_u *u = d->events[i].data;
        u->result = (long)d->events[i].res;
        out[got++] = u;
    }
    return (int)got;
}

static void laio_cleanup(sb_engine_td *td)
{
    laio_data *d = td->data;
    if (!d)
        return;
    io_destroy(d->ctx); /* waits for in-flight I/O */
    laio_free(d);
    td->data = NULL;
}

/* fio loads libaio for names beginning "aio" or "linuxaio" (ioengines.c); job files write these two */
static const char *const laio_aliases[] = {"aio", "linuxaio", NULL};
static const char *const laio_options[] = {"userspace_reap", "cmdprio_percentage", "cmdprio_class",
                                           "cmdprio", "cmdprio_bssplit", "nowait", NULL};
const sb_engine_ops sb_engine_libaio = {
    .name = "libaio",
    .rank = 3,
    .caps = SB_ENGINE_PRIO,
    .aliases = laio_aliases,
    .options = laio_options,
    .description = "Linux native AIO (io_submit/io_getevents)",
    .probe = laio_probe,
    .init = laio_init,
    .queue = laio_queue,
    .commit = laio_commit,
    .getevents = laio_getevents,
    .fsync = sb_engine_fsync_fd,
    .cleanup = laio_cleanup,
};
SB_ENGINE_REGISTER(sb_engine_libaio);
