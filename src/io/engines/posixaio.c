/*
 * engine_posixaio — POSIX AIO through glibc's aio_read/aio_write, completion
 * by aio_error polling and aio_suspend, as fio's posixaio engine (the engine
 * the seed pages used). glibc implements POSIX AIO with helper threads and
 * serialises the requests of one file descriptor, so a deep queue on one file
 * behaves close to queue depth 1; that is the behaviour the seed figures
 * carry, so this engine deliberately uses glibc's implementation (librt).
 */
#include <aio.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "io/engine.h"
#include "io/job.h"

#define SUSPEND_MAX 8u

typedef struct paio_data {
    struct aiocb *cbs;                /* [iodepth], cbs[u->index] belongs to ios[index] */
    bool *busy;                       /* [iodepth] in flight */
    const struct aiocb *suspend_list[SUSPEND_MAX];
    unsigned n_inflight;
} paio_data;

static int paio_init(sb_engine_td *td)
{
    paio_data *d = calloc(1, sizeof *d);
    if (!d)
        return -ENOMEM;
    d->cbs = calloc(td->iodepth, sizeof *d->cbs);
    d->busy = calloc(td->iodepth, sizeof *d->busy);
    if (!d->cbs || !d->busy) {
        free(d->cbs); free(d->busy); free(d);
        return -ENOMEM;
    }
    td->data = d;
    return 0;
}

static int paio_queue(sb_engine_td *td, sb_io_u *u)
{
    paio_data *d = td->data;
    struct aiocb *cb = &d->cbs[u->index];
    memset(cb, 0, sizeof *cb);
    cb->aio_fildes = td->fd;
    cb->aio_buf = u->buf;
    cb->aio_nbytes = u->len;
    cb->aio_offset = (off_t)u->offset;
    cb->aio_sigevent.sigev_notify = SIGEV_NONE;
    int r = u->ddir == SB_DDIR_READ ? aio_read(cb) : aio_write(cb);
    if (r < 0) {
        u->result = -errno;
        return SB_Q_COMPLETED;
    }
    d->busy[u->index] = true;
    d->n_inflight++;
    return SB_Q_QUEUED;
}

static int paio_commit(sb_engine_td *td) { return 0; }

/* As fio's engine: scan the requests in buffer order, take every one that has
 * completed (max is no limit here: each finished request is collected, there
 * is no kernel queue to leave it in), and when fewer than min are done sleep in
 * aio_suspend() on the first SUSPEND_MAX still in progress. aio_suspend() looks
 * every listed request up in glibc's request list under its global lock (and
 * again to unregister), so listing all 64 made those lookups the largest
 * user-space cost in profiles; whichever request wakes us, the scan finds every
 * completion. glibc serves one descriptor's requests in submission order, so the
 * oldest is the next to finish: when it is not among those listed, the wait
 * lasts until a listed one finishes, as fio's does. */
static int paio_getevents(sb_engine_td *td, unsigned min, unsigned max, sb_io_u **out)
{
    paio_data *d = td->data;
    unsigned got = 0;
    (void)max;
    for (;;) {
        unsigned ns = 0;
        for (unsigned i = 0; i < td->iodepth; i++) {
            if (!d->busy[i])
                continue;
            struct aiocb *cb = &d->cbs[i];
            int e = aio_error(cb);
            if (e == EINPROGRESS) {
                if (ns < SUSPEND_MAX)
                    d->suspend_list[ns++] = cb;
                continue;
            }
            ssize_t n = aio_return(cb);
            sb_io_u *u = &td->ios[i];
            u->result = e ? -e : n;
            out[got++] = u;
            d->busy[i] = false;
            d->n_inflight--;
        }
        if (got >= min || d->n_inflight == 0)
            return (int)got;
        if (aio_suspend(d->suspend_list, (int)ns, NULL) < 0 && errno != EINTR && errno != EAGAIN)
            return -errno;
    }
}

static void paio_cleanup(sb_engine_td *td)
{
    paio_data *d = td->data;
    if (!d)
        return;
    /* Anything still in flight must finish before its buffer goes away. */
    for (unsigned i = 0; i < td->iodepth; i++) {
        if (!d->busy[i])
            continue;
        struct aiocb *cb = &d->cbs[i];
        if (aio_cancel(cb->aio_fildes, cb) == AIO_NOTCANCELED) { /* its own file (files.c) */
            const struct aiocb *l[1] = {cb};
            while (aio_error(cb) == EINPROGRESS)
                aio_suspend(l, 1, NULL);
        }
        aio_return(cb);
    }
    free(d->cbs);
    free(d->busy);
    free(d);
    td->data = NULL;
}

const sb_engine_ops sb_engine_posixaio = {
    .name = "posixaio",
    .rank = 2,
    .description = "POSIX AIO (glibc aio_read/aio_write + aio_suspend)",
    .init = paio_init,
    .queue = paio_queue,
    .commit = paio_commit,
    .getevents = paio_getevents,
    .fsync = sb_engine_fsync_fd,
    .cleanup = paio_cleanup,
};
SB_ENGINE_REGISTER(sb_engine_posixaio);
