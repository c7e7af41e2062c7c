/*
 * engine_libaio — Linux native AIO (io_setup/io_submit/io_getevents through
 * libaio). Queued I/Os are submitted in one io_submit per commit; completions
 * are reaped in batches. Asynchronous only with O_DIRECT; buffered I/O
 * completes inside io_submit, as with fio.
 */
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>

#include "io/engine.h"
#include "io/job.h"

typedef struct laio_data {
    io_context_t ctx;
    struct iocb *iocbs;      /* [iodepth] */
    struct iocb **pending;   /* [iodepth] queued, not yet submitted */
    unsigned n_pending;
    struct io_event *events; /* [iodepth] */
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

static int laio_getevents(sb_engine_td *td, unsigned min, unsigned max, sb_io_u **out)
{
    laio_data *d = td->data;
    int r;
    if (max > td->iodepth)
        max = td->iodepth;
    do {
        r = io_getevents(d->ctx, (long)min, (long)max, d->events, NULL);
    } while (r == -EINTR);
    if (r < 0)
        return r;
    for (int i = 0; i < r; i++) {
        sb_io_u *u = d->events[i].data;
        long res = (long)d->events[i].res;
        u->result = res;
        out[i] = u;
    }
    return r;
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

const sb_engine_ops sb_engine_libaio = {
    .name = "libaio",
    .description = "Linux native AIO (io_submit/io_getevents)",
    .probe = laio_probe,
    .init = laio_init,
    .queue = laio_queue,
    .commit = laio_commit,
    .getevents = laio_getevents,
    .fsync = sb_engine_fsync_fd,
    .cleanup = laio_cleanup,
};
